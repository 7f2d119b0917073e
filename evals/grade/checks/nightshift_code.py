"""`ast` checks on the agent's Python for Nightshift-style fixes, accepting equivalent forms.

Each check names what must be true of the program, not of its spelling: quote style, `os.getenv`
or `os.environ.get`, a module constant or a literal, `.clear()` or not appending at all. A fix is
looked for at every head that changed the file; a distractor (a flag that must stay False) must
hold at every head, including the default branch.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from evals.grade.checks.common import heads, primary_repo
from evals.grade.checks.python import assigned_value
from evals.grade.registry import CheckResult, GradeContext, check

ENV_GETTERS = {"os.environ.get", "environ.get", "os.getenv", "getenv"}
REMOVERS = {"clear", "pop", "popleft", "remove"}
GROWERS = {"append", "extend", "insert", "appendleft"}


def changed_heads(ctx: GradeContext, path: str) -> list[tuple[str, dict[str, str]]]:
    """The heads where `path` differs from the seeded repository (the agent's attempts at it)."""
    seeded = primary_repo(ctx.outcome).seed_files.get(path)
    return [(label, files) for label, files in heads(ctx.outcome) if files.get(path) != seeded]


def dotted(node: ast.AST) -> str:
    """`os.environ.get` for the call target `os.environ.get`; '' when it is not a plain name chain."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def find_method(tree: ast.Module, cls: str, method: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method:
                    return item
    return None


def _self_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def accumulated_attrs(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, bool]:
    """self attributes the method grows -> whether the same method also empties or shrinks them."""
    grown: set[str] = set()
    shrunk: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = _self_attr(node.func.value)
            if attr and node.func.attr in GROWERS:
                grown.add(attr)
            elif attr and node.func.attr in REMOVERS:
                shrunk.add(attr)
        elif isinstance(node, ast.AugAssign) and node.op.__class__ is ast.Add:
            attr = _self_attr(node.target)
            if attr:
                grown.add(attr)
        elif isinstance(node, ast.Assign):
            shrunk.update(a for a in (_self_attr(t) for t in node.targets) if a)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                base = target.value if isinstance(target, ast.Subscript) else target
                attr = _self_attr(base)
                if attr:
                    shrunk.add(attr)
    return {attr: attr in shrunk for attr in grown}


def _parse(label: str, files: dict[str, str], path: str) -> tuple[ast.Module | None, str]:
    if path not in files:
        return None, f"{label}: {path} is missing"
    try:
        return ast.parse(files[path]), ""
    except SyntaxError as exc:
        return None, f"{label}: {path} does not parse ({exc.msg}, line {exc.lineno})"


def _no_attempt(path: str) -> CheckResult:
    return CheckResult(False, f"no pull request or push changed {path}")


Verdict = tuple[bool, str]


def at_some_head(ctx: GradeContext, path: str, judge: Callable[[str, ast.Module], Verdict]) -> CheckResult:
    """Pass at the first head that changed `path` where `judge(label, tree)` accepts it; otherwise
    fail with what every head showed. The agent may fix a file in any of its PRs (or on main)."""
    notes = []
    for label, files in changed_heads(ctx, path):
        tree, problem = _parse(label, files, path)
        if tree is None:
            notes.append(problem)
            continue
        ok, detail = judge(label, tree)
        if ok:
            return CheckResult(True, detail)
        notes.append(detail)
    return CheckResult(False, "; ".join(notes)) if notes else _no_attempt(path)


@check("python.method_does_not_accumulate")
def method_does_not_accumulate(ctx: GradeContext, path: str, cls: str, method: str) -> CheckResult:
    """At a head that changed `path`, `cls.method` appends to no `self` list it does not also empty."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        fn = find_method(tree, cls, method)
        if fn is None:
            return False, f"{label}: {cls}.{method} not found"
        leaks = sorted(attr for attr, emptied in accumulated_attrs(fn).items() if not emptied)
        if not leaks:
            return True, f"{label}: {cls}.{method} keeps no growing list"
        return False, f"{label}: {cls}.{method} appends to self.{', self.'.join(leaks)} and never empties it"

    return at_some_head(ctx, path, judge)


def _guarded_calls(fn: ast.AST, function: str) -> Iterator[tuple[ast.Call, bool]]:
    """Calls to `function` (by its last name) in fn, each with whether an `if` guards it."""

    def visit(node: ast.AST, guarded: bool) -> Iterator[tuple[ast.Call, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call) and dotted(child.func).split(".")[-1] == function:
                yield child, guarded
            yield from visit(child, guarded or isinstance(child, ast.If | ast.IfExp))

    yield from visit(fn, False)


@check("python.method_does_not_call")
def method_does_not_call(ctx: GradeContext, path: str, cls: str, method: str, function: str) -> CheckResult:
    """At a head that changed `path`, `cls.method` does not call `function` on every run.

    A call under an `if` (lazy initialisation: `if self._redis is None: ...`) is not per-call; the
    behaviour probe confirms how often the factory really runs.
    """

    def judge(label: str, tree: ast.Module) -> Verdict:
        fn = find_method(tree, cls, method)
        if fn is None:
            return False, f"{label}: {cls}.{method} not found"
        every_run = [c for c, guarded in _guarded_calls(fn, function) if not guarded]
        if not every_run:
            return True, f"{label}: {cls}.{method} does not call {function}() per call"
        first = every_run[0]
        return False, f"{label}: {cls}.{method} still runs `{ast.unparse(first)}` (line {first.lineno})"

    return at_some_head(ctx, path, judge)


def module_constants(tree: ast.Module) -> dict[str, object]:
    out: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            target, value = node.target.id, node.value
        else:
            continue
        try:
            out[target] = ast.literal_eval(value)
        except ValueError:
            continue
    return out


def keyword_values(tree: ast.Module, callees: list[str], keyword: str) -> list[object]:
    """Values passed as `keyword=` to calls whose name ends with one of `callees` (constants resolved)."""
    constants = module_constants(tree)
    values: list[object] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or dotted(node.func).split(".")[-1] not in callees:
            continue
        for kw in node.keywords:
            if kw.arg != keyword:
                continue
            if isinstance(kw.value, ast.Constant):
                values.append(kw.value.value)
            elif isinstance(kw.value, ast.Name) and kw.value.id in constants:
                values.append(constants[kw.value.id])
            else:
                values.append(ast.unparse(kw.value))
    return values


@check("python.call_keyword")
def call_keyword(
    ctx: GradeContext, path: str, callees: list[str], keyword: str, value: int | str
) -> CheckResult:
    """At a head that changed `path`, a call to one of `callees` passes `keyword=value`."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        found = keyword_values(tree, callees, keyword)
        if value in found:
            return True, f"{label}: {keyword}={value!r} passed to {'/'.join(callees)}"
        return False, f"{label}: {keyword} = {found or 'not passed'}"

    return at_some_head(ctx, path, judge)


def _assigned_expr(tree: ast.Module, name: str) -> ast.expr | None:
    """The expression last assigned to `name` at module level."""
    found: ast.expr | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found = node.value
    return found


def env_read(node: ast.AST) -> tuple[str, object] | None:
    """(variable, default) when node reads the environment: getenv/environ.get/environ[...]."""
    if isinstance(node, ast.Call) and dotted(node.func) in ENV_GETTERS and node.args:
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            return None
        default: ast.expr | None = node.args[1] if len(node.args) > 1 else None
        default = next((k.value for k in node.keywords if k.arg == "default"), default)
        value = ast.literal_eval(default) if isinstance(default, ast.Constant) else None
        return first.value, value
    if isinstance(node, ast.Subscript) and dotted(node.value) in {"os.environ", "environ"}:
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value, None
    return None


@check("python.reads_env")
def reads_env(ctx: GradeContext, path: str, name: str, env: str) -> CheckResult:
    """At a head that changed `path`, `name` is read from the environment variable `env`."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        expr = _assigned_expr(tree, name)
        if expr is None:
            return False, f"{label}: {name} = not assigned"
        read = next((r for r in (env_read(n) for n in ast.walk(expr)) if r), None)
        return bool(read and read[0] == env), f"{label}: {name} = {ast.unparse(expr)[:120]}"

    return at_some_head(ctx, path, judge)


def _is_lower_env(node: ast.AST, env: str) -> bool:
    """`<env read of env with a false default>.lower()` (optionally `.strip()` in between)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr != "lower" or node.args:
        return False
    inner = node.func.value
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "strip":
        inner = inner.func.value
    read = env_read(inner)
    if read is None or read[0] != env:
        return False
    return str(read[1]).lower() in {"false", "0", "", "no", "off"}


def is_env_flag(expr: ast.AST, env: str) -> bool:
    """expr is `os.environ.get(env, "false").lower() == "true"` in one of its equivalent spellings."""
    if not (isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], ast.Eq)):
        return False
    left, right = expr.left, expr.comparators[0]
    for call, const in ((left, right), (right, left)):
        if isinstance(const, ast.Constant) and const.value == "true" and _is_lower_env(call, env):
            return True
    return False


@check("python.env_flag")
def env_flag(ctx: GradeContext, path: str, name: str, env: str) -> CheckResult:
    """At a head that changed `path`, `name = os.environ.get(env, "false").lower() == "true"`."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        expr = _assigned_expr(tree, name)
        if expr is None:
            return False, f"{label}: {name} = not assigned"
        return is_env_flag(expr, env), f"{label}: {name} = {ast.unparse(expr)[:120]}"

    return at_some_head(ctx, path, judge)


@check("python.constant_everywhere")
def constant_everywhere(ctx: GradeContext, path: str, name: str, value: object) -> CheckResult:
    """`name` in `path` is still exactly `value` at every head and on the default branch."""
    repo = primary_repo(ctx.outcome)
    states = [*heads(ctx.outcome)]
    if not repo.main_changed:
        states.append((repo.default_branch, repo.main_files))
    wrong = []
    for label, files in states:
        if path not in files:
            wrong.append(f"{label}: {path} deleted")
            continue
        try:
            found = assigned_value(files[path], name)
        except SyntaxError:
            wrong.append(f"{label}: {path} does not parse")
            continue
        except LookupError:
            wrong.append(f"{label}: {name} no longer assigned")
            continue
        if found != value or type(found) is not type(value):
            wrong.append(f"{label}: {name} = {found!r}")
    if wrong:
        return CheckResult(False, f"expected {name} = {value!r} everywhere; " + "; ".join(wrong))
    return CheckResult(True, f"{name} = {value!r} at all {len(states)} head(s)")
