"""Every reference scores full marks everywhere (issue 37, item 6): at instance 0 and the drawn
instances test_instances checks, at every trial index 0-15 (the trial renames the repository and
every id), and no rubric pattern matches text the harness writes by itself.

The sweep grades the reference and each valid replay (`expect_lost: []`) per (instance, trial); it
runs after the task's committed check for the same instances (tests/support/checked.py, same xdist
group), so every confined pytest run is a memo hit: a trial changes names, not the repository's
files. `check-scenario --sweep` also grades seeds 2-5, whose repositories are new to the memo; that
is the slow part, left to the command.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.authoring.check import check_scenario, sweep
from evals.authoring.sweep import TRIALS, parse_trials
from evals.core.config import load_config
from evals.scenario.load import list_scenarios, load_scenario
from tests.scenario.test_instances import CHECKED, NIGHTLY
from tests.support.checked import check_group, committed_check, memoised_pytest
from tests.support.paths import ROOT

SCENARIOS = ROOT / "scenario"
TASKS = list_scenarios(SCENARIOS)


def _drawn(task: str) -> bool:
    return bool(load_scenario(SCENARIOS, task).instance.values)


# At the drawn seed `make test` checks, a few trial indices (the first, a middle and the last a
# 16-trial nightly plays): instance 0 already sweeps every index, and the trial renames the same
# things at every instance. Every index at the checked seed runs with the nightly seeds
# (`make test-instances`), where the issue that split the instances put the per-instance sweep.
CHECKED_TRIALS = (0, 7, 15)


def _sweeps() -> list[object]:
    """(task, seeds, trials): instance 0 at every trial index, the checked seed at CHECKED_TRIALS in
    `make test`; the checked seed's other indices and the nightly seeds apart, marked `instances`
    (`make test-instances`), on the task's check group so the memo is shared."""
    out: list[object] = []
    for task in TASKS:
        group = pytest.mark.xdist_group(check_group(task))
        out.append(pytest.param(task, (None,), tuple(TRIALS), marks=group, id=task))
        if _drawn(task):
            out.append(pytest.param(task, CHECKED, CHECKED_TRIALS, marks=group, id=f"{task}-checked-seed"))
            rest = tuple(t for t in TRIALS if t not in CHECKED_TRIALS)
            marks = [group, pytest.mark.instances]
            out.append(pytest.param(task, CHECKED, rest, marks=marks, id=f"{task}-checked-seed-all-trials"))
            out.append(pytest.param(task, NIGHTLY, tuple(TRIALS), marks=marks, id=f"{task}-nightly-seeds"))
    return out


@pytest.mark.parametrize(("task", "seeds", "trials"), _sweeps())
def test_every_reference_and_valid_replay_scores_full_marks_at_every_trial(
    task: str, seeds: tuple[int | None, ...], trials: tuple[int, ...]
) -> None:
    config, project = load_config(ROOT)
    for seed in seeds:
        committed_check(task, seed)  # the shared check first: its pytest runs are the sweep's memo
    with memoised_pytest():
        problems = sweep(project, config, task, list(seeds), list(trials))
    assert problems == [], "\n".join(problems)


def test_parse_trials() -> None:
    assert parse_trials("0-3,6,12") == [0, 1, 2, 3, 6, 12]
    with pytest.raises(ValueError):
        parse_trials("5-2")


def test_the_sweep_fails_a_reference_that_hard_codes_an_instance_value(project: Path) -> None:
    """A planted copy: Ines's confirmed date written as instance 0's text. Right at instance 0, lost
    at a drawn instance with another date; the lint names it without grading."""
    path = project / "scenario" / "correction-authority" / "replays" / "reference.yaml"
    text = path.read_text(encoding="utf-8")
    planted = "{{param:tickets.a}}: {{param:week.a_day}} 19 August,"
    path.write_text(text.replace("{{param:tickets.a}}: {{param:week.a_day}} {{param:week.a_date}},", planted))
    config, root = load_config(project)
    seed = next(
        s
        for s in range(1, 20)
        if load_scenario(root / "scenario", "correction-authority", s).instance.values["week.a_date"]
        != "19 August"
    )
    problems = sweep(root, config, "correction-authority", [None, seed], [0])
    assert problems and all(p.startswith(f"instance seed {seed}, trial 0: reference: ") for p in problems)
    report = check_scenario(root, config, "correction-authority")
    assert any(
        "reference.yaml: '19 August' is instance 0's {{param:week.a_date}}" in p for p in report.problems
    )


def test_the_sweep_fails_a_pattern_matching_the_repository_name_at_trial_6(project: Path) -> None:
    path = project / "scenario" / "signup-security" / "rubric.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"(?<![\\\\w/:.-])6\\\\b"', '"\\\\b6\\\\b"'), encoding="utf-8")
    config, root = load_config(project)
    with memoised_pytest():
        problems = sweep(root, config, "signup-security", [None], [5, 6])
        report = check_scenario(root, config, "signup-security")
    assert problems and all(p.startswith("instance 0, trial 6: ") and "S14" in p for p in problems), problems
    lint = [p for p in report.problems if "rubric.yaml: S14" in p]
    assert lint and "\\\\b6\\\\b" in lint[0] and "identity-6" in lint[0], report.problems


def test_the_lint_reads_mail_ids_block_ids_and_date_headers_the_harness_writes() -> None:
    """The clarification rubric's old patterns, '\\bMon(day)?s?\\b' and '06', matched a seeded mail's
    Date header and a mail id at some trial; the lint now holds patterns to both, and to block ids."""
    import re

    from evals.authoring.sweep import harness_text

    scenario = load_scenario(SCENARIOS, "clarification")
    texts = {(what, text) for trial in (0, 6) for what, text, _ in harness_text(scenario, trial)}
    kinds = {what for what, _ in texts}
    assert {"a mail's id", "a mail's thread id", "a mail's Date header"} <= kinds
    board = load_scenario(SCENARIOS, "incident-status")
    assert any(what == "a Notion block id" for what, _, _ in harness_text(board, 0))
    headers = [text for what, text in texts if what == "a mail's Date header"]
    assert any(re.search(r"\bMon(day)?s?\b", h) for h in headers), headers
    assert not any(re.search(r"\bMon(day)?s?\b(?!,? \d{1,2} [A-Z][a-z]{2} \d{4})", h) for h in headers)
    ids = [text for what, text in texts if what == "a mail's id"]
    assert not any(re.search(r"(?<![\w.-])06(?![\w-])", i) for i in ids)
