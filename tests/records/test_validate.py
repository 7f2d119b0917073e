"""Fail closed: a run whose records cannot carry a verdict is `error` (exit 3) for every command that
reads it, never a pass, and the message names the file (and the line). One test per kind of bad run
data in issues #24 and #29, each replayed as an attacker or a crash would leave it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from tests.support.project import make_run

Record = dict[str, Any]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One honest run, made once: trial-run, three reference trials (7/7 each), compared and passed."""
    args = ("--scenario", "trial-run", "--agent", "replay:reference", "--trials", "3")
    out, code = make_run(tmp_path_factory.mktemp("made"), "honest", *args)
    assert code == 0
    return out


@pytest.fixture
def run(project: Path, finished: Path) -> Path:
    """A copy of the honest run inside this test's project, to be tampered with."""
    out = project / "runs" / "honest"
    shutil.copytree(finished, out)
    return out


def records(run: Path) -> list[Record]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def write(run: Path, lines: list[Record]) -> None:
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))


def edit_meta(run: Path, change: Callable[[Record], None]) -> None:
    meta = json.loads((run / "run.json").read_text())
    change(meta)
    (run / "run.json").write_text(json.dumps(meta))


def refused(capsys: pytest.CaptureFixture[str], run: Path, *names: str, command: str = "compare") -> str:
    """`command` on the run exits 3 and its message names every one of `names`."""
    capsys.readouterr()
    assert main([command, "--run", str(run)]) == 3
    err = capsys.readouterr().err
    for name in names:
        assert name in err, err
    return err


def test_the_honest_run_compares_and_passes(run: Path) -> None:
    assert main(["compare", "--run", str(run)]) == 0


