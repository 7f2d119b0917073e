"""Reading the agent's Python with `ast`: one parse per distinct source text, shared by every check.

A trial's grade asks many questions of the same few files (a constant at every head, a method's
body, the keywords of a call), and replayed trials hand over identical files. `parse` keeps the
trees of recent sources keyed by their text, so each distinct content is parsed once. Readers here
never modify a tree, which is what makes sharing one safe. Nothing here registers a check.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import lru_cache

from evals.grade.artefact import AgentArtefactError, bounded_tree, reading

PARSED_SOURCES = 256
ENV_GETTERS = {"os.environ.get", "environ.get", "os.getenv", "getenv"}
REMOVERS = {"clear", "pop", "popleft", "remove"}
GROWERS = {"append", "extend", "insert", "appendleft"}
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}

Function = ast.FunctionDef | ast.AsyncFunctionDef


@lru_cache(maxsize=PARSED_SOURCES)
def _parsed(source: str) -> ast.Module | SyntaxError | AgentArtefactError:
    try:
        with reading("the Python source"):
            tree = bounded_tree(ast.parse(source), "the Python source")
            return tree
    except SyntaxError as exc:
        return exc
    except (AgentArtefactError, ValueError) as exc:  # ValueError: a NUL byte, before Python 3.12
        return exc if isinstance(exc, AgentArtefactError) else AgentArtefactError(f"the Python source: {exc}")


def parse(source: str) -> ast.Module:
    """The tree of `source` (shared: do not modify it); raises SyntaxError like `ast.parse`, and
    AgentArtefactError for a source too deep, too large or too odd to parse, or one that nests deeper
    than the grader's readers walk (`evals.grade.artefact.MAX_NESTING`): the agent's failure."""
    tree = _parsed(source)
    if isinstance(tree, SyntaxError):
        raise SyntaxError(*tree.args)  # a fresh error each time: the cached one stays untouched
    if isinstance(tree, AgentArtefactError):
        raise AgentArtefactError(*tree.args)
    return tree


def clear_parse_cache() -> None:
    _parsed.cache_clear()


def dotted(node: ast.AST) -> str:
    """`os.environ.get` for the call target `os.environ.get`; '' when it is not a plain name chain."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def assigned_expr(tree: ast.Module, name: str) -> ast.expr | None:
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


def find_method(tree: ast.Module, cls: str, method: str) -> Function | None:
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


def accumulated_attrs(fn: Function) -> dict[str, bool]:
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


def guarded_calls(fn: ast.AST, function: str) -> Iterator[tuple[ast.Call, bool]]:
    """Calls to `function` (by its last name) in fn, each with whether an `if` guards it."""

    def visit(node: ast.AST, guarded: bool) -> Iterator[tuple[ast.Call, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call) and dotted(child.func).split(".")[-1] == function:
                yield child, guarded
            yield from visit(child, guarded or isinstance(child, ast.If | ast.IfExp))

    yield from visit(fn, False)


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


def routes(source: str, call: str = "Route") -> list[tuple[str, str]]:
    """(METHOD, path) pairs from `Route("GET", "/x", ...)` calls or `@app.get("/x")` decorators."""
    out: list[tuple[str, str]] = []
    for node in ast.walk(parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = dotted(node.func).split(".")[-1]
        args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if name == call and len(args) >= 2:
            out.append((args[0].upper(), args[1]))
        elif name in HTTP_METHODS and args and args[0].startswith("/"):
            out.append((name.upper(), args[0]))
    return out
