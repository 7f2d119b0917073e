"""The live path survives what real services do: Composio rate limits (429 with Retry-After),
timeouts, a repository GitHub has just created answering 404, and Notion's search indexing new
pages late. Each fault is injected into the fakes; the waiting is recorded, never slept, so the
tests are deterministic. What cannot be survived within the budget is an infrastructure error,
never the agent's failure."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from evals.agents.base import AgentPrompts
from evals.cli import main
from evals.world.live.composio_api import ComposioApi
from evals.world.live.config import load_live_config
from evals.world.toolset import Toolset
from tests.support.fakes import FakeServices, Request
from tests.support.project import read_summary

RUN = ["run", "--world", "live", "--scenario", "trial-run"]


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The live path's waits (retries and bounded polling), recorded instead of slept."""
    waits: list[float] = []
    monkeypatch.setattr("evals.world.live.polling.sleep", waits.append)
    return waits


def on_the_agents_first_call(services: FakeServices, fault: Any) -> None:
    """Inject `fault()` when the replay's first call (reading the inbox) reaches Composio."""
    fired: list[bool] = []

    def before(request: Request) -> None:
        arguments = (request.body or {}).get("arguments") or {}
        if (
            not fired
            and request.path.endswith("/GMAIL_FETCH_EMAILS")
            and arguments.get("query") == "in:inbox"
        ):
            fired.append(True)
            fault()

    services.composio.before = before


def trial(run: Path) -> dict[str, Any]:
    lines = (run / "results.jsonl").read_text(encoding="utf-8").splitlines()
    record: dict[str, Any] = json.loads(lines[-1])
    return record