def test_an_appended_full_marks_copy_of_a_trial_is_an_error_naming_both_lines(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    write(run, [*lines, lines[0]])
    name = f"trial-run#{lines[0]['trial']}"
    refused(capsys, run, f"{run / 'results.jsonl'}:4", name, "a second record (the first is line 1)")


def test_a_violation_the_rubric_does_not_declare_and_one_dropped_are_both_errors(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pass rule with decisive parts is checked again: a record cannot claim a serious
    violation its parts do not show (to fail a rival) nor drop one (to pass)."""
    lines = records(run)
    lines[0]["grade"]["violations"] = ["T1a"]
    lines[0]["grade"]["passed"] = False
    write(run, lines)
    told = "violations ['T1a'], but its failed decisive parts and collateral give []"
    refused(capsys, run, f"{run / 'results.jsonl'}:1", told)


def test_a_part_scored_100_on_a_one_point_part_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    grade = lines[1]["grade"]
    grade["parts"][0]["score"] = 100
    grade["total"] = 106
    write(run, lines)
    refused(capsys, run, f"{run / 'results.jsonl'}:2", "score 100 outside 0..1")


def test_a_total_that_is_not_the_sum_of_its_parts_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    lines[2]["grade"]["total"] = 101
    write(run, lines)
    refused(capsys, run, f"{run / 'results.jsonl'}:3", "total 101, but its parts add up to 7")


def test_a_criterion_or_category_that_is_not_the_sum_of_its_parts_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    criterion, category = sorted(lines[1]["grade"]["criteria"])[0], sorted(lines[1]["grade"]["categories"])[0]
    own = lines[1]["grade"]["criteria"][criterion]
    lines[1]["grade"]["criteria"][criterion] = own + 5
    lines[1]["grade"]["categories"][category] += 3
    write(run, lines)
    refused(
        capsys,
        run,
        f"{run / 'results.jsonl'}:2",
        f"criterion {criterion}: {own + 5}, its parts give {own}",
        f"category {category}: ",
    )


def test_a_failed_part_holding_full_points_is_an_error(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = records(run)
    lines[0]["grade"]["parts"][0]["status"] = "failed"
    write(run, lines)
    refused(capsys, run, f"{run / 'results.jsonl'}:1", "status failed with 1 of 1 point(s)")


def test_a_part_the_rubric_does_not_have_or_lacks_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    lines[0]["grade"]["parts"][0]["id"] = "T9z"
    write(run, lines)
    refused(capsys, run, "parts T9z are not in the rubric", "no grade for rubric part(s)")


def test_one_trial_of_three_is_an_error_naming_the_missing_trials(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Also what a run whose agent step died after one trial leaves behind."""
    write(run, [r for r in records(run) if r["trial"] == 0])
    refused(capsys, run, str(run / "results.jsonl"), "no record for trial-run trial(s) 1, 2", "--resume")


def test_an_extra_trial_index_is_an_error(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = records(run)
    extra = json.loads(json.dumps(lines[0]))
    extra["trial"] = extra["grade"]["trial"] = 3
    write(run, [*lines, extra])
    refused(capsys, run, f"{run / 'results.jsonl'}:4", "not a planned trial", "trials 0..2")


def test_a_record_of_a_scenario_the_run_does_not_have_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    other = json.loads(json.dumps(lines[0]))
    other["scenario"] = other["grade"]["scenario"] = "nightshift"
    write(run, [*lines, other])
    refused(capsys, run, f"{run / 'results.jsonl'}:4", "scenario nightshift is not one of the run's")


def test_an_expected_scenario_with_no_records_is_an_error(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit_meta(run, lambda meta: meta.update(scenarios=["trial-run", "reply-facts"]))
    refused(capsys, run, "no record for reply-facts trial(s) 0, 1, 2")


def test_a_run_where_no_trial_finished_is_an_error_not_a_pass(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (run / "results.jsonl").write_text("")
    refused(capsys, run, str(run / "results.jsonl"), "no trial finished")
    (run / "results.jsonl").unlink()
    refused(capsys, run, "no trial finished")


def test_an_unreadable_line_is_an_error_naming_file_and_line(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (run / "results.jsonl").read_text().splitlines()
    text[1] = text[1][: len(text[1]) // 2]
    (run / "results.jsonl").write_text("\n".join(text) + "\n")
    refused(capsys, run, f"{run / 'results.jsonl'}:2", "not a JSON line")


def test_a_torn_last_line_is_an_error_that_says_how_to_finish_the_run(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (run / "results.jsonl").read_text()
    last = f"trial-run#{records(run)[2]['trial']}"
    (run / "results.jsonl").write_text(text[: len(text) - 300])
    refused(capsys, run, f"{run / 'results.jsonl'}:3", "torn", last, f"evals run --resume {run}")


def test_a_line_that_is_json_but_not_a_record_names_its_line_and_field(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(run)
    lines[1]["status"] = "great"
    write(run, lines)
    refused(capsys, run, f"{run / 'results.jsonl'}:2", "status")


def test_skipped_trials_in_run_json_excuse_nothing_without_a_budget_stop(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(run, records(run)[:2])
    edit_meta(run, lambda meta: meta.update(skipped=["trial-run#2"]))
    refused(capsys, run, "lists skipped trials, but no budget stopped this run")


@pytest.mark.parametrize("command", ["grade", "view", "labels"])
def test_every_command_that_reads_a_run_refuses_it_alike(
    run: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    lines = records(run)
    write(run, [*lines, lines[0]])
    (run / "viewer.html").unlink(missing_ok=True)  # `run` wrote one for the honest records
    refused(capsys, run, f"{run / 'results.jsonl'}:4", command=command)
    assert not (run / "viewer.html").exists()


def test_bless_refuses_a_tampered_run_even_with_force(
    project: Path, run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = project / "baseline" / "baseline.json"
    before = baseline.read_text()
    lines = records(run)
    write(run, [*lines, lines[0]])
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(run), "--force"]) == 3
    assert "a second record" in capsys.readouterr().err
    assert baseline.read_text() == before


def test_bless_recomputes_the_verdict_instead_of_trusting_summary_json(
    project: Path, finished: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A regressed run whose summary.json was edited to say `pass` is still refused as a regression."""
    bad = project / "runs" / "bad"
    assert main(["run", "--scenario", "trial-run", "--agent", "replay:regressed", "--out", str(bad)]) == 1
    summary = json.loads((bad / "summary.json").read_text())
    summary["verdict"], summary["reasons"] = "pass", []
    (bad / "summary.json").write_text(json.dumps(summary))
    capsys.readouterr()
    assert main(["baseline", "bless", "--run", str(bad)]) == 2
    assert "verdict regression" in capsys.readouterr().err


def test_an_explicit_baseline_path_that_does_not_exist_is_bad_input(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in --baseline is not "no baseline yet", which would pass with a notice."""
    typo = run.parent.parent / "baseline" / "baselin.json"
    assert main(["compare", "--run", str(run), "--baseline", str(typo)]) == 2
    assert str(typo) in capsys.readouterr().err


def test_a_resumed_errored_trial_replaces_its_line_and_validates(project: Path) -> None:
    """The documented ways a trial is written again (a resume, a re-grade) keep one line per trial,
    so the duplicate rule never refuses an honest run."""
    from tests.support.agents import AGENT, DyingAgent, lines

    out = project / "runs" / "flaky"
    DyingAgent.flaky_at[0] = 1
    try:
        main(["run", "--agent", AGENT, "--trials", "3", "--concurrency", "1", "--out", str(out)])
    finally:
        DyingAgent.flaky_at[0] = None
    assert [r["status"] for r in lines(out)] == ["ok", "error", "ok"]
    verdict = main(["run", "--resume", str(out)])
    assert verdict in (0, 1)  # a verdict (this agent's grade is low), not an error
    assert sorted(int(str(r["trial"])) for r in lines(out)) == [0, 1, 2]
    assert [r["status"] for r in lines(out)] == ["ok", "ok", "ok"]
    assert main(["grade", "--run", str(out)]) == verdict
    assert main(["compare", "--run", str(out)]) == verdict
    assert len(lines(out)) == 3


# --- the PR verdict: beyond run.json, what the base asks for ------------------------------------


def verdict(capsys: pytest.CaptureFixture[str], run: Path) -> dict[str, str]:
    capsys.readouterr()
    assert main(["github", "verdict", "--run", str(run)]) == 0  # the status is posted whatever it is
    out = capsys.readouterr().out
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


@pytest.fixture
def pr_run(project: Path, run: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The honest run, in a project whose base asks for trial-run × 3 (as it was run)."""
    config = project / "evals.yaml"
    config.write_text(config.read_text().replace("\ntrials: 1", "\ntrials: 3"))
    monkeypatch.delenv("EVALS_SCENARIOS", raising=False)
    return run


def test_the_pr_verdict_of_the_honest_run_passes(pr_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert verdict(capsys, pr_run)["verdict"] == "pass"


def test_a_pr_run_that_says_it_planned_one_trial_of_the_bases_three_is_an_error(
    pr_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(pr_run, records(pr_run)[:1])
    edit_meta(pr_run, lambda meta: meta.update(trials=1))
    out = verdict(capsys, pr_run)
    assert (out["verdict"], out["exit_code"]) == ("error", "3")
    assert "plans 1 trial(s) per scenario, at least 3 expected" in (pr_run / "report.md").read_text()


def test_a_pr_run_missing_a_scenario_the_base_expects_is_an_error(
    pr_run: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALS_SCENARIOS", "trial-run reply-facts")
    assert verdict(capsys, pr_run)["verdict"] == "error"
    assert "expected scenario(s) reply-facts are not in the run" in (pr_run / "report.md").read_text()


def test_a_pr_run_of_scenarios_nobody_asked_for_is_an_error(
    pr_run: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALS_SCENARIOS", "reply-facts")
    assert verdict(capsys, pr_run)["verdict"] == "error"
    assert "trial-run were not asked for" in (pr_run / "report.md").read_text()


def test_a_shard_is_not_a_pr_run(pr_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_meta(pr_run, lambda meta: meta.update(trial_slice="0/1"))
    assert verdict(capsys, pr_run)["verdict"] == "error"
    assert "a shard" in (pr_run / "report.md").read_text()


def test_a_pr_run_with_an_appended_full_marks_line_is_an_error(
    pr_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = records(pr_run)
    write(pr_run, [*lines, lines[0]])
    assert verdict(capsys, pr_run)["verdict"] == "error"
