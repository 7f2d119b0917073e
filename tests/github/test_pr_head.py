"""A PR's two halves: only the agent under test is taken from its head; edits to what measures are
listed (to be blessed after merge), never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.core.errors import BadInputError
from evals.github.pr_gate import PrResult
from evals.github.pr_head import agent_paths, definition_changes, take_agent


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


BASE = {
    "agent/agent.yaml": "model: a\n",
    "agent/prompt.md": "be careful\n",
    "evals/grade/checks/mail.py": "strict = True\n",
    "evals.yaml": "threshold: {points: 1.5}\n",
    "baseline/baseline.json": "{}\n",
    "team/bot.py": "async def agent(p, t): ...\n",
    "README.md": "docs\n",
}


def test_only_the_agent_under_test_is_taken_from_the_head(tmp_path: Path) -> None:
    base = tree(tmp_path / "base", BASE)
    head = tree(
        tmp_path / "head",
        {
            **BASE,
            "agent/prompt.md": "be bold\n",
            "agent/new.md": "extra\n",
            "evals/grade/checks/mail.py": "strict = False\n",
            "evals.yaml": "threshold: {points: 9}\n",
            "team/bot.py": "async def agent(p, t): return 'v2'\n",
        },
    )
    (base / "agent" / "stale.md").write_text("gone in the head\n", encoding="utf-8")
    assert take_agent(base, head, "claude") == ["agent"]
    assert (base / "agent" / "prompt.md").read_text(encoding="utf-8") == "be bold\n"
    assert (base / "agent" / "new.md").is_file() and not (base / "agent" / "stale.md").exists()
    assert (base / "evals/grade/checks/mail.py").read_text(encoding="utf-8") == "strict = True\n"
    assert (base / "evals.yaml").read_text(encoding="utf-8") == "threshold: {points: 1.5}\n"
    assert (base / "team/bot.py").read_text(encoding="utf-8") == BASE["team/bot.py"]
    assert take_agent(base, head, "team.bot:agent") == ["agent", "team/bot.py"]
    assert "v2" in (base / "team/bot.py").read_text(encoding="utf-8")


def test_agent_specs_name_their_paths_and_a_symlink_is_never_followed(tmp_path: Path) -> None:
    assert agent_paths("claude") == agent_paths("replay:regressed") == agent_paths("auto") == ["agent"]
    assert agent_paths("team.bot:agent") == ["agent", "team/bot"]
    with pytest.raises(BadInputError):
        agent_paths("../evals:agent")
    base = tree(tmp_path / "base", BASE)
    head = tree(tmp_path / "head", BASE)
    (head / "agent" / "prompt.md").unlink()
    (head / "agent" / "prompt.md").symlink_to(base / "evals.yaml")
    with pytest.raises(BadInputError, match="symlink"):
        take_agent(base, head, "claude")


def test_a_dangling_agent_link_in_the_head_never_deletes_the_bases_agent(tmp_path: Path) -> None:
    base = tree(tmp_path / "base", BASE)
    head = tree(tmp_path / "head", {k: v for k, v in BASE.items() if not k.startswith("agent/")})
    (head / "agent").symlink_to(tmp_path / "nowhere")
    with pytest.raises(BadInputError, match="symlink"):
        take_agent(base, head, "claude")
    assert (base / "agent" / "prompt.md").read_text(encoding="utf-8") == "be careful\n"


def test_definition_changes_list_what_measures_and_nothing_else(tmp_path: Path) -> None:
    base = tree(tmp_path / "base", BASE)
    head = tree(
        tmp_path / "head",
        {
            **{k: v for k, v in BASE.items() if k != "baseline/baseline.json"},
            "agent/prompt.md": "be bold\n",
            "README.md": "more docs\n",
            "evals.yaml": "threshold: {points: 9}\n",
            "scenario/trial-run/labels.yaml": "labels: []\n",
        },
    )
    assert definition_changes(base, head) == [
        "baseline/baseline.json",
        "evals.yaml",
        "scenario/trial-run/labels.yaml",
    ]
    assert definition_changes(base, base) == []


def test_every_verdict_maps_to_a_commit_status_and_the_description_fits() -> None:
    assert PrResult("pass", "pass", 0).state == "success"
    assert PrResult("regression", "r", 1).state == "failure"
    assert PrResult("not-comparable", "n", 4).state == "failure"
    assert PrResult("error", "e", 3).state == "error"
    assert PrResult("surprise", "?", 3).state == "error"  # anything unknown is an error, never a pass
    long = PrResult("error", "error: " + "x\n" * 200, 3).outputs()
    assert len(long["description"]) == 140 and "\n" not in long["description"]
