"""Evidence for the judge: only one part's artefacts, normalised so equal content hashes equally.

Repo names and Notion ids differ per trial and per backend; replacing them with placeholders means a
human label given once holds for every trial that produced the same text.
"""

from __future__ import annotations

from evals.jsonio import sha256_text
from evals.world.outcome import Outcome


def normalise(text: str, outcome: Outcome) -> str:
    for repo in outcome.repos:
        text = text.replace(repo.full_name, "{repo}")
    for page in outcome.pages:
        name = f"{{page:{page.key or page.title}}}"
        text = text.replace(page.url, name).replace(page.id, name).replace(page.id.replace("-", ""), name)
    return text


def evidence_hash(text: str) -> str:
    return sha256_text(text)
