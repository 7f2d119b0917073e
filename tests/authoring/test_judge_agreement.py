"""`evals judge agreement`: the judge against the labelled set through the stub Messages server.

trial-run's labels on its reference and regressed replays: T1b 1 and 0, T5 1. An agreeing judge reads
the reply (the regressed one "raised the moderation threshold ... to cut the false positives"); a
drifting judge is a new model that gives full marks without reading. Each measurement re-plays the
replays and runs their checks in the confinement (seconds each), so one test walks the whole story.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from evals.gate.judge_record import load_judge_checks, measured_for
from evals.report.judge_line import judge_line
from tests.support.paths import ROOT
from tests.support.stubs.anthropic_stub import Reply, StubAnthropic, text

REGRESSED = "to cut the false positives"
REGRESSED_T1B = "12d6d34ebbde80dc971ef2de8bbf973ec93ba1ea0883a2e9a742bfa338cd3c9c"  # labels.yaml: 0
REFERENCE_T5 = "c15bbadce457f35e06f559640ae9a0580fb3ba4a7d3b88319a3ea8f41cf74195"  # labels.yaml: 1


def verdict(score: int) -> Reply:
    return text(f"Critique.\n{json.dumps({'critique': f'judged {score}', 'score': score})}")


def reading(body: dict[str, Any]) -> Reply:
    """Agrees with the labels: 0 for the regressed reply, 1 otherwise."""
    return verdict(0 if REGRESSED in body["messages"][0]["content"] else 1)


def constant(body: dict[str, Any]) -> Reply:
    return verdict(1)


@contextmanager
def judge(
    monkeypatch: pytest.MonkeyPatch, answer: Callable[[dict[str, Any]], Reply]
) -> Iterator[StubAnthropic]:
    with StubAnthropic(default=answer) as stub:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-agreement")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        yield stub


def row(printed: str, first: str) -> list[str]:
    for line in printed.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == first:
            return cells[1:]
    raise AssertionError(f"no row {first} in:\n{printed}")


def test_agreement_is_measured_cached_and_a_drifting_judge_raises_the_alarm(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra in (project / "scenario" / "trial-run" / "replays").glob("*.yaml"):
        if extra.stem not in {"reference", "regressed"}:  # the two that carry both labels of T1b
            extra.unlink()
    record = project / "baseline" / "judge.jsonl"
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--record"]) == 0
        asked = len(stub.requests)
        assert main(["judge", "agreement", "--record"]) == 0  # an unchanged judge: served from the cache
    assert asked == 3 and len(stub.requests) == 3
    printed = capsys.readouterr().out
    labels, agree, constant_judge, kappa, *_ = row(printed, "trial-run/T1b")
    assert (labels, agree, constant_judge) == ("2", "100%", "50% (always 0)")
    assert kappa.startswith("1.00")
    assert "Overall: too few labels to tell (3; at least 10" in printed  # three labels prove nothing
    first, second = load_judge_checks(record)
    assert first.overall.raw == 1.0 and not first.alarms and not second.alarms

    # the configured judge moves to another model, which gives full marks without reading
    config = project / "evals.yaml"
    text_ = config.read_text(encoding="utf-8")
    config.write_text(
        re.sub(r"model: claude-haiku-4-5\b", "model: claude-haiku-4-5-20251001", text_), encoding="utf-8"
    )
    with judge(monkeypatch, constant) as stub:
        assert main(["judge", "agreement", "--record"]) == 0
    assert len(stub.requests) == 3  # a new model misses the cache: every labelled part is asked again
    printed = capsys.readouterr().out
    assert "trial-run/T1b: no better than a constant judge: always answering 0 would agree on 50%" in printed
    assert row(printed, "trial-run/T1b")[5] == "1 / 0"  # judge above the label once, below never
    drifted = load_judge_checks(record)[-1]
    assert drifted.changed == ["judge model claude-haiku-4-5 → claude-haiku-4-5-20251001"]
    assert (
        drifted.below_floor
        and "judge changed: judge model claude-haiku-4-5 → claude-haiku-4-5-20251001" in drifted.alarms
    )


def test_without_a_key_it_asks_for_one_or_a_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "agreement"]) == 2
    assert "needs ANTHROPIC_API_KEY" in capsys.readouterr().err


def unlabel(project: Path) -> None:
    """The trial run as an adopting repository has it before its first label: judged parts, no label."""
    (project / "scenario" / "trial-run" / "labels.yaml").write_text("labels: []\n", encoding="utf-8")


def test_with_a_key_but_no_label_it_says_not_measured_exits_0_and_records_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    unlabel(project)
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--record"]) == 0
    assert stub.requests == []  # nothing labelled: nothing replayed, nothing asked
    out = capsys.readouterr().out
    assert out.startswith("not measured: no labelled judged parts in the bundled replays")
    assert "how to label: docs/judge.md#labelling-the-judged-parts" in out
    assert "Recorded" not in out and not (project / "baseline" / "judge.jsonl").exists()


def test_a_label_file_that_does_not_read_still_fails(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    unlabel(project)
    labelled = project / "scenario" / "trial-run" / "labels"
    labelled.mkdir()
    (labelled / "broken.jsonl").write_text('{"part": "T1b"}\n', encoding="utf-8")
    with judge(monkeypatch, reading):
        assert main(["judge", "agreement", "--record"]) == 2
    captured = capsys.readouterr()
    assert "broken.jsonl" in captured.err and "not measured" not in captured.out


def test_the_nightly_step_turns_not_measured_into_a_warning_and_a_bad_label_file_into_a_red_step(
    project: Path, tmp_path: Path
) -> None:
    """scripts/judge_agreement.sh as the nightly's judge job runs it, with a key and no label."""
    unlabel(project)
    summary = tmp_path / "summary.md"

    def step() -> subprocess.CompletedProcess[str]:
        summary.write_text("", encoding="utf-8")
        with StubAnthropic(default=reading) as stub:
            env = {
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                "HOME": str(project),
                "ANTHROPIC_API_KEY": "sk-test-agreement",
                "ANTHROPIC_BASE_URL": stub.url,
                "GITHUB_STEP_SUMMARY": str(summary),
                "EVALS_SCENARIOS": "trial-run",  # blank would measure the `full` suite, as the shards run it
            }
            done = subprocess.run(
                ["bash", str(ROOT / "scripts" / "judge_agreement.sh")],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
            )
        assert stub.requests == []
        return done

    quiet = step()
    assert quiet.returncode == 0, quiet.stderr
    assert "::warning title=Agent evals::judge agreement not measured tonight: no labelled judged parts" in (
        quiet.stdout
    )
    said = summary.read_text(encoding="utf-8")
    assert said.startswith("⚖️ **The judge:** agreement with people **not measured** tonight: no labelled")
    assert "docs/judge.md#labelling-the-judged-parts" in said and "tonight's measurement" not in said

    labelled = project / "scenario" / "trial-run" / "labels"
    labelled.mkdir()
    (labelled / "broken.jsonl").write_text('{"part": "T1b"}\n', encoding="utf-8")
    red = step()
    assert red.returncode == 2 and "::error title=Agent evals::" in red.stdout
    assert "agreement **not measured** tonight (exit 2)" in summary.read_text(encoding="utf-8")


