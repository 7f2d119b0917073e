"""pytest over a tree the agent wrote, in the confinement, with every configuration door closed.

Running the agent's own regression test means running pytest in the process that imports the
agent's code, so what pytest reports (its exit status, its JUnit report) is that code's *claim*: a
test can always tell the seeded tree from the fixed one and choose to pass or fail, and code that
finds pytest's objects at run time can rewrite a report. What the grader controls is everything
static, so no file the agent adds changes how the run is configured:

- the configuration is the grader's own ini file (`-c`, written over the tree; the repository's
  `pythonpath` taken from the *trusted* tree's `pyproject.toml`), so the agent's `pytest.ini`,
  `tox.ini`, `setup.cfg` or `pyproject.toml` (`addopts = --collect-only`, `-k`) are never read;
- the only `conftest.py` files are the trusted tree's: the agent's are removed, its edits to the
  trusted ones reverted (a conftest hook can turn every failure into a pass);
- no plugin loads by entry point (`PYTEST_DISABLE_PLUGIN_AUTOLOAD=1`), no cache is written, no
  bytecode (`-B`), the interpreter is isolated (`-I`: no user site, no PYTHON* variables);
- the JUnit report is required: a run that ends without one (`os._exit(0)` at import) proved
  nothing, whatever its exit status; its skips are counted, since the code under test can skip
  the tests that import it (`pytest.skip(..., allow_module_level=True)` at import, `pytest.xfail`
  in a function) and a skipped test reports no failure.

The result is recorded as a claim in the evidence (docs/security.md).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evals.grade.confine.launch import PYTHON, Confinement

TIMEOUT_S = 60.0
OUTPUT_TAIL = 1500
INI = ".evals-pytest.ini"
JUNIT = ".evals-junit.xml"
CONFIG_FILES = ("pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")


@dataclass(frozen=True)
class PytestRun:
    """What a confined pytest run reported: exit status, output tail and its JUnit counts (None:
    no report). A claim of the code under test, never evidence the grader produced."""

    exit_code: int
    output: str
    tests: int | None = None
    failed: int | None = None  # failures + errors
    mode: str = ""
    skipped: int | None = None  # skipped and xfailed (JUnit counts an xfail as skipped)

    @property
    def passed(self) -> bool:
        """Exit 0, a report, at least one test, none failed or errored."""
        return self.exit_code == 0 and bool(self.tests) and self.failed == 0

    @property
    def failed_some(self) -> bool:
        """A report that counts at least one failure or error."""
        return self.tests is not None and bool(self.failed)


def _pythonpath(trusted: Mapping[str, str]) -> list[str]:
    """The repository's `pythonpath` from the trusted tree's pyproject.toml (pytest's ini options)."""
    import tomllib  # here and below, not at the top: `compare` imports this module and runs nothing

    try:
        options = tomllib.loads(trusted.get("pyproject.toml", "")).get("tool", {}).get("pytest", {})
    except tomllib.TOMLDecodeError:
        return []
    value = options.get("ini_options", {}).get("pythonpath", [])
    return [str(v) for v in ([value] if isinstance(value, str) else value) if isinstance(v, str)]


def _ini(trusted: Mapping[str, str]) -> str:
    paths = " ".join(_pythonpath(trusted))
    return "[pytest]\naddopts =\n" + (f"pythonpath = {paths}\n" if paths else "")


def confined_tree(files: Mapping[str, str], trusted: Mapping[str, str]) -> dict[str, str]:
    """`files` with the trusted tree's conftest.py files only, and the grader's ini file."""
    tree = {p: text for p, text in files.items() if not p.endswith("conftest.py") and p not in (INI, JUNIT)}
    tree.update({p: text for p, text in trusted.items() if p.rsplit("/", 1)[-1] == "conftest.py"})
    tree[INI] = _ini(trusted)
    return tree


def junit_counts(report: bytes | None) -> tuple[int | None, int | None, int | None]:
    """(tests, failures + errors, skipped) from a JUnit report, summed over its suites; all None
    when there is none or it does not parse."""
    if not report:
        return None, None, None
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.fromstring(report)
    except ElementTree.ParseError:
        return None, None, None
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    if not suites:
        return None, None, None
    try:
        tests = sum(int(s.get("tests", "0")) for s in suites)
        failed = sum(int(s.get("failures", "0")) + int(s.get("errors", "0")) for s in suites)
        skipped = sum(int(s.get("skipped", "0")) for s in suites)
    except ValueError:
        return None, None, None
    return tests, failed, skipped


def run_pytest(
    files: Mapping[str, str],
    targets: Sequence[str],
    trusted: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT_S,
) -> PytestRun:
    """pytest on `targets` of `files` in the confinement, configured by `trusted` (the seeded tree; by
    default `files` itself, for a tree the caller vouches for)."""
    tree = confined_tree(files, files if trusted is None else trusted)
    argv = [PYTHON, "-I", "-B", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", INI]
    argv += ["--rootdir", ".", "--junitxml", JUNIT, "-o", "junit_family=xunit2", *targets]
    env = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    with tempfile.TemporaryFile() as output:
        with Confinement.start(tree, argv, env=env, stdout=output, stderr=output) as sb:
            try:
                code = sb.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return PytestRun(-1, f"timed out after {timeout:g}s", mode=sb.mode)
            report = sb.read_file(JUNIT)
        size = output.seek(0, 2)
        output.seek(max(0, size - OUTPUT_TAIL * 4))
        text = output.read().decode("utf-8", "replace")[-OUTPUT_TAIL:]
    tests, failed, skipped = junit_counts(report)
    return PytestRun(code, text, tests, failed, sb.mode, skipped)
