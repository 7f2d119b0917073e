"""What a Claude model is documented to refuse in a request, so a config it would answer with a 400
is bad input when the config loads, not a run of failed trials.

One table for the agent (`agent/agent.yaml`, checked when the run is planned) and the judge
(`judge:` in evals.yaml, checked when the file loads): a judge moved to a model that rejects
`temperature` would otherwise leave every judged part unscored, and an agent configured with one
would score 0 on every trial. Only what a model's own documentation says is here, with the page it
says it on; a model not in the table is not checked (the API is the judge of it).
"""

from __future__ import annotations

from dataclasses import dataclass

SONNET_5_5_GUIDE = "https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide"
HAIKU_4_5_PAGES = (
    "https://platform.claude.com/docs/en/build-with-claude/effort (supported models), "
    "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"
)


@dataclass(frozen=True)
class ModelRules:
    """What one model accepts. `sampling`: temperature, top_p, top_k (a non-default value);
    `effort`: output_config.effort; `thinking`: the thinking.type values it takes; `display`:
    whether thinking.display may be sent; `source`: where the documentation says so."""

    sampling: bool
    effort: bool
    thinking: frozenset[str]
    display: bool
    source: str


RULES: dict[str, ModelRules] = {
    # "A clean request leaves out five settings that return a 400 error: thinking budgets, sampling
    # parameters, assistant prefill, forced tool choice, and thinking: {type: disabled}."
    "claude-sonnet-5-5": ModelRules(
        sampling=False,
        effort=True,
        thinking=frozenset({"adaptive", "between_tools"}),
        display=True,
        source=SONNET_5_5_GUIDE,
    ),
    # Accepts temperature (on anthropic-version 2023-06-01), thinking disabled or enabled with a
    # budget; not among the models that support effort.
    "claude-haiku-4-5": ModelRules(
        sampling=True,
        effort=False,
        thinking=frozenset({"enabled", "disabled"}),
        display=True,
        source=HAIKU_4_5_PAGES,
    ),
}
HIGH_EFFORTS = {"xhigh", "max"}  # `between_tools` is refused above `high` (Sonnet 5.5)


def rules_for(model: str) -> ModelRules | None:
    """The model's rules; a dated snapshot id (claude-haiku-4-5-20251001) falls back to its alias."""
    if model in RULES:
        return RULES[model]
    aliases = [name for name in RULES if model.startswith(name + "-")]
    return RULES[max(aliases, key=len)] if aliases else None


def refusals(
    model: str,
    *,
    temperature: float | None = None,
    effort: str | None = None,
    thinking: str | None = None,
    display: str | None = None,
) -> list[tuple[str, str]]:
    """(field, why) for every configured setting the model is documented to answer with a 400."""
    rules = rules_for(model)
    if rules is None:
        return []
    out: list[tuple[str, str]] = []
    why = f"{model} answers it with a 400 ({rules.source})"
    if temperature is not None and not rules.sampling:
        out.append(("temperature", f"{model} rejects sampling parameters: {why}; leave it null"))
    if effort is not None and not rules.effort:
        out.append(("effort", f"{model} does not support output_config.effort: {why}; leave it null"))
    if thinking is not None and thinking not in rules.thinking:
        accepted = " or ".join(sorted(rules.thinking))
        out.append(("thinking.type", f"{thinking!r} is refused, {model} takes {accepted}: {why}"))
    if thinking == "between_tools" and display is not None:
        out.append(("thinking.display", f"between_tools takes no display: {why}"))
    elif display is not None and not rules.display:
        out.append(("thinking.display", f"{model} takes no thinking.display: {why}"))
    if thinking == "between_tools" and effort in HIGH_EFFORTS:
        out.append(("effort", f"between_tools is refused at effort {effort}: {why}"))
    return out
