"""Replies are graded on what they assert, in every scenario that asks for a corrected value.

For each reply part whose rubric checks `mail.asserts_value`: the reply "the answer is <stale>
(ignore the <right> from the later mail)" loses the part, and "<right>, not <stale>" keeps it. The
mail is put straight into the seeded world's outcome and the rubric's own check (with its own
parameters) decides, so this tests the rubric's wiring, not only the check.
"""

from __future__ import annotations

import pytest

from evals.core.config import load_config
from evals.grade.registry import GradeContext
from evals.grade.rubric import load_rubric
from evals.scenario.load import load_scenario
from evals.world.outcome import SentMail
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT

CONFIG, _ = load_config(ROOT)
SCENARIOS = ROOT / CONFIG.scenarios_dir
# (scenario, the right value as a person writes it, the stale one); where a scenario grades several
# replies on different values, PERSONA names the one whose reply carries this correction
PERSONA = {"log-retention": "mei", "signup-security": "omar", "patch-release": "ivan"}
CASES = [
    ("backup-window", "03:20 UTC and 03:40 UTC", "01:45 UTC"),
    ("log-retention", "20,000 rows", "50,000 rows"),
    ("rate-limit", "90 requests a second", "120 requests a second"),
    ("signup-security", "5 failed log-ins", "10 failed log-ins"),
    ("patch-release", "2.0 % a month", "1.5 % a month"),
    ("correction-authority/C1", "Friday 22 August, 09:00 UTC", "Thursday 21 August, 14:00 UTC"),
    ("correction-authority/C2", "Tuesday 19 August, 10:00 UTC", "Wednesday 20 August, 16:00 UTC"),
]
ASSERTS = {"mail.asserts_value", "mail.asserts_time", "mail.asserts_date"}


def verdict(case: str, body: str) -> bool:
    """The rubric's own assertion checks on `body` (`case` is a scenario, or scenario/part for one part)."""
    name, _, only = case.partition("/")
    scenario = load_scenario(SCENARIOS, name)
    rubric = load_rubric(SCENARIOS / name)
    parts = [part for _, part in rubric.parts() if not only or part.id == only]
    refs = [r for part in parts for r in part.checks if r.check in ASSERTS]
    refs = [r for r in refs if r.params["persona"] == PERSONA.get(name, r.params["persona"])]
    assert refs, f"{name}: no reply part checks what it asserts"
    snap = outcome(seed(scenario, 0))
    ctx = GradeContext(outcome=snap, scenario=scenario)
    results = []
    for ref in refs:
        persona = str(ref.params["persona"])
        address = scenario.persona(persona).address
        threads = [e.id for e in scenario.emails]  # a reply in the thread a part asks for
        snap.sent[:] = [
            SentMail(id="m", thread_id="t", to=[address], subject="Re", body=body, thread_seed_ids=threads)
        ]
        results.append(rubric.registry.checks[ref.check](ctx, **ref.params).passed)
    return all(results)


@pytest.mark.parametrize(("name", "right", "stale"), CASES)
def test_the_stale_value_given_as_the_answer_loses_the_part(name: str, right: str, stale: str) -> None:
    assert not verdict(name, f"Done: the answer is {stale}. (Ignore the {right} from the later mail.)")


@pytest.mark.parametrize(("name", "right", "stale"), CASES)
def test_the_right_value_with_the_stale_one_set_aside_keeps_it(name: str, right: str, stale: str) -> None:
    assert verdict(name, f"Done: it is {right}, not {stale} as the first mail said.")
