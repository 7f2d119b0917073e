"""Live-mode configuration: names, naming convention and the documented keys agree."""

from __future__ import annotations

from evals.world.live.config import ENV_KEYS
from evals.world.live.naming import is_trial_name, trial_name
from tests.support.paths import ROOT


def test_env_example_lists_every_key_live_mode_reads() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = {line.lstrip("# ").split("=", 1)[0] for line in text.splitlines() if "=" in line}
    assert set(ENV_KEYS.values()) <= documented


def test_trial_names_are_valid_repo_names_that_the_janitor_recognises() -> None:
    long_run = "20261130-012345-" + "+".join(["nightshift"] * 12)
    for run_id, trial in [("20261130-012345-trial-run", 0), (long_run, 17)]:
        name = trial_name(run_id, trial)
        assert len(name) <= 100 and name.endswith(f"-t{trial}")
        assert is_trial_name(name)
    assert not is_trial_name("hydra-pipeline") and not is_trial_name("agent-evals-notes")


def test_the_scenarios_repo_and_persona_addresses_point_at_the_real_ones() -> None:
    from evals.world.live.tools import Aliases

    aliases = Aliases(
        ("acme-ai-labs", "demo-repo-0"),
        ("acme-evals", "agent-evals-run-t0"),
        {"sam.rivera@acme.example": "sam.persona@inbox.example"},
    )
    args = {"owner": "ACME-AI-LABS", "repo": "demo-repo-0", "path": "src/x.py"}
    assert aliases.apply("GITHUB_GET_REPOSITORY_CONTENT", args)["repo"] == "agent-evals-run-t0"
    assert aliases.apply("GITHUB_GET_REPOSITORY_CONTENT", {"owner": "octo", "repo": "demo-repo-0"}) == {
        "owner": "octo",
        "repo": "demo-repo-0",
    }
    mail = aliases.apply("GMAIL_REPLY_TO_THREAD", {"recipient_email": "Sam.Rivera@acme.example", "cc": []})
    assert mail["recipient_email"] == "sam.persona@inbox.example"
    query = aliases.apply("GMAIL_FETCH_EMAILS", {"query": "from:sam.rivera@acme.example is:unread"})
    assert query["query"] == "from:sam.persona@inbox.example is:unread"
