"""Evidence for the judge: only one part's artefacts, normalised so equal content hashes equally.

Repo names and Notion ids differ per trial and per backend; replacing them with placeholders means a
human label given once holds for every trial that produced the same text. Evidence is capped so one
runaway artefact cannot make a judge call expensive; the hash is of exactly what the judge sees.
"""

from __future__ import annotations

from evals.jsonio import sha256_text
from evals.outcome import Outcome

MAX_CHARS = 40_000


def normalise(text: str, outcome: Outcome) -> str:
    for repo in outcome.repos:
        text = text.replace(repo.full_name, "{repo}")
    for page in outcome.pages:
        name = f"{{page:{page.key or page.title}}}"
        text = text.replace(page.url, name).replace(page.id, name).replace(page.id.replace("-", ""), name)
    return text


def clip(text: str, limit: int = MAX_CHARS) -> str:
    """At most `limit` characters, saying how much was cut so the judge can answer "unknown"."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters not shown]"


def prepare(raw: str, outcome: Outcome) -> str:
    """What the judge sees and what its hash (the label and cache key) is taken of."""
    return clip(normalise(raw, outcome))


def evidence_hash(text: str) -> str:
    return sha256_text(text)
