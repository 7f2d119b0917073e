"""Nightly shards: slices tile the trials, and merging shard runs counts every trial exactly once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.errors import BadInputError
from evals.records.trials import slice_trials
from evals.run.merge import shard_matrix
from tests.support.paths import ROOT
from tests.support.project import read_summary

SHARDS = {  # name: (agent, trials, slice)
    "s0": ("replay:reference", 3, "0/2"),
    "s1": ("replay:reference", 3, "1/2"),
    "bad-s1": ("replay:regressed", 3, "1/2"),
    "good": ("replay:reference", 1, "0/1"),
    "bad": ("replay:regressed", 1, "0/1"),
}


@pytest.fixture(scope="module")
def shard_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every shard the tests merge, run once for the module (each is a real `run --trial-slice`)."""
    where = tmp_path_factory.mktemp("shards")
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, where / name)
    for name in ("scenario", "baseline", "agent"):
        shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__"))
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(where)
        for name, (agent, trials, spec) in SHARDS.items():
            out = where / "runs" / name
            args = [
                "--scenario",
                "trial-run",
                "--agent",
                agent,
                "--trials",
                str(trials),
                "--trial-slice",
                spec,
            ]
            code = main(["run", *args, "--out", str(out)])
            assert code in (0, 1)
    return where / "runs"


def shard(project: Path, shard_runs: Path, name: str) -> Path:
    """A copy of a prepared shard run inside this test's project."""
    out = project / "runs" / name
    shutil.copytree(shard_runs / name, out)
    return out


def trial_keys(run: Path) -> list[tuple[str, int]]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [(json.loads(line)["scenario"], json.loads(line)["trial"]) for line in lines]


@pytest.mark.parametrize("trials", range(1, 8))
def test_the_slices_of_a_run_cover_every_trial_once(trials: int) -> None:
    for count in range(1, trials + 1):
        picked = [t for i in range(count) for t in slice_trials(f"{i}/{count}", trials)]
        assert picked == list(range(trials))


@pytest.mark.parametrize("spec", ["1/1", "2", "a/b", "-1/2", "0/0"])
def test_a_malformed_slice_is_a_usage_error(spec: str) -> None:
    with pytest.raises(BadInputError):
        slice_trials(spec, 4)


def test_a_slice_with_no_trials_is_refused_before_anything_runs(project: Path) -> None:
    out = project / "runs" / "empty"
    assert main(["run", "--trials", "1", "--trial-slice", "0/2", "--out", str(out)]) == 2
    assert not out.exists()


def test_the_shard_matrix_never_has_more_slices_than_trials() -> None:
    matrix = shard_matrix(["trial-run", "nightshift"], "2", "4")["include"]
    assert [(m["scenario"], m["slice"]) for m in matrix] == [
        ("trial-run", "0/2"),
        ("trial-run", "1/2"),
        ("nightshift", "0/2"),
        ("nightshift", "1/2"),
    ]
    assert all("/" not in m["name"] for m in matrix)
    with pytest.raises(BadInputError):
        shard_matrix(["trial-run"], "three", "2")


def test_a_shard_runs_only_its_slice_of_the_trials(shard_runs: Path) -> None:
    out = shard_runs / "s1"
    assert sorted(trial_keys(out)) == [("trial-run", 1), ("trial-run", 2)]
    assert json.loads((out / "run.json").read_text())["trial_slice"] == "1/2"


def test_two_shards_merge_into_one_run_with_every_trial_counted_once(project: Path, shard_runs: Path) -> None:
    first, second = shard(project, shard_runs, "s0"), shard(project, shard_runs, "s1")
    merged = project / "runs" / "merged"
    assert main(["merge", "--out", str(merged), str(first), str(second)]) == 0
    assert sorted(trial_keys(merged)) == [("trial-run", 0), ("trial-run", 1), ("trial-run", 2)]
    summary = read_summary(merged)
    assert summary["scenarios"]["trial-run"]["k"] == 3
    assert summary["scenarios"]["trial-run"]["errored"] == 0
    assert summary["total"]["mean"] == 7
    assert [t["trial"] for t in summary["trials"]["trial-run"]] == [0, 1, 2]
    assert (merged / "report.md").is_file()
    for trial in range(3):
        assert (merged / "trials" / "trial-run" / str(trial) / "outcome.json").is_file()
    meta = json.loads((merged / "run.json").read_text())
    assert meta["merged_from"] == ["s0", "s1"] and "trial_slice" not in meta


