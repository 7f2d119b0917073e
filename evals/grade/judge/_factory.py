"""Choosing the judge, once, when the run is planned.

The caller reads the environment once and says whether an API key is present; nothing below looks
at the environment to decide who judges, so every trial of a run (and every part of a trial) is
judged the same way even if the environment changes while it runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from evals.core.config import JudgeConfig
from evals.grade.judge._cache import CachedJudge
from evals.grade.judge._label import LabelJudge
from evals.grade.judge._model import ModelJudge
from evals.grade.judge._protocol import Judge
from evals.grade.labels import Label


def make_judge(
    config: JudgeConfig,
    project_root: Path,
    labels: Mapping[tuple[str, str], Label],
    *,
    api_key_present: bool,
) -> Judge:
    """With a key, the configured model behind the on-disk cache; without one, the human labels."""
    if not api_key_present:
        return LabelJudge(labels)
    return CachedJudge(ModelJudge.from_config(config), project_root / config.cache_dir)
