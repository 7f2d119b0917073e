"""One value resolver for every check that reads a Python value.

The rubric asks for a value (`buffer_size` is 2048, the pool has 20 connections), not a spelling, so
`2048`, `2 * 1024`, `2_048`, a module constant, a class attribute (`cls.MAX_CONNECTIONS`) and a name
imported from another file of the repo (`from hydra.connectors.limits import MAX_CONNECTIONS`, a src/
layout's `from gateway.quotas import X`, a relative `from .quotas import X`) all
resolve to the same value. What cannot be resolved statically (an environment read, a call) stays
unresolved and is shown as its source text. Every result carries the expression and the value, so a
reason reads "buffer_size = 2 * 512 (= 1024)" rather than a bare number.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from evals.grade.checks.python_ast import ENV_GETTERS, dotted, parse

MAX_DEPTH = 8
# The largest value arithmetic here builds: far past any constant a rubric asks about, and far short
# of what `9 ** 9 ** 9` or `"x" * 10 ** 12` in the agent's file would cost the grader to compute.
MAX_BITS = 1 << 16
MAX_ITEMS = 1 << 16


def _size(value: object) -> int:
    """Bits of an int, items of a sequence; 0 for anything else (fixed-size)."""
    if isinstance(value, int):
        return abs(value).bit_length()
    if isinstance(value, str | bytes | list | tuple):
        return len(value)
    return 0


def _pow(base: Any, exp: Any) -> Any:
    if isinstance(base, int) and isinstance(exp, int) and exp > 0 and _size(base) * exp > MAX_BITS:
        raise Unresolved(f"{base} ** {exp} is too large to compute")
    return operator.pow(base, exp)


def _lshift(value: Any, by: Any) -> Any:
    if isinstance(by, int) and by > MAX_BITS:
        raise Unresolved(f"{value} << {by} is too large to compute")
    return operator.lshift(value, by)


def _mul(left: Any, right: Any) -> Any:
    for seq, times in ((left, right), (right, left)):
        if (
            isinstance(seq, str | bytes | list | tuple)
            and isinstance(times, int)
            and len(seq) * times > MAX_ITEMS
        ):
            raise Unresolved("a repeated sequence too large to build")
    return operator.mul(left, right)


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: _mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: _pow,
    ast.LShift: _lshift,
    ast.RShift: operator.rshift,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
}


def _fraction(*args: Any) -> Fraction:
    """`Fraction`, except for a string with a huge exponent (`"1e999999999"`), which it would expand
    into an integer of that many digits."""
    if any(isinstance(a, str) and re.search(r"[eE]\s*[+-]?\d{5,}", a) for a in args):
        raise Unresolved(f"Fraction{args!r} is too large to compute")
    return Fraction(*args)


# Calls whose value follows from their arguments alone: a conversion (`float("0.21")`,
# `Decimal("0.21")`) or plain arithmetic (`round(0.21, 2)`). Anything else is left unresolved.
_CALLS: dict[str, Callable[..., Any]] = {
    "float": float,
    "int": int,
    "round": round,
    "abs": abs,
    "min": min,
    "max": max,
    "Decimal": Decimal,
    "decimal.Decimal": Decimal,
    "Fraction": _fraction,
    "fractions.Fraction": _fraction,
}


class Unresolved(Exception):
    """The expression's value is not known without running the program."""


@dataclass(frozen=True)
class Resolved:
    """An expression as written and, when `ok`, the value it resolves to."""

    expr: str
    value: object
    ok: bool

    def show(self) -> str:
        """`2048`, or `2 * 1024 (= 2048)` when the spelling differs from the value."""
        if not self.ok:
            return self.expr
        literal = repr(self.value)
        return literal if literal == self.expr else f"{self.expr} (= {literal})"


def _module_file(files: dict[str, str], module: str) -> str | None:
    """The file an absolute module name imports: at the repo's root or under `src/` (PyPA's src layout,
    `src/billing/x.py` for `billing.x`). Nowhere else: a `lib/billing/x.py` is not on the path, so a
    name imported from a module the head does not have stays unresolved."""
    base = module.replace(".", "/")
    for root in ("", "src/"):
        for name in (f"{root}{base}.py", f"{root}{base}/__init__.py"):
            if name in files:
                return name
    return None


