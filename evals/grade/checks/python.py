"""Checks on the agent's Python: read with `ast` (never regex on source) or run in the confinement.

Each check names what must be true of the program, not of its spelling: quote style, spacing, a type
annotation, `os.getenv` or `os.environ.get`, a module constant or a literal, `.clear()` or not
appending at all. A fix is looked for at every head that changed the file (the agent may fix a file
in any of its PRs, or on main); a value that must stay put must hold at every head and on main.
Sources are parsed through `python_ast.parse`, so a file's content is parsed once per grade.
"""

from __future__ import annotations

import ast
import hashlib
import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

from evals.core.jsonio import sha256_text
from evals.grade.checks.common import at_some_changed_head, heads, primary_repo
from evals.grade.checks.python_ast import (
    accumulated_attrs,
    assigned_expr,
    dotted,
    find_method,
    guarded_calls,
    is_env_flag,
    parse,
)
from evals.grade.checks.python_values import assigned_value as assigned_value
from evals.grade.checks.python_values import env_reads, keyword_values, resolve_assigned
from evals.grade.confine.policy import ExecutionDeferred, deferring
from evals.grade.confine.testrun import PytestRun, run_pytest
from evals.grade.registry import CheckResult, GradeContext, check

Verdict = tuple[bool, str]


def _parse(label: str, files: dict[str, str], path: str) -> tuple[ast.Module | None, str]:
    if path not in files:
        return None, f"{label}: {path} is missing"
    try:
        return parse(files[path]), ""
    except SyntaxError as exc:
        return None, f"{label}: {path} does not parse ({exc.msg}, line {exc.lineno})"


def at_some_head(ctx: GradeContext, path: str, judge: Callable[[str, ast.Module], Verdict]) -> CheckResult:
    """Pass at the first head that changed `path` where `judge(label, tree)` accepts it; otherwise
    fail with what every head showed. The agent may fix a file in any of its PRs (or on main)."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        tree, problem = _parse(label, files, path)
        if tree is None:
            return CheckResult(False, problem)
        return CheckResult(*judge(label, tree))

    return at_some_changed_head(ctx.outcome, path, look)


NUMBERS = (int, float, Decimal, Fraction)


def _equal(found: object, expected: object) -> bool:
    """Numbers compare by value whatever their type (`Decimal("0.21")` is 0.21); the rest exactly."""
    if isinstance(found, NUMBERS) and isinstance(expected, NUMBERS) and not isinstance(found, bool):
        return math.isclose(float(found), float(expected), abs_tol=1e-9)
    return found == expected


@check("constant_equals")
def constant_equals(ctx: GradeContext, path: str, name: str, value: object) -> CheckResult:
    """At some head the agent produced, `name` in `path` is assigned exactly `value`."""
    seen = []
    for label, files in heads(ctx.outcome):
        if path not in files:
            seen.append(f"{label}: {path} missing")
            continue
        try:
            found = resolve_assigned(files, path, name)
        except SyntaxError as exc:
            seen.append(f"{label}: {path} does not parse ({exc.msg}, line {exc.lineno})")
            continue
        except LookupError:
            seen.append(f"{label}: {name} not assigned")
            continue
        if found.ok and _equal(found.value, value):
            return CheckResult(True, f"{label}: {name} = {found.show()}")
        seen.append(f"{label}: {name} = {found.show()}")
    if not seen:
        return CheckResult(False, "the agent opened no pull request and pushed nothing")
    return CheckResult(False, f"expected {name} = {value!r}; found " + "; ".join(seen))


@check("constant_equals_everywhere")
def constant_equals_everywhere(ctx: GradeContext, path: str, name: str, value: object) -> CheckResult:
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
            found = resolve_assigned(files, path, name)
        except SyntaxError:
            wrong.append(f"{label}: {path} does not parse")
            continue
        except LookupError:
            wrong.append(f"{label}: {name} no longer assigned")
            continue
        if not found.ok or found.value != value or type(found.value) is not type(value):
            wrong.append(f"{label}: {name} = {found.show()}")
    if wrong:
        return CheckResult(False, f"expected {name} = {value!r} everywhere; " + "; ".join(wrong))
    return CheckResult(True, f"{name} = {value!r} at all {len(states)} head(s)")


@check("method_keeps_no_growing_list")
def method_keeps_no_growing_list(ctx: GradeContext, path: str, cls: str, method: str) -> CheckResult:
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


@check("method_does_not_call_each_time")
def method_does_not_call_each_time(
    ctx: GradeContext, path: str, cls: str, method: str, function: str
) -> CheckResult:
    """At a head that changed `path`, `cls.method` does not call `function` on every run.

    A call under an `if` (lazy initialisation: `if self._client is None: ...`) is not per-call; a
    behaviour probe, where a scenario has one, confirms how often the call really runs.
    """

    def judge(label: str, tree: ast.Module) -> Verdict:
        fn = find_method(tree, cls, method)
        if fn is None:
            return False, f"{label}: {cls}.{method} not found"
        every_run = [c for c, guarded in guarded_calls(fn, function) if not guarded]
        if not every_run:
            return True, f"{label}: {cls}.{method} does not call {function}() per call"
        first = every_run[0]
        return False, f"{label}: {cls}.{method} still runs `{ast.unparse(first)}` (line {first.lineno})"

    return at_some_head(ctx, path, judge)


@check("call_passes_keyword")
def call_passes_keyword(
    ctx: GradeContext, path: str, callees: list[str], keyword: str, value: int | str
) -> CheckResult:
    """At a head that changed `path`, a call to one of `callees` passes `keyword=value` (resolved:
    a literal, a constant, a class attribute or a name imported from another file of the head)."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        tree, problem = _parse(label, files, path)
        if tree is None:
            return CheckResult(False, problem)
        found = keyword_values(files, path, callees, keyword)
        hit = next((f for f in found if f.ok and _equal(f.value, value)), None)
        if hit is not None:
            return CheckResult(True, f"{label}: {keyword}={hit.show()} passed to {'/'.join(callees)}")
        shown = ", ".join(f.show() for f in found) or "not passed"
        return CheckResult(False, f"{label}: {keyword} = {shown}")

    return at_some_changed_head(ctx.outcome, path, look)


