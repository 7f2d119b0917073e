"""The verdict believes only what it can check: layer 1 is computed again from the stored outcomes.

A run made where the model key is defers every check that executes the agent's code (its part is
unscored there); the PR's verdict and the nightly's merge run those checks in the confinement and
recompute the rest, which must agree with the record. A record that claims a check the outcome does
not bear out, or a judge verdict over other evidence, is an error, never a pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from evals.core.errors import BadInputError
from evals.core.project import load_project
from evals.github.pr_gate import gate
from evals.records.rundir import RunDir
from evals.run.finish import reopen
from evals.run.recheck import recheck
from tests.support.project import read_summary


def run(project: Path, name: str, agent: str, monkeypatch: pytest.MonkeyPatch, defer: bool = False) -> Path:
    out = project / "runs" / name
    with monkeypatch.context() as m:
        if defer:
            m.setenv("EVALS_DEFER_EXECUTION", "1")
        main(["run", "--scenario", "trial-run", "--agent", agent, "--trials", "1", "--out", str(out)])
    return out


def lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def rewrite(out: Path, records: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(r) + "\n" for r in records)
    (out / "results.jsonl").write_text(text, encoding="utf-8")


def part(record: dict[str, Any], pid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in record["grade"]["parts"] if p["id"] == pid)
    return found


def rechecked(out: Path) -> list[Any]:
    rd = RunDir(out)
    definition, _ = reopen(rd, *load_project(None))
    return recheck(definition, rd, rd.read_records())


def test_where_the_model_key_is_the_executing_check_waits_and_the_verdict_job_decides_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(project, "deferred", "replay:reference", monkeypatch, defer=True)
    (record,) = lines(out)
    executing = {
        "T2": "python.repo_tests_pass",
        "T3a": "behaviour.value_at_some_head",  # the threshold read by importing the package
        "T3b": "python.regression_test_fails_on_seed",
    }
    for pid, name in executing.items():  # the parts whose checks run the agent's code
        found = part(record, pid)
        check = next(c for c in found["checks"] if c["check"] == name)
        assert found["status"] == "unscored" and check["deferred"] is True
        assert "graded where no secret is" in found["reason"]
    assert record["grade"]["total"] == 4  # the other four points, decided where the key was
    (checked,) = rechecked(out)
    assert checked.grade.total == 7 and not checked.grade.unscored
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run")
    result = gate(out, None, project)
    assert result.verdict == "pass" and "7.00/7" in result.description


def test_a_record_claiming_a_check_the_outcome_does_not_bear_out_is_an_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(project, "regressed", "replay:regressed", monkeypatch)
    (record,) = lines(out)
    forged = part(record, "T3a")  # the threshold check, computed from the outcome by ast
    forged["checks"][0]["passed"] = True
    rewrite(out, [record])
    with pytest.raises(BadInputError, match=r"T3a.*on the stored outcome it fails"):
        rechecked(out)
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run")
    result = gate(out, None, project)
    assert result.verdict == "error" and result.exit_code == 3


def test_a_judge_verdict_over_other_evidence_or_out_of_range_is_an_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(project, "reference", "replay:reference", monkeypatch)
    (record,) = lines(out)
    original = json.loads(json.dumps(record))
    part(record, "T1b")["evidence_sha256"] = "0" * 64
    rewrite(out, [record])
    with pytest.raises(BadInputError, match=r"T1b.*evidence"):
        rechecked(out)
    record = original
    part(record, "T1b")["judge"]["score"] = 100
    rewrite(out, [record])
    with pytest.raises(BadInputError, match=r"T1b.*outside 0\.\.1"):
        rechecked(out)


def test_a_graded_trial_without_its_outcome_cannot_be_checked(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(project, "no-outcome", "replay:reference", monkeypatch)
    (out / "trials" / "trial-run" / "0" / "outcome.json").unlink()
    with pytest.raises(BadInputError, match=r"outcome\.json: missing"):
        rechecked(out)


def test_merge_completes_deferred_checks_and_refuses_a_forged_shard(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shard = run(project, "shard", "replay:reference", monkeypatch, defer=True)
    merged = project / "runs" / "merged"
    assert main(["merge", "--out", str(merged), str(shard)]) == 0
    assert read_summary(merged)["total"]["mean"] == 7
    (record,) = lines(shard)
    part(record, "T2")["checks"][0]["passed"] = False  # the PR check: it passes on the outcome
    rewrite(shard, [record])
    assert main(["merge", "--out", str(project / "runs" / "merged-2"), str(shard)]) == 2
