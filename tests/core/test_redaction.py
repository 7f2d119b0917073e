"""Known secret values from the environment appear in no file under the run directory, nor in output."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.agents import AgentPrompts
from evals.cli import main
from evals.core.errors import InfrastructureError
from evals.world.toolset import Toolset
from tests.support.stubs.anthropic_stub import StubAnthropic
from tests.support.stubs.reference_player import ReferencePlayer

PLANTED = "ghp_PlantedSecretValue0123456789"
API_KEY = "sk-ant-planted-key-9876543210"


def files_holding(run_dir: Path, *values: str) -> list[str]:
    found = []
    for path in run_dir.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if any(v.encode() in data for v in values):
                found.append(str(path.relative_to(run_dir)))
    return found


def test_a_secret_the_agent_echoes_into_its_work_appears_in_no_file_of_the_run(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", PLANTED)
    out = project / "runs" / "secret"
    with StubAnthropic(default=ReferencePlayer(project / "scenario", echo=PLANTED)) as stub:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        main(["run", "--scenario", "trial-run", "--agent", "claude", "--out", str(out)])
    # the secret really went through the trial: in the email the agent sent and its final words
    assert any(PLANTED in str(r) for r in stub.requests)
    assert len(list(out.rglob("*.json"))) >= 5
    assert files_holding(out, PLANTED, API_KEY) == []
    assert "[REDACTED]" in (out / "trials" / "trial-run" / "0" / "transcript.json").read_text()
    assert "[REDACTED]" in (out / "trials" / "trial-run" / "0" / "outcome.json").read_text()
    printed = capsys.readouterr()
    assert PLANTED not in printed.out + printed.err


class LeakyFailure:
    """An agent whose infrastructure error message carries a token (as a careless URL might)."""

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> str:
        await toolset.call("GMAIL_FETCH_EMAILS", {"max_results": 1})
        raise InfrastructureError(f"POST https://api.example/v1?token={PLANTED} failed")


def test_a_secret_in_an_error_message_is_redacted_from_results_report_and_console(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NOTION_TOKEN", PLANTED)
    out = project / "runs" / "error"
    assert main(["run", "--agent", "tests.core.test_redaction:LeakyFailure", "--out", str(out)]) == 3
    assert "token=[REDACTED]" in (out / "results.jsonl").read_text()
    assert files_holding(out, PLANTED) == []
    printed = capsys.readouterr()
    assert PLANTED not in printed.out + printed.err
