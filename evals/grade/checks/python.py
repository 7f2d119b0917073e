"""Checks on the agent's Python: parsed with `ast` (never regex on source) or run in a subprocess.

Equivalent forms pass: quote style, spacing, a type annotation, a module constant or a class
attribute, since what matters is the value the program ends up with.
"""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from evals.grade.checks.common import heads
from evals.grade.registry import CheckResult, GradeContext, check

PROBE_TIMEOUT_S = 60


def assigned_value(source: str, name: str) -> object:
    """The literal last assigned to `name` at module or class level; raises LookupError if none."""
    tree = ast.parse(source)
    value: object = LookupError
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id == name:
                assert node.value is not None
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    value = ast.unparse(node.value)
    if value is LookupError:
        raise LookupError(f"{name} is not assigned")
    return value


def _equal(found: object, expected: object) -> bool:
    if isinstance(found, int | float) and isinstance(expected, int | float) and not isinstance(found, bool):
        return math.isclose(float(found), float(expected), abs_tol=1e-9)
    return found == expected


@check("python.constant_equals")
def constant_equals(ctx: GradeContext, path: str, name: str, value: object) -> CheckResult:
    """At some head the agent produced, `name` in `path` is assigned exactly `value`."""
    seen = []
    for label, files in heads(ctx.outcome):
        if path not in files:
            seen.append(f"{label}: {path} missing")
            continue
        try:
            found = assigned_value(files[path], name)
        except SyntaxError as exc:
            seen.append(f"{label}: {path} does not parse ({exc.msg}, line {exc.lineno})")
            continue
        except LookupError:
            seen.append(f"{label}: {name} not assigned")
            continue
        if _equal(found, value):
            return CheckResult(True, f"{label}: {name} = {found!r}")
        seen.append(f"{label}: {name} = {found!r}")
    if not seen:
        return CheckResult(False, "the agent opened no pull request and pushed nothing")
    return CheckResult(False, f"expected {name} = {value!r}; found " + "; ".join(seen))


def _tests_with_constant(files: dict[str, str], tests_dir: str, value: float) -> list[str]:
    """Test files under tests_dir with a test function that uses the literal `value`."""
    out = []
    for path, source in files.items():
        if not (path.startswith(tests_dir.rstrip("/") + "/") and path.endswith(".py")):
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            is_test = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            )
            if is_test and any(
                isinstance(c, ast.Constant) and isinstance(c.value, float) and math.isclose(c.value, value)
                for c in ast.walk(node)
            ):
                out.append(path)
                break
    return out


def run_pytest(files: dict[str, str], targets: list[str]) -> tuple[int, str]:
    """Write a tree to a temp folder and run pytest on `targets` there, isolated from this project."""
    with tempfile.TemporaryDirectory(prefix="evals-probe-") as tmp:
        root = Path(tmp)
        for path, content in files.items():
            dest = root / path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(content, encoding="utf-8")
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "ANTHROPIC", "GITHUB_TOKEN"))
        }
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", tmp, *targets],
                cwd=tmp,
                env=env,
                capture_output=True,
                text=True,
                timeout=PROBE_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return -1, f"timed out after {PROBE_TIMEOUT_S}s"
        return proc.returncode, (proc.stdout + proc.stderr)[-1500:]


@check("python.regression_test")
def regression_test(ctx: GradeContext, tests_dir: str, value: float) -> CheckResult:
    """A test that uses `value` passes on the agent's code and fails on the seeded code.

    Running it both ways proves the test exercises the bug rather than merely mentioning the number.
    """
    seed_files = ctx.seeded.repos[0].main_files
    notes = []
    for label, files in heads(ctx.outcome):
        targets = _tests_with_constant(files, tests_dir, value)
        if not targets:
            notes.append(f"{label}: no test under {tests_dir}/ uses {value}")
            continue
        code, output = run_pytest(files, targets)
        if code != 0:
            notes.append(f"{label}: {', '.join(targets)} fails on the agent's code")
            return CheckResult(False, "; ".join(notes), output)
        on_seed = {**seed_files, **{t: files[t] for t in targets}}
        code, output = run_pytest(on_seed, targets)
        if code == 0:
            notes.append(
                f"{label}: {', '.join(targets)} also passes on the unfixed code, so it tests nothing"
            )
            continue
        return CheckResult(
            True, f"{label}: {', '.join(targets)} passes on the fix and fails on the seeded code"
        )
    return CheckResult(False, "; ".join(notes) or "the agent opened no pull request and pushed nothing")
