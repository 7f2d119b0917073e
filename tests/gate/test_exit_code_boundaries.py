"""Where each exit code begins: `max_error_share` is "more than" (exactly that share errored is
not an error), and the verdict's exit code is what the process returns."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.cli import main
from tests.support.agents import FailingTrialsAgent, set_config
from tests.support.paths import ROOT
from tests.support.project import read_summary

AGENT = "tests.support.agents:FailingTrialsAgent"


@pytest.fixture(autouse=True)
def _reset() -> None:
    FailingTrialsAgent.down = set()


@pytest.mark.parametrize(
    ("share", "down", "verdict_is_error"),
    [
        (0.5, {1, 3}, False),  # 2 of 4 errored, exactly the share: not an error, the rest is compared
        (0.49, {1, 3}, True),  # the same run, just above a lower share
        (0.5, {0, 1, 3}, True),  # 3 of 4 errored: more than the share
        (0.0, set(), False),  # none errored with a share of 0: fine
        (0.0, {2}, True),  # any errored trial with a share of 0
    ],
)
def test_max_error_share_is_more_than(
    project: Path, share: float, down: set[int], verdict_is_error: bool
) -> None:
    set_config(project, max_error_share=share, gate={"max_trials": 0})
    FailingTrialsAgent.down = down
    out = project / "runs" / "shares"
    code = main(["run", "--agent", AGENT, "--trials", "4", "--out", str(out)])
    summary = read_summary(out)
    assert summary["scenarios"]["trial-run"]["errored"] == len(down)
    assert (summary["verdict"] == "error") is verdict_is_error
    assert (code == 3) is verdict_is_error


def test_max_error_share_is_documented_as_more_than(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "more than `max_error_share`" in readme
    assert main(["--help"]) == 0
    assert "more than `max_error_share`" in capsys.readouterr().out
