"""Runs inside the confinement: import a package as its service would, then read values and call functions.

The grader's worker (evals/grade/confine/worker.py) imports this module with the head's tree and
this folder on `sys.path` and calls `observe(spec)` once. A value in a Python file is what the
running service sees only after every module of its package has run its import-time code: another
module may rebind the constant (`rules.MFA_EXEMPT_ACCOUNTS = [...]`), mutate it, or replace the
function that reads it. So `observe` puts the tree's import roots (the repository's `pythonpath`,
e.g. `src`) first on `sys.path`, imports every module of each named package, then reads each
named value and calls each named function with the given arguments, returning what it found as
plain data; the grader compares (evals/grade/checks/behaviour.py). An exception while importing
the agent's modules is returned as what it is: the service would not start.

Besides what the spec names, every observation carries every public module-level value of plain
data (numbers, strings, collections of them) of every module imported, so every value part of a
task reads one observation per head (one confinement, cached by tree content), and the logging
the imports left behind: the root logger's effective level and the lowest effective level of any
logger (`logging.basicConfig(level=DEBUG)` or `getLogger("x").setLevel(DEBUG)` at import time
switches DEBUG on whatever a `LOG_LEVEL` constant says).

A value "read from the environment" is seen the same way: with `spec["environs"]` (each a mapping
of variable -> value, or None to unset it), the packages are imported again under each environment,
their modules dropped from `sys.modules` first so the import-time reads happen anew, and the named
values read each time (`variants`): `os.environ["KEY"]` read at import shows the sentinel the grader
set, a literal does not, whatever the file looks like.

Standard library only, and nothing of `evals` (it is not on the path in here). The module's name
is prefixed (`evals_`) so it cannot shadow a module of the agent's tree; the folder holds nothing
else for the same reason.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import numbers
import os
import pkgutil
import sys
from typing import Any

MAX_ITEMS = 200
MAX_NAMES = 400
REPR_CHARS = 200


def encode(value: Any, depth: int = 0) -> dict[str, Any]:
    """`value` as JSON: its type's name, its `repr`, and for plain data and collections the data
    itself (`items` for a list, tuple, set or frozenset; a set's items in a stable order)."""
    out: dict[str, Any] = {"type": type(value).__name__, "repr": repr(value)[:REPR_CHARS]}
    if value is None or isinstance(value, bool | int | float | str):
        out["value"] = value
    elif isinstance(value, numbers.Number):  # Decimal("2.0"), Fraction(1, 2): a number by value
        # a complex number is no rubric's value: it has no "number"
        with contextlib.suppress(TypeError, ValueError, OverflowError):
            out["number"] = float(value)  # type: ignore[arg-type]
    elif depth < 4 and isinstance(value, list | tuple | set | frozenset):
        items = list(value)[:MAX_ITEMS]
        encoded = [encode(item, depth + 1) for item in items]
        if isinstance(value, set | frozenset):
            encoded.sort(key=lambda e: e["repr"])
        out["items"] = encoded
        out["length"] = len(value)
    return out


def _import_all(package: str) -> list[str]:
    """Import `package` and every module under it, in a stable order; the names imported."""
    top = importlib.import_module(package)
    names = [package]
    for info in sorted(
        pkgutil.walk_packages(getattr(top, "__path__", []), package + "."), key=lambda i: i.name
    ):
        if info.name.rsplit(".", 1)[-1] in ("__main__",):
            continue
        importlib.import_module(info.name)
        names.append(info.name)
    return names


def _plain(value: Any) -> bool:
    """Whether a module-level value is data a rubric could name (not a function, class or module)."""
    if value is None or isinstance(value, bool | int | float | str | numbers.Number):
        return True
    return isinstance(value, list | tuple | set | frozenset)


def module_values(names: list[str]) -> dict[str, dict[str, Any]]:
    """Every public plain-data value (and `__version__`) of each imported module, encoded."""
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        module = sys.modules.get(name)
        if module is None:
            continue
        found = {}
        for key, value in list(vars(module).items())[:MAX_NAMES]:
            if (key == "__version__" or not key.startswith("_")) and _plain(value):
                try:
                    found[key] = encode(value)
                except BaseException as exc:  # an agent's __repr__ may raise anything
                    found[key] = {"raised": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"}
        out[name] = found
    return out


def log_levels() -> dict[str, Any]:
    """The root logger's effective level, and the lowest effective level of any logger, with its name."""
    root = logging.getLogger().getEffectiveLevel()
    lowest, where = root, "root"
    for name, logger in sorted(logging.root.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and logger.getEffectiveLevel() < lowest:
            lowest, where = logger.getEffectiveLevel(), name
    return {"root": root, "lowest": lowest, "lowest_name": where}


def observe(spec: dict[str, Any]) -> dict[str, Any]:
    """Import `spec["packages"]` whole (from `spec["roots"]`), then read `spec["values"]` ([module,
    name] pairs) and make `spec["calls"]` ([module, function, args]); each as an encoded value or
    `{"raised": "Type: message"}`. An import that raises ends the observation with `import_error`."""
    for root in reversed(spec.get("roots", ["."])):
        sys.path.insert(0, os.path.abspath(root))
    imported: list[str] = []
    try:
        for package in spec.get("packages", []):
            imported += _import_all(package)
    except BaseException as exc:  # the agent's module may raise anything at import, SystemExit included
        failed = {"imported": imported, "import_error": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"}
        # a module that requires its variable (`os.environ["KEY"]`) fails here and imports below
        return {**failed, "variants": [_under(spec, e) for e in spec.get("environs") or []]}
    modules, levels = module_values(imported), log_levels()  # as the imports left them, before any call
    values = []
    for module, name in spec.get("values", []):
        try:
            values.append(encode(getattr(importlib.import_module(module), name)))
        except BaseException as exc:
            values.append({"raised": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"})
    calls = []
    for module, function, args in spec.get("calls", []):
        try:
            calls.append(encode(getattr(importlib.import_module(module), function)(*args)))
        except BaseException as exc:
            calls.append({"raised": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"})
    out = {
        "imported": imported,
        "values": values,
        "calls": calls,
        "modules": modules,
        "logging": levels,
    }
    if spec.get("environs"):
        out["variants"] = [_under(spec, environ) for environ in spec["environs"]]
    return out


def _under(spec: dict[str, Any], environ: dict[str, str | None]) -> dict[str, Any]:
    """The named values with the packages imported afresh under `environ` (None unsets a variable)."""
    packages = spec.get("packages", [])
    for name in [n for n in sys.modules if any(n == p or n.startswith(p + ".") for p in packages)]:
        del sys.modules[name]
    for key, value in environ.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    try:
        for package in packages:
            _import_all(package)
    except BaseException as exc:
        return {"import_error": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"}
    values = []
    for module, name in spec.get("values", []):
        try:
            values.append(encode(getattr(importlib.import_module(module), name)))
        except BaseException as exc:
            values.append({"raised": f"{type(exc).__name__}: {str(exc)[:REPR_CHARS]}"})
    return {"values": values}
