"""One value resolver for every check that reads a Python value.

The rubric asks for a value (`buffer_size` is 2048, the pool has 20 connections), not a spelling, so
`2048`, `2 * 1024`, `2_048`, a module constant, a class attribute (`cls.MAX_CONNECTIONS`) and a name
imported from another file of the repo (`from hydra.connectors.limits import MAX_CONNECTIONS`) all
resolve to the same value. What cannot be resolved statically (an environment read, a call) stays
unresolved and is shown as its source text. Every result carries the expression and the value, so a
reason reads "buffer_size = 2 * 512 (= 1024)" rather than a bare number.
"""

from __future__ import annotations

import ast
import decimal
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evals.grade.checks.python_ast import dotted, parse

MAX_DEPTH = 8
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
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


# Where an import's top package may live: the repository root, or a `src/` layout (PyPA's
# recommended layout, where pyproject's pythonpath or an install puts `src/` on the path).
SOURCE_ROOTS = ("", "src/")


def _module_file(files: dict[str, str], module: str) -> str | None:
    base = module.replace(".", "/")
    for root in SOURCE_ROOTS:
        for candidate in (f"{root}{base}.py", f"{root}{base}/__init__.py"):
            if candidate in files:
                return candidate
    return None


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


def _decimal(value: object) -> float:
    """`Decimal("2.0")` read as the number it holds (compared as a float, as the literal 2.0 is)."""
    return float(decimal.Decimal(str(value)))


# A number built by its type's constructor reads as that number: `Decimal("2.0")`, `float("2.0")`, `int("5")`.
_NUMERIC: dict[str, Callable[[Any], object]] = {"Decimal": _decimal, "float": float, "int": int}


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
        except (
            Unresolved,
            ArithmeticError,
            TypeError,
            ValueError,
            SyntaxError,
            KeyError,
            decimal.InvalidOperation,
        ):
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
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            convert = _NUMERIC.get(dotted(node.func).split(".")[-1])
            if convert is not None:
                return convert(self._value(path, node.args[0], depth + 1))
        raise Unresolved(ast.unparse(node))

    def _name(self, path: str, name: str, depth: int) -> object:
        tree = self._tree(path)
        assigned = _assignments(tree.body)
        if name in assigned:
            return self._value(path, assigned[name], depth)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        source = _module_file(self.files, node.module)
                        if source is None:
                            raise Unresolved(f"{node.module} is not in the repo")
                        return self._name(source, alias.name, depth + 1)
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
        module = self._imported_module(tree, owner)
        if module is not None:
            source = _module_file(self.files, module)
            if source is not None:
                return self._name(source, node.attr, depth + 1)
        raise Unresolved(ast.unparse(node))

    @staticmethod
    def _imported_module(tree: ast.Module, owner: str) -> str | None:
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name) == owner:
                        return alias.name
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if (alias.asname or alias.name) == owner:
                        return f"{node.module}.{alias.name}"
        return None


def assignment(tree: ast.Module, name: str) -> ast.expr | None:
    """The expression last assigned to `name` at module level or in a class body (dataclass fields)."""
    found: ast.expr | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef):
            found = _assignments(node.body).get(name, found)
    return found


def resolve_assigned(files: dict[str, str], path: str, name: str) -> Resolved:
    """`name`'s value in `path` of one head; raises LookupError when it is not assigned."""
    expr = assignment(parse(files[path]), name)
    if expr is None:
        raise LookupError(f"{name} is not assigned")
    return Resolver(files, path).resolve(expr)


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
