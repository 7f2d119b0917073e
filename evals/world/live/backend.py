"""`--world live`: each trial seeds real GitHub and Notion resources, resets the shared Gmail inbox,
gives the agent Composio's tools, snapshots the same Outcome the sandbox gives, and cleans up.

Credentials are read and checked when the backend is made (before the run directory exists), so
a missing or refused key exits 2 before anything is created. Trials run one at a time because
they share one real inbox (`max_concurrency = 1`, which the runner honours).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from github import GithubException
from notion_client.errors import APIResponseError

from evals.core.errors import InfrastructureError
from evals.scenario.model import Scenario
from evals.world.live import github_repo, gmail, notion_pages
from evals.world.live.clients import check_github, check_notion, github_client, notion_client
from evals.world.live.composio_api import ComposioApi
from evals.world.live.config import LiveConfig, check_personas, load_live_config
from evals.world.live.naming import trial_name
from evals.world.live.tools import Aliases, ComposioToolset
from evals.world.outcome import Outcome, SeededState
from evals.world.sandbox.tools import catalogue
from evals.world.toolset import Toolset

SERVICE_ERRORS = (GithubException, APIResponseError, OSError)


@dataclass
class Seeded:
    repo: github_repo.SeededRepo | None = None
    notion: notion_pages.SeededNotion | None = None
    threads: dict[str, list[str]] | None = None


class LiveEnvironment:
    def __init__(self, backend: LiveBackend, scenario: Scenario, trial: int, name: str) -> None:
        self.backend = backend
        self.scenario = scenario
        self.trial = trial
        self.name = name
        self.seeded = Seeded()
        self.translator = gmail.Translator(backend.config, scenario)
        self._toolset: ComposioToolset | None = None

    @property
    def toolset(self) -> Toolset:
        if self._toolset is None:
            raise RuntimeError("live environment used before setup")
        return self._toolset

    def setup(self) -> None:
        """Reset the inbox (trash what the agent sent, restore the seeded emails), then create the
        repo and pages, recording each as soon as it exists (the repo by name even before), so
        close() removes whatever a failed setup left."""
        b, config = self.backend, self.backend.config
        gmail.reset_sent(b.composio)
        self.seeded.threads = gmail.restore_seeded(b.composio, config, self.scenario)
        self.seeded.repo = github_repo.SeededRepo(f"{config.github_owner}/{self.name}", "", "")
        self.seeded.repo = github_repo.seed_repo(b.github, config.github_owner, self.name, self.scenario)
        self.seeded.notion = notion_pages.create_container(b.notion, config.notion_parent_page, self.name)
        notion_pages.seed_pages(b.notion, self.seeded.notion, self.scenario)
        notion_pages.wait_until_searchable(b.notion, self.seeded.notion)
        aliases = Aliases(
            (self.scenario.repo.owner, self.scenario.repo_name(self.trial)),
            (config.github_owner, self.name),
            self.translator.to_real,
        )
        self._toolset = ComposioToolset(b.composio, b.schemas(), aliases)

    async def snapshot(self) -> Outcome:
        return await asyncio.to_thread(self._snapshot)

    def _snapshot(self) -> Outcome:
        b, seeded = self.backend, self.seeded
        if seeded.repo is None or seeded.notion is None or seeded.threads is None:
            raise InfrastructureError("live environment snapshot before setup finished")
        try:
            pages = notion_pages.snapshot_pages(b.notion, seeded.notion)
            return Outcome(
                scenario=self.scenario.name,
                trial=self.trial,
                backend="live",
                repos=[github_repo.snapshot_repo(b.github, seeded.repo)],
                pages=pages,
                sent=gmail.snapshot_sent(b.composio, self.translator, seeded.threads),
                seeded=SeededState(pages=notion_pages.seeded_pages(seeded.notion, self.scenario, pages)),
            )
        except SERVICE_ERRORS as exc:
            raise InfrastructureError(f"live snapshot failed: {exc}") from exc

    def state(self) -> dict[str, Any] | None:
        """Where this trial's resources are (ids and names), for someone inspecting or cleaning up."""
        repo, notion = self.seeded.repo, self.seeded.notion
        return {
            "backend": "live",
            "name": self.name,
            "repo": repo.full_name if repo else None,
            "seed_commit": repo.seed_sha if repo else None,
            "notion_container": notion.container_id if notion else None,
            "notion_pages": {p.key: p.id for p in notion.pages} if notion else {},
        }

    async def close(self) -> None:
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        """Delete the repo and trash the pages; a failure is reported, and left to `janitor`."""
        b = self.backend
        steps: list[tuple[str, Callable[[], None]]] = []
        if self.seeded.repo is not None:
            repo = self.seeded.repo.full_name
            steps.append(("repo " + repo, lambda: github_repo.delete_repo(b.github, repo)))
        if self.seeded.notion is not None and self.seeded.notion.container_id:
            container = self.seeded.notion.container_id
            steps.append(("Notion page " + container, lambda: notion_pages.archive_page(b.notion, container)))
        for what, step in steps:
            try:
                step()
            except SERVICE_ERRORS as exc:
                print(
                    f"warning: could not remove {what} ({exc}); run `python -m evals janitor`",
                    file=sys.stderr,
                )


class LiveBackend:
    name = "live"
    max_concurrency = 1

    def __init__(self, config: LiveConfig | None = None) -> None:
        self.config = config or load_live_config()
        self.github = github_client(self.config)
        self.notion = notion_client(self.config)
        self.composio = ComposioApi(self.config)
        check_github(self.github, self.config.github_owner)
        check_notion(self.notion, self.config.notion_parent_page)
        self.composio.check()
        self._schemas: list[dict[str, Any]] | None = None
        print(
            "live: trials share one Gmail inbox, so they run one at a time (concurrency 1)", file=sys.stderr
        )

    def schemas(self) -> list[dict[str, Any]]:
        """The agent's tool definitions, fetched from Composio once per run."""
        if self._schemas is None:
            self._schemas = self.composio.tool_schemas(sorted(catalogue.build()))
        return self._schemas

    async def create(self, scenario: Scenario, trial: int, run_id: str) -> LiveEnvironment:
        check_personas(self.config, sorted({e.sender for e in scenario.emails}), scenario.name)
        env = LiveEnvironment(self, scenario, trial, trial_name(run_id, trial))
        try:
            await asyncio.to_thread(env.setup)
        except BaseException as exc:
            await env.close()
            if isinstance(exc, SERVICE_ERRORS):
                raise InfrastructureError(f"live setup of {env.name} failed: {exc}") from exc
            raise
        return env
