"""Evidence for the judge: only one part's artefacts, normalised so equal content hashes equally.

Before it is hashed and judged, evidence is normalised, so text that differs only in details that
change per trial, per backend or with the sandbox clock keeps its label and its cache entry:

- the repo's full name (`owner/hydra-pipeline-3`) -> `{repo}`, its bare name -> `{repo-name}`;
- each Notion page's URL and id (dashed or not) -> `{page:<key>}`;
- ISO-8601 timestamps (`2025-07-14T03:12:00Z`, with or without seconds, fraction or offset) -> `{time}`;
- git shas (40 hex) -> `{sha}`; any other UUID -> `{id}`.

Nothing a grader reads as prose is touched (PR numbers, ticket numbers and values stay). Evidence is
capped so one runaway artefact cannot make a judge call expensive; the hash is of exactly what the
judge sees, with one more step for a parameterised task (evals/scenario/params.py): the instance's
values are turned back into their placeholders (`512Mi` -> `{{param:memory.binary}}`) before
hashing. The judge still reads the real values (its prompt is rendered with them too), but the
hash, which keys the human labels, is the same for every instance: one label covers them all. A
wrong value the agent made up stays literal, so it never borrows the right answer's label.
"""

from __future__ import annotations

import re

from evals.core.jsonio import sha256_text
from evals.scenario.params import Instance
from evals.world.outcome import Outcome

MAX_CHARS = 40_000


TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])"
)
SHA = re.compile(r"\b[0-9a-f]{40}\b")
UUID = re.compile(r"\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b", re.IGNORECASE)


def normalise(text: str, outcome: Outcome) -> str:
    for repo in outcome.repos:
        text = text.replace(repo.full_name, "{repo}")
        text = re.sub(rf"\b{re.escape(repo.full_name.split('/')[-1])}\b", "{repo-name}", text)
    for page in outcome.pages:
        name = f"{{page:{page.key or page.title}}}"
        text = text.replace(page.url, name).replace(page.id, name).replace(page.id.replace("-", ""), name)
    text = TIMESTAMP.sub("{time}", text)
    text = SHA.sub("{sha}", text)
    return UUID.sub("{id}", text)


def clip(text: str, limit: int = MAX_CHARS) -> str:
    """At most `limit` characters, saying how much was cut so the judge can answer "unknown"."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters not shown]"


def prepare(raw: str, outcome: Outcome) -> str:
    """What the judge sees and what its hash (the label and cache key) is taken of."""
    return clip(normalise(raw, outcome))


def evidence_hash(text: str, instance: Instance | None = None) -> str:
    """The label and cache key of judged evidence: the instance's values neutralised (see above)."""
    return sha256_text(instance.neutral(text) if instance is not None else text)
