"""The back half (records → aggregate → compare → verdict → summary → report) as one typed chain.

A run made by Claude is compared, re-graded and merged on a machine that has no model key (the
nightly fan-in and the PR's compare step have none), and every place that shows Δ total shows the
number the gate decided on.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.project import load_project
from evals.definition import load_definition
from evals.gate.passrate import PassRates, pass_at_k, pass_pow_k
from tests.support.paths import ROOT
from tests.support.project import read_summary

EVALS = ROOT / "evals"
BACK_HALF = [
    "records/model.py",
    "records/rundir.py",
    "gate/aggregate.py",
    "gate/passrate.py",
    "gate/compare.py",
    "gate/verdict.py",
    "gate/summary.py",
    "report/markdown.py",
    "gate/baseline_file.py",
    "baseline/bless.py",
    "baseline/history.py",
    "run/merge.py",
    "definition.py",
    "run/finish.py",
    "run/session.py",
    "run/regrade.py",
    "commands/compare.py",
    "commands/grade.py",
    "commands/merge.py",
    "commands/baseline.py",
    "commands/run.py",
]


def as_if_claude_made_it(run: Path) -> None:
    """Rewrite run.json the way a `--agent claude` run writes it."""
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    meta.update(agent="claude (claude-sonnet-5-5)", agent_spec="claude")
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")


def test_a_claude_run_is_compared_regraded_merged_and_blessed_without_a_key(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = project / "runs" / "claude"
    assert main(["run", "--agent", "replay:regressed", "--out", str(run)]) == 1
    as_if_claude_made_it(run)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["compare", "--run", str(run)]) == 1
    assert main(["grade", "--run", str(run)]) == 1
    assert main(["merge", "--out", str(project / "runs" / "merged"), str(run)]) == 1
    assert read_summary(project / "runs" / "merged")["run"]["agent_spec"] == "claude"
    assert main(["baseline", "bless", "--run", str(run), "--force"]) == 0


def test_commands_that_only_read_grades_never_plan_a_judge(project: Path) -> None:
    """`compare` and `merge` read stored verdicts: even with a model key present they do not build
    the model judge, nor import its client (a fresh interpreter shows what a command imports)."""
    run = project / "runs" / "r"
    assert main(["run", "--out", str(run)]) == 0
    probe = (
        "import sys; from evals.cli import main; "
        f"codes = [main(['compare', '--run', {str(run)!r}]), "
        f"main(['merge', '--out', {str(project / 'runs' / 'm')!r}, {str(run)!r}])]; "
        "judge = sorted(m for m in sys.modules if m.startswith(('evals.grade.judge._', 'anthropic'))); "
        "print(codes, judge)"
    )
    # this checkout's package, whichever checkout the installed (editable) package points at
    root = str(ROOT)
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key", "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=project, env=env, capture_output=True, text=True, check=True
    )
    codes, judge = done.stdout.strip().splitlines()[-1].split("] [")
    # merge computes layer 1 again (evals/run/recheck.py), so the grader's judge types load; the
    # model judge and its client never do
    assert codes == "[0, 0" and "anthropic" not in judge
    loaded = ("_judgement", "_prompt", "_protocol")
    assert judge == ", ".join(f"'evals.grade.judge.{name}'" for name in loaded) + "]"


def test_a_definition_loaded_without_a_judge_says_so_when_asked_for_one(project: Path) -> None:
    config, root = load_project(None)
    definition = load_definition(root, config, ["trial-run"], with_judge=False)
    with pytest.raises(RuntimeError, match="without a judge"):
        _ = definition.scenarios["trial-run"].judge
    assert load_definition(root, config, ["trial-run"]).scenarios["trial-run"].judge is not None


def test_every_delta_shown_is_the_delta_the_gate_decided_on(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline's judged parts were unscored (no labels then), the run's are scored: the console,
    summary.json and the report all show Δ over the parts both sides scored (0), never the run's
    full total against the baseline's partial one (+2)."""
    path = project / "baseline" / "baseline.json"
    baseline = json.loads(path.read_text(encoding="utf-8"))
    trial_run = baseline["scenarios"]["trial-run"]
    for parts in [trial_run["parts"], *(t["parts"] for t in trial_run["trials"])]:
        parts.update(T1b=None, T5=None)  # what a baseline blessed without the judge holds
    for t in trial_run["trials"]:
        t["total"] = sum(v for v in t["parts"].values() if v is not None)
    path.write_text(json.dumps(baseline), encoding="utf-8")
    out = project / "runs" / "judged"
    assert main(["run", "--agent", "replay:reference", "--out", str(out)]) == 0
    summary = read_summary(out)
    assert summary["total"]["mean"] == 7 and summary["total"]["compared"] == 5
    assert (
        summary["total"]["delta"]
        == summary["gate"]["delta"]
        == summary["comparison"]["trial-run"]["delta"]
        == 0
    )
    assert summary["total"]["baseline"] == summary["gate"]["baseline"] == 5
    printed = capsys.readouterr().out
    assert "Verdict: pass · total 7.00 / 7 (baseline 5.00; 5.00 on the parts both scored, Δ +0.00)" in printed
    total_row = next(line for line in (out / "report.md").read_text().splitlines() if "**Total**" in line)
    assert "= 0" in total_row


def test_pass_at_k_and_pass_pow_k_have_one_unbiased_definition() -> None:
    # 6 trials, 3 passed: the chance that at least one / all of 2 fresh trials pass
    assert pass_at_k(6, 3, 2) == pytest.approx(1 - 3 / 15, abs=1e-4)
    assert pass_pow_k(6, 3, 2) == pytest.approx(3 / 15, abs=1e-4)
    assert pass_at_k(6, 3, 7) is None and pass_pow_k(6, 3, 0) is None
    # at k = n they are "any passed" and "all passed", which is what a run reports of itself
    assert PassRates.of_flags([True, False, None, True]) == PassRates(
        pass_at_1=round(2 / 3, 4), pass_at_k=1.0, pass_pow_k=0.0
    )


def test_a_run_directory_without_run_json_says_where_runs_are(project: Path) -> None:
    (project / "not-a-run").mkdir()
    assert main(["compare", "--run", str(project / "not-a-run")]) == 2


def test_a_garbled_results_line_names_the_file_and_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = project / "runs" / "ok"
    assert main(["run", "--agent", "replay:reference", "--out", str(run)]) == 0
    with (run / "results.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"scenario": "trial-run", "trial": 1, "status": "maybe"}) + "\n")
    assert main(["compare", "--run", str(run)]) == 3  # run data that cannot carry a verdict
    assert "results.jsonl:2" in capsys.readouterr().err


def _long_functions(path: Path, limit: int) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(EVALS)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_no_function_in_the_back_half_is_longer_than_sixty_lines() -> None:
    long = [f for name in BACK_HALF for f in _long_functions(EVALS / name, 60)]
    assert long == []
