"""`config_files.env_file_has_placeholders` given only the names: any placeholder a reader takes for
one passes, a value that could be real does not.

Written from env-template's prompt ("each with a placeholder value in angle brackets, like
`<db-url>`, never a real value"): a reviewer accepts `<DB_URL>`, `<db_url>` or `<your db url>`, quoted or
exported, and refuses a token-shaped value, an empty value or a URL.

mailer-env's mail asks for "placeholders only, no real values" and names no form (`placeholder:
common`): there a reviewer also takes `your-mail-api-url`, `YOUR_API_KEY`, `changeme`, `xxx`,
`${MAIL_API_KEY}` (read as written, never interpolated from the grader's environment), the code's
own `example.com` default or no value for one, and still refuses a real-looking key, URL or host.
"""

from __future__ import annotations

import pytest

from evals.grade.checks.config_files import env_file_has_placeholders
from evals.grade.registry import GradeContext
from evals.scenario.load import load_scenario
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.paths import ROOT
from tests.support.project import add_pr


def graded(value: str, placeholder: str | None = None) -> bool:
    scenario = load_scenario(ROOT / "scenario", "env-template")
    snap = outcome(seed(scenario, 0))
    add_pr(snap, {".env.example": f"NOTIFIER_DB_URL={value}\n"})
    ctx = GradeContext(outcome=snap, scenario=scenario)
    form = {} if placeholder is None else {"placeholder": placeholder}
    return env_file_has_placeholders(ctx, path=".env.example", variables=["NOTIFIER_DB_URL"], **form).passed


@pytest.mark.parametrize("value", ["<db-url>", "<DB_URL>", "<db_url>", "'<your db url>'", '"<db.url>"'])
def test_a_placeholder_a_reader_takes_for_one_passes(value: str) -> None:
    assert graded(value)


@pytest.mark.parametrize(
    "value", ["", "xoxb-1234-5678", "postgresql://db/notifier", "<>", "<db-url", "changeme"]
)
def test_a_value_that_could_be_real_or_no_value_fails(value: str) -> None:
    assert not graded(value)


@pytest.mark.parametrize(
    "value",
    [
        "<mail-api-url>",
        "your-mail-api-url",
        "YOUR_API_KEY",
        "changeme",
        "'xxx'",
        "${MAIL_API_KEY}",
        "",
        "no-reply@example.com",
        "https://mail-api.example.com/v1",
    ],
)
def test_any_common_placeholder_passes_where_the_task_names_no_form(value: str) -> None:
    assert graded(value, "common")


@pytest.mark.parametrize(
    "value",
    ["sk-live-4f9a1c2e", "https://api.mailgun.net/v3", "smtp.acme.io", "postgresql://db/notifier", "<>"],
)
def test_a_real_looking_value_still_fails_where_the_task_names_no_form(value: str) -> None:
    assert not graded(value, "common")