def _returned(fn: ast.FunctionDef) -> ast.expr | None:
    """The expression a helper without parameters returns, when its body is only that `return`."""
    if fn.args.args or fn.args.posonlyargs or fn.args.kwonlyargs or fn.args.vararg or fn.args.kwarg:
        return None
    body = [n for n in fn.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def _package_file(files: dict[str, str], path: str, level: int, module: str | None) -> str | None:
    """The file a relative import (`from .quotas import X`, level 1) in `path` names, by folders."""
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    for _ in range(level - 1):
        folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
    base = "/".join(p for p in [folder, *(module or "").split(".")] if p)
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if candidate in files:
            return candidate
    return None


def import_source(files: dict[str, str], path: str, node: ast.ImportFrom) -> str | None:
    """The repo file `from M import ...` in `path` reads from: absolute (at the root or under src/) or
    relative to `path`'s package."""
    if node.level:
        return _package_file(files, path, node.level, node.module)
    return _module_file(files, node.module) if node.module else None


def _assignments(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """Last expression assigned to each plain name in one body (module or class level)."""
    out: dict[str, ast.expr] = {}
    for node in body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            out[node.target.id] = node.value
    return out


class Resolver:
    """Resolves expressions of one file of a repo head (`files` is the whole head)."""

    def __init__(self, files: dict[str, str], path: str) -> None:
        self.files = files
        self.path = path

    def _tree(self, path: str) -> ast.Module:
        return parse(self.files[path])

    def resolve(self, node: ast.expr) -> Resolved:
        text = ast.unparse(node)
        try:
            return Resolved(text, self._value(self.path, node, 0), True)
        except (Unresolved, ArithmeticError, TypeError, ValueError, SyntaxError, KeyError, IndexError):
            return Resolved(text, None, False)

    # -- the evaluation -----------------------------------------------------------------------

    def _value(self, path: str, node: ast.expr, depth: int) -> object:
        if depth > MAX_DEPTH:
            raise Unresolved("too deep")
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = [self._value(path, e, depth + 1) for e in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self._value(path, node.operand, depth + 1))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left = self._value(path, node.left, depth + 1)
            right = self._value(path, node.right, depth + 1)
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.Name):
            return self._name(path, node.id, depth + 1)
        if isinstance(node, ast.Attribute):
            return self._attribute(path, node, depth + 1)
        if isinstance(node, ast.Dict):
            return {
                self._value(path, k, depth + 1): self._value(path, v, depth + 1)
                for k, v in zip(node.keys, node.values, strict=True)
                if k is not None
            }
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            container = self._value(path, node.value, depth + 1)
            return container[self._value(path, node.slice, depth + 1)]  # type: ignore[index]
        if isinstance(node, ast.Call):
            return self._call(path, node, depth + 1)
        raise Unresolved(ast.unparse(node))

    def _call(self, path: str, node: ast.Call, depth: int) -> object:
        """A conversion or arithmetic builtin over resolvable arguments, or a helper of the head
        without parameters that only returns a resolvable expression (`VAT_RATE = _rate()`)."""
        name = dotted(node.func)
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise Unresolved(ast.unparse(node))
        helper = self._helper(path, name, depth)
        if helper is not None:
            if node.args:
                raise Unresolved(ast.unparse(node))
            return self._value(helper[0], helper[1], depth + 1)
        if name in _CALLS:
            return _CALLS[name](*(self._value(path, a, depth + 1) for a in node.args))
        raise Unresolved(ast.unparse(node))

    def _helper(self, path: str, name: str, depth: int) -> tuple[str, ast.expr] | None:
        """(file, returned expression) of the function `name` defined in `path` or imported into it."""
        if depth > MAX_DEPTH or "." in name:
            return None
        tree = self._tree(path)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                returned = _returned(node)
                return (path, returned) if returned is not None else None
        source, original = self.import_of(path, tree, name)
        return self._helper(source, original, depth + 1) if source else None

    def import_of(self, path: str, tree: ast.Module, name: str) -> tuple[str | None, str]:
        """The repo file and original name a `from ... import` in `path` binds `name` to."""
        for node in tree.body:
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return import_source(self.files, path, node), alias.name
        return None, name

    def _name(self, path: str, name: str, depth: int) -> object:
        tree = self._tree(path)
        assigned = _assignments(tree.body)
        if name in assigned:
            return self._value(path, assigned[name], depth)
        source, original = self.import_of(path, tree, name)
        if source is not None:
            return self._name(source, original, depth + 1)
        raise Unresolved(name)

    def _attribute(self, path: str, node: ast.Attribute, depth: int) -> object:
        owner = dotted(node.value)
        tree = self._tree(path)
        # A class attribute: `cls.X`, `self.X` or `SomeClass.X` (the class in this file that defines X).
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
        if owner in {"cls", "self"}:
            candidates = [c for c in classes if node.attr in _assignments(c.body)]
        else:
            candidates = [c for c in classes if c.name == owner]
        for klass in candidates:
            assigned = _assignments(klass.body)
            if node.attr in assigned:
                return self._value(path, assigned[node.attr], depth)
        # A module attribute: `limits.X` after `from hydra.connectors import limits` or `import a.b as m`.
        source = self._imported_module(tree, path, owner)
        if source is not None:
            return self._name(source, node.attr, depth + 1)
        raise Unresolved(ast.unparse(node))

    def _imported_module(self, tree: ast.Module, path: str, owner: str) -> str | None:
        """The repo file bound to the name `owner` by `import a.b as owner` or `from pkg import owner`."""
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name) == owner:
                        return _module_file(self.files, alias.name)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == owner:
                        if node.level:
                            sub = f"{node.module}.{alias.name}" if node.module else alias.name
                            return _package_file(self.files, path, node.level, sub)
                        return _module_file(self.files, f"{node.module}.{alias.name}")
        return None


