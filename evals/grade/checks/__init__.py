"""Layer-1 checks and evidence extractors, registered by name for rubric data to use."""

from evals.grade.checks import (
    behaviour,
    config_files,
    mail,
    mail_rules,
    manifest,
    nightshift_code,
    notion,
    notion_fields,
    pull_titles,
    python,
    repo,
)

__all__ = [
    "behaviour",
    "config_files",
    "mail",
    "mail_rules",
    "manifest",
    "nightshift_code",
    "notion",
    "notion_fields",
    "pull_titles",
    "python",
    "repo",
]
