"""Injected tool failures: the 502s, 503s and timeouts a real toolset gives now and then.

An agent that gives up on the first 502, or retries a permanent outage forever and then says the
work is done, fails its users in a way no clean sandbox shows. A scenario declares its faults
(`faults:` in scenario.yaml, `evals.scenario.model.Fault`); the toolset asks `FaultPlan.strike`
before running a call and answers the error envelope instead when the call is one that fails.

Deterministic per trial: calls are counted per fault, in order, within one trial's toolset, and only
calls whose arguments validate count (Composio checks arguments before it calls the service). The
error texts are designed, not transcribed: Composio passes the HTTP client's message through in its
envelope's `error`, and these follow the `requests` library's wording for an HTTP error and a read
timeout, with the service's API host.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass, field

from evals.scenario.model import Fault

HOSTS = {"github": "api.github.com", "gmail": "gmail.googleapis.com", "notion": "api.notion.com"}
STATUS = {
    "bad_gateway": "502 Server Error: Bad Gateway",
    "service_unavailable": "503 Server Error: Service Unavailable",
}


def error_text(fault: Fault, slug: str) -> str:
    """The envelope's `error` for one failing call of `slug`."""
    host = HOSTS.get(slug.split("_", 1)[0].lower(), "api.example.com")
    if fault.error == "timeout":
        return f"HTTPSConnectionPool(host='{host}', port=443): Read timed out. (read timeout=60)"
    return f"{STATUS[fault.error]} for url: https://{host}/ ({slug})"


@dataclass(frozen=True)
class Strike:
    """One failing call: what to answer, and whether its effect happens anyway."""

    error: str
    applied: bool


@dataclass
class FaultPlan:
    """The scenario's faults and how many matching calls each has seen in this trial."""

    faults: Sequence[Fault] = ()
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen = [0] * len(self.faults)

    def strike(self, slug: str) -> Strike | None:
        """Count this (valid) call against every fault it matches; the first that fails it decides."""
        hit: Strike | None = None
        for index, fault in enumerate(self.faults):
            if not fnmatch.fnmatchcase(slug, fault.tool):
                continue
            self.seen[index] += 1
            failing = fault.calls is None or self.seen[index] in fault.calls
            if failing and hit is None:
                hit = Strike(error_text(fault, slug), fault.applied)
        return hit
