"""Named layer-1 checks and evidence extractors that rubric data refers to.

A rubric says `check: python.constant_equals` with parameters; the function registered under that
name decides it from the outcome alone. Keeping checks as named, parameterised functions means the
rubric stays data and each failure in a report says exactly which assertion failed and why.

Registration is explicit and has no global table: `@check("constant_equals")` only marks a
function, and a `Registry` is built from a list of modules under a namespace. The package's
vocabulary is one namespace per module (`evals.grade.checks.python` gives `python.*`); a scenario's
own modules (`scenario/<name>/checks/*.py`) are all under the scenario's name (`<name>.*`). Each
rubric gets the registry of its own scenario, so two scenarios may use the same short name, and
merging refuses a name that is already taken, so a scenario cannot replace a package check.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

from evals.core.errors import BadInputError
from evals.scenario.folder import ScenarioFolder
from evals.scenario.model import Scenario

if TYPE_CHECKING:  # annotations only: grading is not imported by post-run commands
    from evals.world.outcome import Outcome


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    detail: str
    evidence: str = ""


@dataclass
class GradeContext:
    """What a check may read: the outcome, the scenario, and the untouched seeded state for contrast."""

    outcome: Outcome
    scenario: Scenario
    cache: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def seeded(self) -> Outcome:
        """The world as seeded, as the backend recorded it on the outcome (`Outcome.as_seeded`).

        Compatibility path: an outcome.json written before backends recorded it (`grade --run` on
        an old run) has no record, and the sandbox world is seeded again to stand in for it, as
        was always done (for a live run that is the scenario's data, not the real services)."""
        recorded = self.outcome.as_seeded()
        if recorded is not None:
            return recorded
        from evals.world.backend import seeded_sandbox

        return seeded_sandbox(self.scenario, self.outcome.trial)


CheckFn = Callable[..., CheckResult]
EvidenceFn = Callable[..., str]

CHECK_MARK = "__evals_check__"
EVIDENCE_MARK = "__evals_evidence__"
SHORT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SCENARIO_CHECKS_DIR = ScenarioFolder.CHECKS


def _short(name: str) -> str:
    if not SHORT_NAME.match(name):
        raise ValueError(f"check name {name!r}: use lower_snake_case without dots (the namespace is added)")
    return name


def check(name: str) -> Callable[[CheckFn], CheckFn]:
    """Mark a function as the check `name`; a Registry lists it as `<namespace>.<name>`."""
    short = _short(name)

    def mark(fn: CheckFn) -> CheckFn:
        setattr(fn, CHECK_MARK, short)
        return fn

    return mark


def evidence(name: str) -> Callable[[EvidenceFn], EvidenceFn]:
    """Mark a function as the evidence extractor `name`; a Registry lists it as `<namespace>.<name>`."""
    short = _short(name)

    def mark(fn: EvidenceFn) -> EvidenceFn:
        setattr(fn, EVIDENCE_MARK, short)
        return fn

    return mark


class RegistryError(ValueError):
    """Two functions claim one name (within a namespace, or a scenario check against a package one)."""


def _where(fn: Callable[..., Any]) -> str:
    return f"{inspect.getsourcefile(fn) or fn.__module__}: {fn.__name__}"


def _add(table: dict[str, Any], name: str, fn: Callable[..., Any], kind: str) -> None:
    taken = table.get(name)
    if taken is not None and taken is not fn:
        raise RegistryError(f"{kind} {name!r} is defined twice: {_where(taken)} and {_where(fn)}")
    table[name] = fn


@dataclass(frozen=True)
class Registry:
    """Read-only tables of checks and evidence extractors by full name (`namespace.short`)."""

    checks: Mapping[str, CheckFn] = field(default_factory=lambda: MappingProxyType({}))
    evidence: Mapping[str, EvidenceFn] = field(default_factory=lambda: MappingProxyType({}))

    def __deepcopy__(self, memo: dict[int, Any]) -> Registry:
        return self  # read-only: a copied rubric shares its registry

    @classmethod
    def collect(cls, namespace: str, modules: Iterable[ModuleType]) -> Registry:
        """The marked functions *defined* in `modules` (not ones they import), under `namespace`."""
        checks: dict[str, CheckFn] = {}
        extractors: dict[str, EvidenceFn] = {}
        for module in modules:
            for value in vars(module).values():
                if not callable(value) or getattr(value, "__module__", None) != module.__name__:
                    continue
                short = getattr(value, CHECK_MARK, None)
                if isinstance(short, str):
                    _add(checks, f"{namespace}.{short}", value, "check")
                short = getattr(value, EVIDENCE_MARK, None)
                if isinstance(short, str):
                    _add(extractors, f"{namespace}.{short}", value, "evidence")
        return cls(MappingProxyType(checks), MappingProxyType(extractors))

    @classmethod
    def of_modules(cls, modules: Iterable[ModuleType]) -> Registry:
        """One namespace per module, named after it: `evals.grade.checks.mail` gives `mail.*`."""
        merged = cls()
        for module in modules:
            merged = merged.merged(cls.collect(module.__name__.rsplit(".", 1)[-1], [module]))
        return merged

    def merged(self, other: Registry) -> Registry:
        """Both registries' names; a name in both is an error, never a silent override."""
        checks, extractors = dict(self.checks), dict(self.evidence)
        for name, fn in other.checks.items():
            _add(checks, name, fn, "check")
        for name, ev in other.evidence.items():
            _add(extractors, name, ev, "evidence")
        return Registry(MappingProxyType(checks), MappingProxyType(extractors))


class _SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Compile from source on every load and write no bytecode: a scenario's checks are data that
    may be edited between two loads in one process, and nothing is left in the scenario folder."""

    def get_code(self, fullname: str) -> Any:
        return self.source_to_code(self.get_data(self.path), self.path)


def _import_file(name: str, path: Path) -> ModuleType:
    loader = _SourceOnlyLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and typing look the module up while it executes
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_scenario_checks(scenario_dir: Path, namespace: str | None = None) -> Registry:
    """The checks a scenario brings in `scenario_dir/checks/*.py`, as `<namespace>.<name>`.

    The namespace defaults to the folder's name, which is the scenario's name. Each call loads the
    files afresh under a module name unique to the folder. A module that does not load, or two
    functions claiming one name, is bad input naming the file.
    """
    namespace = namespace or scenario_dir.name
    folder = scenario_dir / SCENARIO_CHECKS_DIR
    if not folder.is_dir():
        return Registry()
    tag = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:10]
    prefix = "scenario_checks_" + re.sub(r"\W", "_", namespace) + "_" + tag
    modules = []
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue
        try:
            modules.append(_import_file(f"{prefix}.{path.stem}", path))
        except Exception as exc:
            raise BadInputError(f"{path}: cannot load the check module: {type(exc).__name__}: {exc}") from exc
    try:
        return Registry.collect(namespace, modules)
    except RegistryError as exc:
        raise BadInputError(f"{folder}: {exc}") from exc


def bad_params(fn: Callable[..., Any], params: dict[str, Any]) -> str | None:
    """Why `params` do not fit fn(ctx, **params), or None when they do (checked at rubric load)."""
    try:
        inspect.signature(fn).bind(None, **params)
    except TypeError as exc:
        return str(exc)
    return None