def test_the_same_shard_given_twice_is_refused_naming_it(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #29: the same shard twice left half the trials to be counted as errored, exactly the
    share that is not yet an error, and the merge passed."""
    first = shard(project, shard_runs, "s0")
    merged = project / "runs" / "merged"
    assert main(["merge", "--out", str(merged), str(first), str(first)]) == 2
    err = capsys.readouterr().err
    assert "given twice" in err and str(first) in err
    assert not merged.exists()


def test_a_copy_of_a_shard_is_refused_naming_the_trial_and_both_copies(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = shard(project, shard_runs, "s0")
    twin = project / "runs" / "s0-copy"
    shutil.copytree(first, twin)
    assert main(["merge", "--out", str(project / "runs" / "m"), str(first), str(twin)]) == 2
    err = capsys.readouterr().err
    assert "trial-run#0" in err and str(first) in err and str(twin) in err


def test_a_shard_holding_a_trial_outside_its_slice_is_an_error_naming_its_file(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = shard(project, shard_runs, "s0")  # slice 0/2 of 3: trial 0 only
    results = first / "results.jsonl"
    line = json.loads(results.read_text().splitlines()[0])
    line["trial"] = 2
    line["grade"]["trial"] = 2
    results.write_text(results.read_text() + json.dumps(line) + "\n")
    assert main(["merge", "--out", str(project / "runs" / "m"), str(first)]) == 3
    err = capsys.readouterr().err
    assert str(results) in err and "trial-run#2" in err and "not in this shard's plan" in err


def test_merge_writes_a_new_run_directory_only(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = shard(project, shard_runs, "s0")
    taken = project / "runs" / "taken"
    taken.mkdir(parents=True)
    (taken / "notes.txt").write_text("mine")
    assert main(["merge", "--out", str(taken), str(first)]) == 2
    assert "--out" in capsys.readouterr().err and (taken / "notes.txt").read_text() == "mine"


def test_a_trial_two_shards_disagree_on_is_an_error_naming_it(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = shard(project, shard_runs, "good"), shard(project, shard_runs, "bad")
    bad_meta = json.loads((bad / "run.json").read_text())
    bad_meta.update({k: json.loads((good / "run.json").read_text())[k] for k in ("agent", "agent_spec")})
    (bad / "run.json").write_text(json.dumps(bad_meta))
    merged = project / "runs" / "merged"
    assert main(["merge", "--out", str(merged), str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "trial-run#0" in err and str(good) in err and str(bad) in err
    assert not (merged / "results.jsonl").exists()


def test_shards_of_different_agents_are_not_merged(
    project: Path, shard_runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = shard(project, shard_runs, "s0"), shard(project, shard_runs, "bad-s1")
    assert main(["merge", "--out", str(project / "runs" / "m"), str(first), str(second)]) == 2
    assert "agent_spec" in capsys.readouterr().err


def test_a_trial_no_shard_delivered_is_counted_as_errored_not_dropped(
    project: Path, shard_runs: Path
) -> None:
    second = shard(project, shard_runs, "s1")
    merged = project / "runs" / "merged"
    main(["merge", "--out", str(merged), str(second)])
    summary = read_summary(merged)
    assert summary["scenarios"]["trial-run"]["k"] == 2
    assert summary["scenarios"]["trial-run"]["errored"] == 1
    errored = [t for t in summary["trials"]["trial-run"] if t["status"] == "error"]
    assert [t["trial"] for t in errored] == [0] and "no shard delivered" in errored[0]["error"]
