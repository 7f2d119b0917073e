"""Scaffold a scenario folder that loads, so `check-scenario NAME` can say what is missing.

The scaffold is the smallest valid scenario: one persona, one email, an empty Notion, a repo with a
README, a one-point rubric (a reply in the email's thread) and an empty reference replay. It loads
and grades, and its reference scores 0 with the reason, which is the first thing to fix; then a
wrong replay with `expect_lost`, then labels for judged parts. README "Writing a scenario" walks
through it.
"""

from __future__ import annotations

import re
from pathlib import Path

from evals.core.errors import BadInputError
from evals.scenario.folder import ScenarioFolder

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

SCENARIO = """\
# {name}: say in one line what this task tests and what its trap is (if any).
name: {name}
title: "TODO: a one-line title"
tier: {tier}  # L1 one service; L2 mail -> code -> PR -> Notion -> reply; L3 many stakeholders
services: [gmail]         # what the task uses (gmail, github, notion); omit to derive it from expected_tools
agent_address: agent@acme.example
start_time: "2025-08-04T09:00:00Z"
personas:                 # example.com-style addresses only, never a real person's
  - id: lead
    name: Jordan Park
    role: Team Lead
    address: jordan.park@acme.example
repo:
  owner: acme-ai-labs
  name: "{name}-{{trial}}"
  initial_commit_message: "Initial commit"
prompts:
  system: {{file: prompts/system.md}}
  task: {{file: prompts/task.md}}
offline_replays: [reference]
expected_tools: [GMAIL_FETCH_EMAILS, GMAIL_REPLY_TO_THREAD]
"""

SYSTEM = """\
You are a software engineer at Acme AI Labs.
You work across Gmail, GitHub and Notion with the tools you have.
You cannot ask follow-up questions: do the work assigned to you directly.
The GitHub repository for this work is {owner}/{repo}.
Reply to the people who emailed you in the same email thread.
"""

TASK = "Check your inbox and do what is asked.\n"

EMAILS = """\
- id: e1
  from: lead
  minutes: 0
  subject: "TODO: subject"
  body: |
    Hi,

    TODO: what the persona asks for, with the facts the agent needs (or where to find them).

    Thanks,
    Jordan
"""

NOTION = "[]  # pages: - {key, title, path, blocks: [{type, text, key}, {type: table, columns, rows}]}\n"

REPO_README = "# {name}\n\nFiles the agent starts from. Keep them small.\n"

RUBRIC = """\
# Code checks first (evals/grade/checks/ or this folder's checks/*.py); a judge prompt only for prose.
max_points: 1
pass_threshold: 1
categories:
  communication: {title: Communication}
criteria:
  - id: R1
    title: Replied in the thread of the request
    category: communication
    parts:
      - id: R1
        points: 1
        checks:
          - {check: mail.replied_in_thread, with: {persona: lead, email: e1}}
"""

REFERENCE = """\
description: "TODO: the task done right; must score full marks (python -m evals check-scenario NAME)."
notes: Look ids up from earlier results (${step.data...}), never hard-code them.
steps: []
"""


def scaffold(scenarios_dir: Path, name: str, tier: str) -> Path:
    """Write scenario `name` under `scenarios_dir`; refuse a bad name or an existing folder."""
    if not NAME.match(name):
        raise BadInputError(f"new-scenario: name {name!r}: use lower-case words joined by hyphens")
    folder = scenarios_dir / name
    if folder.exists():
        raise BadInputError(f"{folder}: already exists")
    files = {
        ScenarioFolder.META: SCENARIO.format(name=name, tier=tier),
        "prompts/system.md": SYSTEM,
        "prompts/task.md": TASK,
        ScenarioFolder.EMAILS: EMAILS,
        ScenarioFolder.NOTION: NOTION,
        "repo/README.md": REPO_README.format(name=name),
        ScenarioFolder.RUBRIC: RUBRIC,
        f"{ScenarioFolder.REPLAYS}/reference.yaml": REFERENCE,
    }
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder
