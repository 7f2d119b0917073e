"""The fingerprint covers everything that moves a score: the grader's code behind a scenario's checks
(resolved through the registry, wherever the check lives) and the judge's labels, and an old baseline
without those entries still compares."""

from __future__ import annotations

import importlib
import inspect
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.core.config import load_config
from evals.definition import load_definition
from evals.gate.fingerprint import differences, grader_files
from evals.grade.registry import Registry
from tests.support.paths import ROOT
from tests.support.project import project_fingerprint


def test_each_scenario_lists_the_modules_that_define_the_checks_its_rubric_names() -> None:
    fp = project_fingerprint(ROOT)
    config, project = load_config(ROOT, None)
    definition = load_definition(project, config, ["trial-run"])
    rubric = definition.scenarios["trial-run"].rubric
    named = {ref.check for _, part in rubric.parts() for ref in part.checks}
    grader = fp["scenarios"]["trial-run"]["grader"]
    for name in named:
        fn = rubric.registry.checks[name]
        source = Path(inspect.getsourcefile(fn) or "").resolve().relative_to(ROOT).as_posix()
        assert source in grader, (name, source)
    assert {"evals/grade/grader.py", "evals/grade/checks/common.py"} <= set(grader)  # core, and an import
    # Only what this rubric uses: the shared behaviour probe (its value part imports the package),
    # and no probe or check of Nightshift's own.
    assert "evals/grade/probes/inside/evals_effective.py" in grader
    assert not any("hydra" in f or f.startswith("scenario/") for f in grader)
    nightshift = fp["scenarios"]["nightshift"]["grader"]
    # The scenario's own check and probe are scenario data (names independent of the checkout);
    # what that check imports from the package to run its probe is grader code.
    assert not any(f.startswith("scenario/") or f.startswith("/") for f in nightshift)
    assert {"checks/behaviour.py", "probes/hydra_probe.py"} <= set(
        fp["scenarios"]["nightshift"]["data_files"]
    )
    assert "evals/grade/probes/runner.py" in nightshift
    trial_run = fp["scenarios"]["trial-run"]
    assert trial_run["labels"] and "labels.yaml" not in trial_run["data_files"]


@pytest.fixture
def own_checks(tmp_path: Path) -> Iterator[tuple[Path, Registry]]:
    """A package of checks outside evals/ (as a scenario's own checks are), registered by name."""
    package = tmp_path / "ruler_demo_checks"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "helpers.py").write_text("def limit() -> int:\n    return 3\n", encoding="utf-8")
    (package / "grow.py").write_text(
        "from evals.grade.registry import CheckResult, check\n"
        "from ruler_demo_checks.helpers import limit\n\n\n"
        "@check('small')\n"
        "def small(ctx, n: int = 1):\n"
        "    return CheckResult(n <= limit(), 'n')\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    module = importlib.import_module("ruler_demo_checks.grow")
    try:
        yield package, Registry.collect("demo", [module])
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("ruler_demo_checks")]:
            del sys.modules[name]


def test_editing_a_check_or_what_it_imports_is_named_in_the_differences(
    own_checks: tuple[Path, Registry],
) -> None:
    package, registry = own_checks

    def scenario_fp() -> dict[str, object]:
        return {
            "judge_model": "m",
            "scenarios": {"s": {"grader": grader_files(registry, ["demo.small"], [])}},
        }

    before = scenario_fp()
    files = set(before["scenarios"]["s"]["grader"])  # type: ignore[index]
    assert {str((package / "grow.py").resolve()), str((package / "helpers.py").resolve())} <= files
    assert differences(before, scenario_fp()) == []
    (package / "helpers.py").write_text("def limit() -> int:\n    return 300\n", encoding="utf-8")
    (changed,) = differences(before, scenario_fp())
    assert changed.startswith("s: grader code changed (") and "helpers.py" in changed


def test_labels_and_a_grader_file_are_each_named(tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(ROOT / "scenario", project / "scenario")
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, project / name)
    before = project_fingerprint(project)
    assert before == project_fingerprint(ROOT)  # the same definition checked out elsewhere
    labels = project / "scenario" / "trial-run" / "labels.yaml"
    labels.write_text(labels.read_text(encoding="utf-8").replace("score: 0", "score: 1"), encoding="utf-8")
    after = project_fingerprint(project)
    assert differences(before, after) == ["trial-run: judge labels labels.yaml changed"]
    moved = {**after["scenarios"]["nightshift"], "grader": {**after["scenarios"]["nightshift"]["grader"]}}
    moved["grader"]["evals/grade/checks/manifests.py"] = "0" * 64
    assert differences(after, {**after, "scenarios": {**after["scenarios"], "nightshift": moved}}) == [
        "nightshift: grader code changed (evals/grade/checks/manifests.py)"
    ]


def test_a_baseline_blessed_before_grader_and_labels_were_fingerprinted_still_compares() -> None:
    new = project_fingerprint(ROOT)
    old = {
        **new,
        "scenarios": {
            name: {k: v for k, v in entry.items() if k not in ("grader", "labels")}
            for name, entry in new["scenarios"].items()
        },
    }
    assert differences(old, new) == [] and differences(new, old) == []
    assert "grader" in new["scenarios"]["trial-run"]


def test_a_process_that_never_grades_fingerprints_the_same_files() -> None:
    """`compare` never imports the grader (evals/grade/__init__.py re-exports nothing), yet must hash
    the grading core a run that graded hashed: a fresh interpreter that only loads the definition
    agrees with this one, where the grader is imported."""
    probe = (
        "import json, sys\n"
        "from tests.support.paths import ROOT\nfrom tests.support.project import project_fingerprint\n"
        "fp = project_fingerprint(ROOT)\n"
        "assert 'evals.grade.grader' not in sys.modules, 'imported'\n"
        "assert 'evals.world.outcome' not in sys.modules, 'imported'\n"
        "print(json.dumps(fp, sort_keys=True))\n"
    )
    import evals.grade.grader  # noqa: F401  (this process has graded, or could have)

    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == project_fingerprint(ROOT)


def test_a_rubric_that_runs_probes_fingerprints_the_same_before_any_probe_ran() -> None:
    # The probe runner is imported lazily, where a probe first runs; a fingerprint taken in a fresh
    # process (a run's start) must still follow what it imports, as one taken after grading does.
    code = (
        "import sys\nfrom pathlib import Path\n"
        "from evals.core.config import load_config\nfrom evals.definition import load_definition\n"
        "from evals.gate.fingerprint import rubric_grader_files\n"
        "config, project = load_config(Path('.'), None)\n"
        "rubric = load_definition(project, config, ['trial-run']).scenarios['trial-run'].rubric\n"
        "assert 'evals.grade.probes.runner' not in sys.modules\n"
        "print('evals/grade/confine/rpc.py' in rubric_grader_files(rubric))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True", done.stderr