def assignment(tree: ast.Module, name: str) -> ast.expr | None:
    """The expression last assigned to `name` at module level or in a class body (dataclass fields)."""
    found: ast.expr | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef):
            found = _assignments(node.body).get(name, found)
    return found


def resolve_assigned(files: dict[str, str], path: str, name: str) -> Resolved:
    """`name`'s value in `path` of one head, assigned there or imported into it (`from .rates import
    NL as VAT_RATE`); raises LookupError when it is neither."""
    tree = parse(files[path])
    expr = assignment(tree, name)
    resolver = Resolver(files, path)
    if expr is None:
        if resolver.import_of(path, tree, name)[0] is None:
            raise LookupError(f"{name} is not assigned")
        expr = ast.Name(id=name, ctx=ast.Load())
    return resolver.resolve(expr)


def keyword_values(files: dict[str, str], path: str, callees: list[str], keyword: str) -> list[Resolved]:
    """What each call to one of `callees` (by last name) in `path` passes as `keyword=`."""
    resolver = Resolver(files, path)
    out: list[Resolved] = []
    for node in ast.walk(parse(files[path])):
        if isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] in callees:
            out.extend(resolver.resolve(kw.value) for kw in node.keywords if kw.arg == keyword)
    return out


def assigned_value(source: str, name: str) -> object:
    """The value last assigned to `name` at module or class level, resolved within this one file
    (its source text when it cannot be resolved); raises LookupError if `name` is not assigned."""
    found = resolve_assigned({"<source>": source}, "<source>", name)
    return found.value if found.ok else found.expr


def _env_key(node: ast.AST, bound: dict[str, str]) -> str | None:
    """The variable an environment read names: a string literal, or a parameter bound to one."""
    key: ast.expr | None = None
    if isinstance(node, ast.Call) and dotted(node.func) in ENV_GETTERS and node.args:
        key = node.args[0]
    elif isinstance(node, ast.Subscript) and dotted(node.value) in {"os.environ", "environ"}:
        key = node.slice
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return key.value
    if isinstance(key, ast.Name):
        return bound.get(key.id)
    return None


def env_reads(files: dict[str, str], path: str, expr: ast.expr, depth: int = 0) -> set[str]:
    """Environment variables an expression reads: directly (`os.environ["X"]`, `os.getenv("X")`),
    through a module name assigned from one, or through a helper of the head called with the name
    (`require("X")` where `def require(name): return os.environ[name]`, in the file or imported)."""
    if depth > MAX_DEPTH:
        return set()
    resolver = Resolver(files, path)
    assigned_here = _assignments(resolver._tree(path).body)
    literals = {n: e.value for n, e in assigned_here.items() if isinstance(e, ast.Constant)}
    constants = {n: v for n, v in literals.items() if isinstance(v, str)}
    found: set[str] = set()
    for node in ast.walk(expr):
        key = _env_key(node, constants)
        if key:
            found.add(key)
        elif isinstance(node, ast.Name):
            assigned = assigned_here.get(node.id)
            if assigned is not None and assigned is not expr:
                found |= env_reads(files, path, assigned, depth + 1)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found |= _helper_env_reads(resolver, path, node, depth + 1)
    return found


def _helper_env_reads(resolver: Resolver, path: str, call: ast.Call, depth: int) -> set[str]:
    name = dotted(call.func)
    tree = resolver._tree(path)
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if fn is None:
        source, original = resolver.import_of(path, tree, name)
        if source is None:
            return set()
        fn = next(
            (n for n in resolver._tree(source).body if isinstance(n, ast.FunctionDef) and n.name == original),
            None,
        )
    if fn is None or depth > MAX_DEPTH:
        return set()
    bound: dict[str, str] = {}
    for param, arg in zip(fn.args.args, call.args, strict=False):
        value = Resolver(resolver.files, path).resolve(arg)
        if value.ok and isinstance(value.value, str):
            bound[param.arg] = value.value
    return {key for node in ast.walk(fn) if (key := _env_key(node, bound))}
