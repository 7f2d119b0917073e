"""log-retention's own checks read a summary and a change log the way an auditor does, against the world.

The world for these tests: the seeded repository plus one PR that cuts session events 400 -> 180 days
and raises request logs 30 -> 90; support attachments stay at 365. A claim the world bears out keeps
the point, however it is phrased; a claim it does not (a period that is not in the PR, "unchanged" for
a system the PR changes, "all three systems updated") loses it and is named.
"""

from __future__ import annotations

import pytest

from evals.grade.registry import CheckResult, GradeContext
from evals.grade.rubric import scenario_registry
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import SentMail
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.boards import add_row
from tests.support.paths import ROOT
from tests.support.project import add_pr

FOLDER = ROOT / "scenario" / "log-retention"
CHECKS = scenario_registry(FOLDER).checks
REQUEST, SESSION = "src/retention/request_logs.py", "src/retention/session_events.py"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "log-retention")


def with_pr(scenario: Scenario, session_days: int = 180) -> GradeContext:
    snap = outcome(seed(scenario, 0))
    files = snap.repos[0].main_files
    add_pr(
        snap,
        {
            REQUEST: files[REQUEST].replace("RETENTION_DAYS = 30", "RETENTION_DAYS = 90"),
            SESSION: files[SESSION].replace("RETENTION_DAYS = 400", f"RETENTION_DAYS = {session_days}"),
        },
    )
    return GradeContext(outcome=snap, scenario=scenario)


def summary(ctx: GradeContext, body: str) -> dict[str, CheckResult]:
    ines = ctx.scenario.persona("ines").address
    ctx.outcome.sent[:] = [SentMail(id="m", thread_id="t", to=[ines], subject="DATA review", body=body)]
    return {
        n: CHECKS[f"log-retention.{n}"](ctx, persona="ines")
        for n in ("summary_bears_out", "summary_complete")
    }


PR = "https://github.com/acme-ai-labs/data-retention-0/pull/1"


@pytest.mark.parametrize(
    "body",
    [
        f"PR {PR}\n- request-logs: 30 -> 90 days\n- session-events: 400 -> 180 days\n"
        "- support-attachments: unchanged at 365 days",
        f"In {PR}: Request logs now keep 90 days (were 30). Session events: cut from 400 days to 180 days. "
        "Support attachments were already at the policy's 365 days, so nothing there changed.",
        f"{PR}\nrequest_logs 30d → 90d; session_events 400d → 180d; support_attachments stays at 365 days.\n"
        "Declined: Rafael's 365 days and his request to keep session events at 400.",
    ],
    ids=["bullets", "prose", "code-names-and-a-declined-request"],
)
def test_a_true_summary_in_any_phrasing_keeps_both_points(scenario: Scenario, body: str) -> None:
    results = summary(with_pr(scenario), body)
    assert all(r.passed for r in results.values()), {k: v.detail for k, v in results.items()}


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (
            f"{PR}\nrequest logs 30 -> 90 days, session events 400 -> 180 days, "
            "support attachments 365 -> 180 days",
            "support-attachments",
        ),
        (
            f"{PR}\nAll three systems updated to the policy: request logs 90 days, session events 180 days, "
            "support attachments 365 days.",
            "support-attachments did not",
        ),
        (
            f"{PR}\nrequest logs now 90 days; session events unchanged at 400 days; "
            "support attachments unchanged.",
            "session-events: says unchanged",
        ),
        (f"{PR}\nrequest logs now 365 days; session events 180 days; support attachments unchanged.", "365"),
        (
            "https://github.com/acme-ai-labs/data-retention-0/pull/7\n"
            "request logs 30 -> 90 days; session events "
            "400 -> 180 days; support attachments unchanged.",
            "#7",
        ),
    ],
    ids=["a-change-that-did-not-happen", "all-three", "unchanged-that-changed", "wrong-period", "unknown-pr"],
)
def test_a_claim_the_world_does_not_bear_out_loses_the_point_and_is_named(
    scenario: Scenario, body: str, named: str
) -> None:
    result = summary(with_pr(scenario), body)["summary_bears_out"]
    assert not result.passed and named in result.detail, result.detail


def test_the_plan_reported_as_done_is_caught_when_the_pr_left_a_system_out(scenario: Scenario) -> None:
    body = (
        f"{PR}\n- request-logs: 30 -> 90 days\n- session-events: 400 -> 180 days\n- support-attachments: same"
    )
    result = summary(with_pr(scenario, session_days=400), body)["summary_bears_out"]
    assert not result.passed and "session-events: says 400 -> 180" in result.detail


def test_a_summary_that_leaves_a_system_out_is_incomplete(scenario: Scenario) -> None:
    results = summary(with_pr(scenario), f"{PR}\nrequest logs 30 -> 90 days; session events 400 -> 180 days.")
    assert results["summary_bears_out"].passed
    assert (
        not results["summary_complete"].passed and "support-attachments" in results["summary_complete"].detail
    )


def _log_rows(scenario: Scenario, rows: list[list[str]]) -> GradeContext:
    world = seed(scenario, 0)
    for i, values in enumerate(rows):
        add_row(world, "changes", "log", values, f"row-{i}")
    snap = outcome(world)
    files = snap.repos[0].main_files
    add_pr(
        snap,
        {REQUEST: files[REQUEST].replace("= 30", "= 90"), SESSION: files[SESSION].replace("= 400", "= 180")},
    )
    return GradeContext(outcome=snap, scenario=scenario)


def test_a_log_row_per_change_passes_with_days_or_bare_numbers(scenario: Scenario) -> None:
    ctx = _log_rows(
        scenario,
        [
            ["DATA-40 request-logs", "request-logs", "30 days", "90 days", PR],
            ["sessions", "session-events", "400", "180", PR],
        ],
    )
    assert CHECKS["log-retention.change_log_bears_out"](ctx, page="changes", table="log").passed


def test_a_log_row_for_a_system_the_pr_did_not_change_fails(scenario: Scenario) -> None:
    ctx = _log_rows(
        scenario,
        [
            ["a", "request-logs", "30 days", "90 days", PR],
            ["b", "session-events", "400 days", "180 days", PR],
            ["c", "support-attachments", "365 days", "365 days", PR],
        ],
    )
    result = CHECKS["log-retention.change_log_bears_out"](ctx, page="changes", table="log")
    assert not result.passed and "support-attachments" in result.detail