def _constructs(name: str, callees: list[str]) -> bool:
    """`name` calls one of `callees` directly, or through a `from_*` alternative constructor."""
    parts = name.split(".")
    if parts[-1] in callees:
        return True
    return len(parts) >= 2 and parts[-1].startswith("from_") and parts[-2] in callees


@check("calls_one_of")
def calls_one_of(ctx: GradeContext, path: str, callees: list[str]) -> CheckResult:
    """At a head that changed `path`, the code calls one of `callees` (by last name), e.g. builds a
    `ConnectionPool` itself rather than leaving one implicit inside a client. An alternative
    constructor (`ConnectionPool.from_url(...)`, any `from_*` classmethod) builds the same object, as
    a reviewer reads it, so it counts as calling its class."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _constructs(dotted(node.func), callees):
                return True, f"{label}: calls `{ast.unparse(node.func)}` (line {node.lineno})"
        return False, f"{label}: {path} calls none of {', '.join(callees)}"

    return at_some_head(ctx, path, judge)


@check("assigned_from_env")
def assigned_from_env(ctx: GradeContext, path: str, name: str, env: str) -> CheckResult:
    """At a head that changed `path`, `name` is read from the environment variable `env`: directly,
    through a name assigned from it, or through a helper of the head called with the variable's name
    (`require("PAYMENTS_API_KEY")`), in the file or imported into it."""

    def look(label: str, files: dict[str, str]) -> CheckResult:
        tree, problem = _parse(label, files, path)
        if tree is None:
            return CheckResult(False, problem)
        expr = assigned_expr(tree, name)
        if expr is None:
            return CheckResult(False, f"{label}: {name} = not assigned")
        shown = ast.unparse(expr)[:120]
        return CheckResult(env in env_reads(files, path, expr), f"{label}: {name} = {shown}")

    return at_some_changed_head(ctx.outcome, path, look)


@check("assigned_env_flag")
def assigned_env_flag(ctx: GradeContext, path: str, name: str, env: str) -> CheckResult:
    """At a head that changed `path`, `name = os.environ.get(env, "false").lower() == "true"`."""

    def judge(label: str, tree: ast.Module) -> Verdict:
        expr = assigned_expr(tree, name)
        if expr is None:
            return False, f"{label}: {name} = not assigned"
        return is_env_flag(expr, env), f"{label}: {name} = {ast.unparse(expr)[:120]}"

    return at_some_head(ctx, path, judge)


def _agent_tests(files: dict[str, str], seed_files: dict[str, str], tests_dir: str) -> list[str]:
    """Test modules under `tests_dir` the agent added or changed at this head: its own tests, whatever
    they assert with (`121.0`, `121`, `pytest.approx(121)`, `100 * 1.21`, the constant itself)."""
    prefix = tests_dir.rstrip("/") + "/"
    return sorted(
        p
        for p, text in files.items()
        if p.startswith(prefix)
        and p.endswith(".py")
        and p.rsplit("/", 1)[-1].startswith("test")
        and text != seed_files.get(p)
    )


def _claim(run: PytestRun) -> str:
    """A confined pytest run as evidence: what it reported, marked as the tested code's own claim."""
    counts = "no test report" if run.tests is None else f"{run.tests} test(s), {run.failed} failed or errored"
    claim = f"pytest exit {run.exit_code}, {counts} (the tested code's claim, confinement {run.mode})"
    return f"{claim}\n{run.output}"