def test_a_rate_limited_call_is_retried_after_the_time_composio_asks(
    project: Path, services: FakeServices, slept: list[float]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    on_the_agents_first_call(services, lambda: services.composio.fail_next(2, 429, "7"))
    out = project / "runs" / "limited"
    assert main([*RUN, "--agent", "replay:reference", "--out", str(out)]) == 0
    assert read_summary(out)["total"]["mean"] == 7
    assert slept == [7.0, 7.0], "Retry-After honoured, once per refusal"
    calls = json.loads((out / "trials" / "trial-run" / "0" / "transcript.json").read_text())["tool_calls"]
    assert calls[0]["result"]["successful"], "the agent never saw the rate limit"


def test_a_rate_limit_that_outlasts_the_retries_is_an_infrastructure_error(
    project: Path, services: FakeServices, slept: list[float]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    on_the_agents_first_call(services, lambda: services.composio.fail_next(50, 429, "1"))
    out = project / "runs" / "exhausted"
    assert main([*RUN, "--agent", "replay:reference", "--out", str(out)]) == 3
    record = trial(out)
    assert record["status"] == "error" and "429" in record["error"] and record["grade"] is None
    assert len(slept) == 5, "the SDK's retries, then no more"
    assert services.universe.world.repos == {}, "the trial still cleaned up"


def test_a_server_error_is_retried_too(project: Path, services: FakeServices, slept: list[float]) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    on_the_agents_first_call(services, lambda: services.composio.fail_next(1, 503))
    out = project / "runs" / "unavailable"
    assert main([*RUN, "--agent", "replay:reference", "--out", str(out)]) == 0
    assert len(slept) == 1 and read_summary(out)["total"]["mean"] == 7


class TimesOutOnce(httpx.BaseTransport):
    """A transport whose first request times out; later ones go through to the fake."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.timeouts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.timeouts == 0 and request.url.path.endswith("/tools/execute/GMAIL_FETCH_EMAILS"):
            self.timeouts += 1
            raise httpx.ReadTimeout("timed out", request=request)
        return self.inner.handle_request(request)


def test_a_timed_out_call_is_retried(services: FakeServices, slept: list[float]) -> None:
    transport = TimesOutOnce()
    api = ComposioApi(load_live_config(), http_client=httpx.Client(transport=transport))
    result = api.execute("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})
    assert result["successful"] and transport.timeouts == 1 and len(slept) == 1


def test_a_new_repository_that_answers_404_for_a_moment_is_waited_for(
    project: Path, services: FakeServices, slept: list[float]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    services.github.settling = 3
    out = project / "runs" / "settling"
    assert main([*RUN, "--agent", "replay:reference", "--out", str(out)]) == 0
    assert read_summary(out)["total"]["mean"] == 7
    assert slept == [0.5, 1.0, 2.0]


def test_a_repository_that_never_settles_fails_setup_as_infrastructure(
    project: Path, services: FakeServices, slept: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    services.github.settling = 1000
    assert main([*RUN, "--agent", "replay:reference", "--out", str(project / "runs" / "never")]) == 3
    assert "gave up waiting for GitHub" in capsys.readouterr().err
    assert sum(slept) == 31.5, "a bounded wait"
    services.github.unsettled.clear()  # it settles at last; the trial's cleanup had found it missing
    assert main(["janitor", "--yes"]) == 0
    assert services.universe.world.repos == {}


def test_setup_waits_until_notion_search_finds_the_seeded_pages(
    project: Path, services: FakeServices, slept: list[float]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    services.notion.search_lag = 2  # a new page is invisible to the next two searches
    out = project / "runs" / "lagging"
    assert main([*RUN, "--agent", "replay:reference", "--out", str(out)]) == 0
    assert read_summary(out)["total"]["mean"] == 7
    assert slept == [0.5]


def test_a_search_index_that_never_catches_up_names_the_missing_pages(
    project: Path, services: FakeServices, slept: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    services.notion.search_lag = 10**6
    assert main([*RUN, "--agent", "replay:reference", "--out", str(project / "runs" / "stale")]) == 3
    err = capsys.readouterr().err
    assert "Notion search" in err and "Moderation Classifier Threshold Spec" in err and "Sprint 4" in err


async def reply_with_copies(prompts: AgentPrompts, toolset: Toolset) -> str:
    """An agent that answers the email with a Cc and a Bcc."""
    inbox = await toolset.call("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 5})
    thread = inbox["data"]["messages"][0]["threadId"]
    await toolset.call(
        "GMAIL_REPLY_TO_THREAD",
        {
            "thread_id": thread,
            "recipient_email": "sam.rivera@acme.example",
            "message_body": "On it.",
            "cc": ["trust-and-safety@acme.example"],
            "bcc": ["records@acme.example"],
        },
    )
    return "replied"


def test_cc_and_bcc_are_read_from_the_headers_as_the_sandbox_has_them(
    project: Path, services: FakeServices
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    agent = "tests.world.test_live_robustness:reply_with_copies"
    sandbox, live = project / "runs" / "sandbox", project / "runs" / "live"
    main(["run", "--scenario", "trial-run", "--agent", agent, "--out", str(sandbox)])
    main([*RUN, "--agent", agent, "--out", str(live)])

    def sent(run: Path) -> list[tuple[list[str], list[str], list[str]]]:
        outcome = json.loads((run / "trials" / "trial-run" / "0" / "outcome.json").read_text())
        return [(m["to"], m["cc"], m["bcc"]) for m in outcome["sent"]]

    assert (
        sent(live)
        == sent(sandbox)
        == [(["sam.rivera@acme.example"], ["trust-and-safety@acme.example"], ["records@acme.example"])]
    )


async def search_the_spec(prompts: AgentPrompts, toolset: Toolset) -> str:
    found = await toolset.call("NOTION_SEARCH_NOTION_PAGE", {"query": "Hydra Deployment Spec"})
    crumb = await toolset.call("NOTION_SEARCH_NOTION_PAGE", {"query": "Infrastructure"})
    return json.dumps([found["data"]["results"], crumb["data"]["results"]])


def test_live_search_shows_the_page_and_its_database_as_the_sandbox_does(
    project: Path, services: FakeServices
) -> None:
    """The spec page has properties, so in both worlds it is the one row of a database of its own:
    search shows the page and that database, and its breadcrumb page is there as in the sandbox."""
    assert main(["seed-inbox", "--scenario", "nightshift"]) == 0
    agent = "tests.world.test_live_robustness:search_the_spec"
    runs = {}
    for world in ("sandbox", "live"):
        out = project / "runs" / world
        main(["run", "--world", world, "--scenario", "nightshift", "--agent", agent, "--out", str(out)])
        transcript = json.loads((out / "trials" / "nightshift" / "0" / "transcript.json").read_text())
        runs[world] = json.loads(transcript["final_text"])
    for world, (spec, crumb) in runs.items():
        title = "Hydra Deployment Spec v2.1"
        found = sorted((r["object"], str(r.get("title") or r["properties"]["title"]["title"])) for r in spec)
        assert [kind for kind, _ in found] == ["database", "page"] and all(title in t for _, t in found), (
            world
        )
        page = next(r for r in spec if r["object"] == "page")
        assert page["parent"]["type"] == "data_source_id", world
        assert [r["properties"]["title"]["title"][0]["plain_text"] for r in crumb] == ["Infrastructure"], (
            world
        )


def test_the_search_wait_reads_every_page_of_results_and_every_request_pins_the_notion_version(
    services: FakeServices, slept: list[float]
) -> None:
    """Notion pages its search results: a seeded page that comes after the first page of results is
    found, not waited for until the budget runs out; notion-client sends the pinned API version."""
    from evals.scenario.load import load_scenario
    from evals.world.live.backend import LiveBackend
    from evals.world.live.clients import NOTION_VERSION
    from tests.support.paths import ROOT

    services.notion.search_page = 1
    services.notion.add_root("Sprint 4 retrospective")  # found first: the seeded Sprint 4 is on page 2

    async def setup() -> None:
        env = await LiveBackend().create(load_scenario(ROOT / "scenario", "trial-run"), 0, "paged")
        await env.close()

    asyncio.run(setup())
    assert slept == [], "found at once, on the second page of results"
    searches = [s for s in services.notion.served if s.path == "/v1/search"]
    assert any(s.body.get("has_more") for s in searches)
    assert set(services.notion.versions) == {NOTION_VERSION}


def test_a_created_labels_id_is_read_from_the_documented_fields() -> None:
    from evals.world.live.seed_labels import label_id

    assert label_id({"response_data": {"id": "Label_7", "name": "x"}}) == "Label_7", "the 0_1 output schema"
    assert label_id({"labelId": "Label_8"}) == "Label_8", "what the 20260721_00 docs page says it returns"
    assert label_id({"id": "Label_9"}) is None, "an undocumented field is not guessed at"
