"""Names of the resources a live trial creates. One convention for GitHub repos and Notion pages,
so `janitor` can find what a killed run left behind without any local record of it."""

from __future__ import annotations

import re

PREFIX = "agent-evals-"
MAX_LEN = 100  # GitHub's limit on repository names


def trial_prefix(run_id: str) -> str:
    """`agent-evals-<run id>`, reduced to the characters GitHub allows in a repo name."""
    return PREFIX + re.sub(r"[^A-Za-z0-9._-]+", "-", run_id).strip("-.")


def trial_name(run_id: str, trial: int) -> str:
    """`agent-evals-<run id>-t<trial>` (the run id cut short if the name would pass GitHub's limit)."""
    suffix = f"-t{trial}"
    return trial_prefix(run_id)[: MAX_LEN - len(suffix)] + suffix


def is_trial_name(name: str) -> bool:
    return re.fullmatch(re.escape(PREFIX) + r"[A-Za-z0-9._-]*-t\d+", name) is not None