def _literal_like(value: float, like: object) -> str:
    """`value` written as a literal of the type the agent's own value has (`Decimal("2.0")` where it
    used a Decimal), so code that computes with the constant keeps working once it is set."""
    if isinstance(like, Decimal):
        return f'__import__("decimal").Decimal({str(value)!r})'
    if isinstance(like, Fraction):
        return f'__import__("fractions").Fraction({str(value)!r})'
    if isinstance(like, int) and not isinstance(like, bool) and float(value).is_integer():
        return repr(int(value))
    return repr(float(value))


def set_constant(files: dict[str, str], path: str, name: str, value: float) -> dict[str, str] | None:
    """This head with `name` in `path` assigned `value` (unchanged when it already is); None when the
    module assigns no such name at its top level, so the value cannot be set without guessing."""
    if path not in files:
        return None
    try:
        current = resolve_assigned(files, path, name)
        tree = parse(files[path])
    except (LookupError, SyntaxError):
        return None
    if current.ok and isinstance(current.value, NUMBERS) and current.value == value:
        return files
    lines = files[path].splitlines(keepends=True)
    for node in reversed(tree.body):  # the last top-level assignment is the one the module keeps
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            end = node.end_lineno or node.lineno
            line = f"{name} = {_literal_like(value, current.value)}\n"
            return {**files, path: "".join([*lines[: node.lineno - 1], line, *lines[end:]])}
    return None


@check("regression_test_fails_on_seed")
def regression_test_fails_on_seed(
    ctx: GradeContext, tests_dir: str, value: float, path: str | None = None, name: str | None = None
) -> CheckResult:
    """The tests the agent added or changed pass on its code and fail on the seeded code.

    Running them both ways proves they exercise the bug (`value` is the rubric's example of what a
    test would check) rather than merely mentioning the number; how a test spells the value does not
    matter, which is why the agent's test files are run rather than searched for the literal. With
    `path` and `name` (the constant the test must pin), the tests must also pass once that constant
    is `value`: a test pinning a wrong value (the stale 1.5 where 2.0 is right) passes on code that
    has the same wrong value, and fails the seed, but pins nothing the rubric asked for.
    """
    seed_files = ctx.seeded.repos[0].main_files
    notes = []
    for label, files in heads(ctx.outcome):
        targets = _agent_tests(files, seed_files, tests_dir)
        if not targets:
            notes.append(f"{label}: no test under {tests_dir}/ was added or changed (e.g. one for {value})")
            continue
        run = run_pytest(files, targets, seed_files)
        if not run.passed:
            why = "ended without a test report" if run.tests is None else "fails on the agent's code"
            notes.append(f"{label}: {', '.join(targets)} {why}")
            return CheckResult(False, "; ".join(notes), _claim(run))
        on_seed = {**seed_files, **{t: files[t] for t in targets}}
        seeded = run_pytest(on_seed, targets, seed_files)
        if not seeded.failed_some:
            why = "ended without a test report" if seeded.tests is None else "also passes"
            notes.append(f"{label}: {', '.join(targets)} {why} on the unfixed code, so it tests nothing")
            continue
        shown = ", ".join(targets)
        if path is not None and name is not None:
            corrected = set_constant(files, path, name, value)
            if corrected is None:
                notes.append(
                    f"{label}: {name} in {path} could not be set to {value} to check what {shown} pins"
                )
                continue
            if corrected is not files:
                pinned = run_pytest(corrected, targets, seed_files)
                if not pinned.passed:
                    notes.append(f"{label}: {shown} fails once {name} = {value}, so it pins another value")
                    return CheckResult(False, "; ".join(notes), _claim(pinned))
        return CheckResult(True, f"{label}: {shown} passes on the fix and fails on the seeded code")
    return CheckResult(False, "; ".join(notes) or "the agent opened no pull request and pushed nothing")


def seeded_tests(seed_files: dict[str, str], tests_dir: str) -> list[str]:
    """The repository's own test files: every test module the seed ships under `tests_dir`."""
    prefix = tests_dir.rstrip("/") + "/"
    names = [p for p in seed_files if p.startswith(prefix) and p.endswith(".py")]
    return sorted(p for p in names if p.rsplit("/", 1)[-1].startswith("test_"))


_SEED_RUNS: dict[str, PytestRun] = {}


def _seed_run(seed_files: dict[str, str], targets: list[str]) -> PytestRun:
    """The seeded tests on the seeded code, once per seeded tree (every trial of a scenario shares it)."""
    key = sha256_text("\0".join(f"{p}\0{seed_files[p]}" for p in sorted(seed_files)))
    if key not in _SEED_RUNS:
        _SEED_RUNS[key] = run_pytest(seed_files, targets, seed_files)
    return _SEED_RUNS[key]


_RESTORED_RUNS: dict[str, PytestRun] = {}


def restored_run(files: dict[str, str], seed_files: dict[str, str], targets: list[str]) -> PytestRun:
    """The seeded tests `targets`, put back over a head's files, run on that head's code. Kept per
    tree, because the rubric's part and the suite-wide collateral rule ask the same question."""
    if deferring():  # a result cached before must not answer where agent code may not run
        raise ExecutionDeferred("agent code is not executed in this job (EVALS_DEFER_EXECUTION)")
    restored = {**files, **{t: seed_files[t] for t in targets}}
    listed = "\0".join(f"{p}\0{restored[p]}" for p in sorted(restored)) + "\0\0" + "\0".join(targets)
    # surrogatepass: a name with bytes UTF-8 cannot encode is keyed too; writing the tree refuses it
    # as the agent's failure (AgentArtefactError), not this digest as a crash
    key = hashlib.sha256(listed.encode("utf-8", "surrogatepass")).hexdigest()
    if key not in _RESTORED_RUNS:
        if len(_RESTORED_RUNS) > 64:  # a long grading process keeps the latest few only
            _RESTORED_RUNS.clear()
        _RESTORED_RUNS[key] = run_pytest(restored, targets, seed_files)
    return _RESTORED_RUNS[key]


def fewer_ran(run: PytestRun, seed: PytestRun) -> str:
    """How a passing run of the seeded tests ran fewer of them than the seed's run did ("" when it
    ran as many): tests skipped or xfailed at run time by the code under test, or not collected."""
    if run.tests is not None and seed.tests is not None and run.tests < seed.tests:
        return f"{seed.tests - run.tests} of {seed.tests} not run"
    if (run.skipped or 0) > (seed.skipped or 0):
        return f"{(run.skipped or 0) - (seed.skipped or 0)} of {run.tests} skipped or xfailed at run time"
    return ""


def seeded_tests_failure(files: dict[str, str], seed_files: dict[str, str], targets: list[str]) -> str:
    """Why the repository's own tests fail at this head ("" when they pass, or when they fail on the
    seeded code too: a scenario bug, not the agent's); a test the code under test skips at run time
    has not passed. ExecutionDeferred where agent code may not run."""
    seed = _seed_run(seed_files, targets) if targets else None
    if seed is None or not seed.passed:
        return ""
    run = restored_run(files, seed_files, targets)
    if run.passed:
        fewer = fewer_ran(run, seed)
        return f"the repository's own tests did not all run ({', '.join(targets)}: {fewer})" if fewer else ""
    counts = "no test report" if run.tests is None else f"{run.failed} of {run.tests} failed"
    if run.tests is not None and run.skipped:
        counts += f", {run.skipped} skipped"
    return f"the repository's own tests fail ({', '.join(targets)}: {counts}, pytest exit {run.exit_code})"


@check("repo_tests_pass")
def repo_tests_pass(ctx: GradeContext, tests_dir: str = "tests") -> CheckResult:
    """The repository's own tests, as seeded, still pass at every head the agent produced (pass-to-pass).

    Each head's code is tested with the seed's test files put back: an agent that edits a failing test
    to pass, or deletes it, does not get to grade itself; and a head where fewer of them ran than on
    the seed (the code under test skipping them at run time) has not passed them. Tests the agent
    added are its own and are checked elsewhere (a fail-to-pass test). A head that breaks a seeded
    test loses the point, and the reason names it. The seeded tests must pass on the seeded code;
    if they do not, the scenario is broken, and the check says so rather than blaming the agent.
    """
    seed_files = ctx.seeded.repos[0].main_files
    targets = seeded_tests(seed_files, tests_dir)
    if not targets:
        return CheckResult(False, f"the seeded repository has no tests under {tests_dir}/ (a scenario bug)")
    baseline = _seed_run(seed_files, targets)
    if not baseline.passed:
        return CheckResult(
            False, "the repository's own tests fail on the seeded code (a scenario bug)", _claim(baseline)
        )
    produced = heads(ctx.outcome)
    if not produced:
        return CheckResult(False, "the agent opened no pull request and pushed nothing")
    for label, files in produced:
        run = restored_run(files, seed_files, targets)
        if not run.passed:
            return CheckResult(
                False, f"{label}: the repository's own tests fail ({', '.join(targets)})", _claim(run)
            )
        fewer = fewer_ran(run, baseline)
        if fewer:
            why = f"{label}: the repository's own tests did not all run ({', '.join(targets)}: {fewer})"
            return CheckResult(False, why, _claim(run))
    shown = ", ".join(label for label, _ in produced)
    return CheckResult(True, f"the repository's own tests pass at {shown} ({len(targets)} file(s))")