def test_by_default_the_newest_90_days_are_measured_and_all_labels_on_request(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reviewers re-labelled two of the replays' parts: the regressed reply as 1 long ago (the judge
    reads it as 0), the reference T5 last month. The window ends on the newest label (2026-11-30),
    never on the clock, so the old disagreement is out of it unless every label is asked for."""
    for extra in (project / "scenario" / "trial-run" / "replays").glob("*.yaml"):
        if extra.stem not in {"reference", "regressed"}:
            extra.unlink()
    labelled = project / "scenario" / "trial-run" / "labels"
    labelled.mkdir()
    lines = [
        {"part": "T1b", "evidence_sha256": REGRESSED_T1B, "score": 1, "date": "2026-03-01"},
        {"part": "T5", "evidence_sha256": REFERENCE_T5, "score": 1, "date": "2026-11-30"},
    ]
    (labelled / "ana.jsonl").write_text(
        "".join(
            json.dumps({**line, "by": "ana", "why": "read it", "run": "nightly-7"}) + "\n" for line in lines
        ),
        encoding="utf-8",
    )
    record = project / "baseline" / "judge.jsonl"
    with judge(monkeypatch, reading):
        assert main(["judge", "agreement", "--record"]) == 0
        windowed = capsys.readouterr().out
        assert main(["judge", "agreement", "--all-labels", "--record"]) == 0
        every = capsys.readouterr().out
        assert main(["judge", "agreement", "--as-of", "2026-03-15", "--days", "30"]) == 0
        march = capsys.readouterr().out
    assert (
        "2 labelled part(s) from the bundled replays, labels of the newest 90 days (2026-09-02 – 2026-11-30: "
        "1 dated label(s) and 5 undated; 1 older not counted)" in windowed
    )
    assert row(windowed, "**overall**")[:2] == ["2", "100%"]
    assert "labels of all labels (2 dated label(s) and 5 undated)" in every
    assert row(every, "**overall**")[:2] == ["3", "67%"]  # the old disagreement counts again
    assert "(2026-02-14 – 2026-03-15: 1 dated label(s) and 5 undated; 1 newer not counted)" in march
    assert row(march, "**overall**")[:2] == ["2", "50%"]
    first, second = load_judge_checks(record)
    assert first.window is not None and (first.window.days, first.window.end) == (90, "2026-11-30")
    assert second.window is not None and second.window.days is None


def test_a_huge_label_file_stops_the_command_naming_it_before_any_call(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    labelled = project / "scenario" / "trial-run" / "labels"
    labelled.mkdir()
    one = {"part": "T5", "evidence_sha256": REFERENCE_T5, "score": 1, "by": "ana", "why": "x" * 900}
    line = json.dumps({**one, "date": "2026-11-30", "run": "nightly-7"}) + "\n"  # each line valid
    with (labelled / "flood.jsonl").open("w", encoding="utf-8") as handle:
        handle.write(line * (17 * 1024 * 1024 // len(line) + 1))
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--record"]) == 2
    assert stub.requests == []
    err = capsys.readouterr().err
    assert "labels/flood.jsonl: larger than 16 MiB, not read" in err
    assert not (project / "baseline" / "judge.jsonl").exists()


def pr_head(project: Path, tmp_path: Path, addition: str) -> Path:
    """A PR head checked out as data: the base's T1b prompt with one more sentence, T5's unchanged."""
    head = tmp_path / "pr-head"
    shutil.copytree(project / "scenario" / "trial-run" / "judge", head / "scenario" / "trial-run" / "judge")
    prompt = head / "scenario" / "trial-run" / "judge" / "T1b.md"
    prompt.write_text(prompt.read_text(encoding="utf-8") + f"\n{addition}\n", encoding="utf-8")
    return head


def test_a_prs_edited_judge_prompt_is_measured_alone_and_the_report_line_gives_its_figure(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The PR job's measurement: only the parts the edited prompt judges are asked, with the head's
    text; the record names only that prompt, keeps the project's measurement beside it, and the
    report's line shows both figures. Without that measurement the line says "not measured"."""
    for extra in (project / "scenario" / "trial-run" / "replays").glob("*.yaml"):
        if extra.stem not in {"reference", "regressed"}:
            extra.unlink()
    record = project / "baseline" / "judge.jsonl"
    head = pr_head(project, tmp_path, "Be extra careful with the threshold.")
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--record"]) == 0  # the project's own (the nightly's)
        base_calls = len(stub.requests)
        assert main(["judge", "agreement", "--prompts-from", str(head), "--record"]) == 0
    pr_requests = stub.requests[base_calls:]
    assert len(pr_requests) == 2  # T1b's two labelled replies, asked afresh with the new text; T5 not
    assert all("Be extra careful with the threshold." in r["messages"][0]["content"] for r in pr_requests)
    out = capsys.readouterr().out
    assert "judged with the prompts" in out and "(trial-run/judge/T1b.md)" in out
    base, pr = load_judge_checks(record)
    assert pr.prompts_from == str(head) and pr.base == base and not pr.changed
    assert list(pr.judge.prompts) == ["trial-run/judge/T1b.md"]
    assert pr.judge.prompts["trial-run/judge/T1b.md"] != base.judge.prompts["trial-run/judge/T1b.md"]
    assert pr.overall.labels == 2 and pr.overall.raw == 1.0

    fingerprint = {  # the run, graded with the base's prompts (the PR's edits are not used for it)
        "judge_model": base.judge.model,
        "scenarios": {
            "trial-run": {
                "judge_prompts": {
                    "judge/T1b.md": base.judge.prompts["trial-run/judge/T1b.md"],
                    "judge/T5.md": base.judge.prompts["trial-run/judge/T5.md"],
                }
            }
        },
    }
    edited = ["scenario/trial-run/judge/T1b.md"]
    line = judge_line(pr, fingerprint, edited)
    assert line.startswith(
        "⚖️ **The judge:** agrees with people on **100% of 3 labelled parts**"
    )  # the base's
    assert (
        "· this PR's judge prompt(s) `trial-run/judge/T1b.md`: agrees with people on **100% of 2 labelled"
        in line
    )
    # no PR measurement (a keyless PR job): the edited prompt is "not measured", no figure of its own
    keyless = judge_line(base, fingerprint, edited)
    assert keyless.endswith(
        "· this PR edits judge prompt(s) `trial-run/judge/T1b.md`: their agreement with people is "
        "**not measured** (the PR's judge job measures it with ANTHROPIC_API_KEY; "
        "docs/judge.md#can-i-trust-it)"
    )
    assert keyless.count("agrees with people") == 1  # the base judge's figure only, never for the new prompt
    # bless never takes a PR's measurement for the project's judge
    assert measured_for([pr], pr.judge) is None


def test_a_prompt_the_pr_links_outside_its_head_is_refused_unread(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = pr_head(project, tmp_path, "unused")
    secret = tmp_path / "runner-file.txt"
    secret.write_text("not for the model\n", encoding="utf-8")
    prompt = head / "scenario" / "trial-run" / "judge" / "T1b.md"
    prompt.unlink()
    prompt.symlink_to(secret)
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--prompts-from", str(head), "--record"]) == 2
    assert stub.requests == []
    assert "T1b.md: not a regular file inside" in capsys.readouterr().err
    assert not (project / "baseline" / "judge.jsonl").exists()


def test_a_pr_that_edits_no_judge_prompt_measures_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    head = tmp_path / "pr-head"
    shutil.copytree(project / "scenario" / "trial-run" / "judge", head / "scenario" / "trial-run" / "judge")
    with judge(monkeypatch, reading) as stub:
        assert main(["judge", "agreement", "--prompts-from", str(head), "--record"]) == 0
    assert stub.requests == []
    assert capsys.readouterr().out.startswith("no judge prompt edited in")
    assert not (project / "baseline" / "judge.jsonl").exists()
