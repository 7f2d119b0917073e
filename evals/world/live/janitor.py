"""Find and remove what live trials left behind, by naming convention alone (see naming.py), so
it also cleans up after a run that was killed before its `finally` could."""

from __future__ import annotations

from dataclasses import dataclass

from github import Github
from notion_client import Client

from evals.world.live import github_repo, notion_pages
from evals.world.live.config import CleanupConfig
from evals.world.live.naming import is_trial_name, trial_prefix


@dataclass(frozen=True)
class Leftover:
    kind: str  # "github repo" | "notion page"
    id: str
    name: str


def find_leftovers(
    gh: Github, notion: Client, config: CleanupConfig, run_id: str | None = None
) -> list[Leftover]:
    """Trial repos under GITHUB_OWNER and trial pages under the Notion parent (optionally of one run)."""

    def ours(name: str) -> bool:
        return is_trial_name(name) and (run_id is None or name.startswith(trial_prefix(run_id)))

    found = [
        Leftover("github repo", full_name, full_name.split("/", 1)[1])
        for full_name in github_repo.list_trial_repos(gh, config.github_owner)
        if ours(full_name.split("/", 1)[1])
    ]
    found += [
        Leftover("notion page", page_id, title)
        for page_id, title in notion_pages.list_child_pages(notion, config.notion_parent_page)
        if ours(title)
    ]
    return found


def remove(gh: Github, notion: Client, leftover: Leftover) -> None:
    if leftover.kind == "github repo":
        github_repo.delete_repo(gh, leftover.id)
    else:
        notion_pages.archive_page(notion, leftover.id)
