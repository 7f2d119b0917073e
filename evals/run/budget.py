"""The money limit of one run: what it spent so far (agent and judge), and what it will likely cost.

Trials were bounded by count and tokens, not dollars, so a PR run could not say before it started
what it would cost. The spend comes from each finished trial's metrics. The limit bounds the whole
run, starting trials included: no new trial starts once the spend reaches it (trials already running
finish), so a run ends at most one concurrent batch past it.

The estimate says where each figure comes from. Per scenario, in order of trust:

1. the baseline's recorded usage, when its trials called a model: their tokens per trial, priced
   for the agent's model from pricing.yaml (a PR that changes the model is priced for the new one);
2. else, for the Claude agent, a model of a trial (the committed baseline is replays, which record
   no usage, and an estimate of $0.00 before a run that then spends money is worse than none): the
   scenario's turns as the baseline's trials took them (a replay's turns are the calls of a known
   solution; without a baseline, the agent's `max_turns`), its prompts and the tool definitions
   re-read every turn through the prompt cache the agent sets, its seeded world (mail, pages, repo
   files) read once over the trial, and `OUTPUT_TOKENS_PER_TURN` written a turn;
3. replays call no model (their agent cost is 0); a module agent's model is its own (unknown
   unless the baseline recorded it).

The judge, when a model judges (ANTHROPIC_API_KEY set), is the baseline's recorded judge cost, else
at most one call per judged part with its prompt and evidence at the evidence cap.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from evals.core.pricing import Pricing
from evals.core.usage import Usage
from evals.gate.baseline_file import Baseline, BaselineScenario
from evals.grade.evidence import MAX_CHARS as EVIDENCE_CAP
from evals.records.model import TrialRecord
from evals.scenario.model import Scenario

# About four characters of English or JSON per token (Anthropic's rule of thumb); an estimate, said so.
CHARS_PER_TOKEN = 4
# A turn's output: a tool call's arguments and a sentence or two around it. An assumption, stated in
# the estimate's basis; the baseline's recorded usage replaces it once a real run is blessed.
OUTPUT_TOKENS_PER_TURN = 400


@dataclass
class Spend:
    """Running total of a run's cost against its limit (None: unlimited)."""

    limit: float | None
    spent: float = 0.0
    skipped: list[str] = field(default_factory=list)  # "scenario#trial" kept from starting

    @property
    def reached(self) -> bool:
        return self.limit is not None and self.spent >= self.limit

    def add(self, record: TrialRecord) -> None:
        self.spent += record.metrics.total_cost_usd


@dataclass(frozen=True)
class AgentPricing:
    """What prices the agent's trials: `kind` replay (no model), claude (its model and limits) or
    module (a team's own agent: its model is its own)."""

    kind: str
    model: str | None = None
    max_turns: int = 60
    fixed_chars: int = 0  # what every turn re-sends besides the scenario's prompts: addendum, tools
    tools: int = 0


@dataclass(frozen=True)
class JudgePricing:
    """The model judge (None when the human labels judge, which costs nothing)."""

    model: str | None
    max_tokens: int = 1024


@dataclass(frozen=True)
class Shape:
    """What a scenario gives a model to read: its prompts, its seeded world, its judged parts."""

    name: str
    prompt_chars: int
    world_chars: int
    judged_parts: int
    judge_prompt_chars: int


def shape(scenario: Scenario, judged_parts: int, judge_prompt_chars: int) -> Shape:
    world = [e.model_dump(mode="json") for e in scenario.emails]
    world += [p.model_dump(mode="json") for p in scenario.pages]
    return Shape(
        name=scenario.name,
        prompt_chars=len(scenario.prompts.system) + len(scenario.prompts.task),
        world_chars=len(json.dumps(world)) + sum(len(text) for text in scenario.files.values()),
        judged_parts=judged_parts,
        judge_prompt_chars=judge_prompt_chars,
    )


def _tokens(chars: float) -> float:
    return chars / CHARS_PER_TOKEN


def modelled_usage(turns: float, prompt_tokens: float, world_tokens: float) -> Usage:
    """One trial's usage by the model in the module docstring: turn t re-reads the prompts and
    everything before it from the cache and writes what is new to it (its share of the world and
    the previous turn's output)."""
    t = max(1, round(turns))
    step = world_tokens / t + OUTPUT_TOKENS_PER_TURN
    return Usage(
        output_tokens=round(t * OUTPUT_TOKENS_PER_TURN),
        cache_creation_input_tokens=round(prompt_tokens + (t - 1) * step),
        cache_read_input_tokens=round((t - 1) * prompt_tokens + step * (t - 1) * (t - 2) / 2),
    )


def _recorded(entry: BaselineScenario | None) -> bool:
    usage = entry.usage if entry is not None else None
    return (
        usage is not None
        and entry is not None
        and entry.k > 0
        and usage.tokens + usage.cache_read_input_tokens > 0
    )


def _per_trial_usage(entry: BaselineScenario) -> Usage:
    assert entry.usage is not None
    u = entry.usage
    return Usage(
        input_tokens=round(u.input_tokens / entry.k),
        output_tokens=round(u.output_tokens / entry.k),
        cache_read_input_tokens=round(u.cache_read_input_tokens / entry.k),
        cache_creation_input_tokens=round(u.cache_creation_input_tokens / entry.k),
    )


@dataclass(frozen=True)
class TrialEstimate:
    usd: float | None
    basis: str  # "baseline", "modelled", "replay" or "unknown"
    turns: float = 0
    world_tokens: float = 0


def agent_trial(
    s: Shape, entry: BaselineScenario | None, agent: AgentPricing, pricing: Pricing
) -> TrialEstimate:
    """One trial of the agent on scenario `s`, in USD, with where the figure comes from."""
    if agent.kind == "replay":
        return TrialEstimate(0.0, "replay")
    if entry is not None and _recorded(entry):
        assert entry.usage is not None
        if agent.model is None:  # a module agent: what it cost then
            return TrialEstimate(entry.usage.cost_usd / entry.k, "baseline")
        return TrialEstimate(pricing.cost(agent.model, _per_trial_usage(entry)), "baseline")
    if agent.kind != "claude" or agent.model is None:
        return TrialEstimate(None, "unknown")
    usage = entry.usage if entry is not None else None
    turns = usage.turns_mean if usage is not None and usage.turns_mean else agent.max_turns
    world = _tokens(s.world_chars)
    modelled = modelled_usage(turns, _tokens(s.prompt_chars + agent.fixed_chars), world)
    return TrialEstimate(pricing.cost(agent.model, modelled), "modelled", turns, world)


def judge_trial(
    s: Shape, entry: BaselineScenario | None, judge: JudgePricing, pricing: Pricing
) -> float | None:
    """The judge's cost for one trial: recorded, or at most one call per judged part (0: labels)."""
    if judge.model is None or s.judged_parts == 0:
        return 0.0
    if entry is not None and entry.usage is not None and entry.k and entry.usage.judge_input_tokens > 0:
        return entry.usage.judge_cost_usd / entry.k
    call = Usage(
        input_tokens=round(_tokens(s.judge_prompt_chars / s.judged_parts + EVIDENCE_CAP)),
        output_tokens=judge.max_tokens,
    )
    one = pricing.cost(judge.model, call)
    return None if one is None else one * s.judged_parts


def _money(value: float) -> str:
    return f"${value:,.2f}"


def estimate_lines(
    baseline: Baseline | None,
    shapes: Iterable[Shape],
    agent: AgentPricing,
    judge: JudgePricing,
    pricing: Pricing,
    trials: int,
    max_trials: int,
    limit: float | None,
) -> list[str]:
    """What the run will likely cost at its starting k and at the trial budget, and how that was
    worked out (printed before the first trial)."""
    rows = []
    for s in shapes:
        entry = baseline.scenarios.get(s.name) if baseline else None
        a, j = agent_trial(s, entry, agent, pricing), judge_trial(s, entry, judge, pricing)
        rows.append((s, a, None if a.usd is None or j is None else a.usd + j))
    cap = f"; budget {_money(limit)}" if limit is not None else ""
    unknown = [s.name for s, _, usd in rows if usd is None]
    known = [usd for _, _, usd in rows if usd is not None]
    top = max(trials, max_trials)
    unit = sum(known)
    lines = [
        f"Estimated cost: ~{_money(unit * trials)} for {trials} trial(s) per scenario, up to "
        f"~{_money(unit * top)} if the gate adds trials up to {top}{cap}"
        + (f"; unknown for {', '.join(unknown)}" if unknown else "")
    ]
    lines += _basis(rows, agent, judge, baseline)
    return lines


def _basis(
    rows: list[tuple[Shape, TrialEstimate, float | None]],
    agent: AgentPricing,
    judge: JudgePricing,
    baseline: Baseline | None,
) -> list[str]:
    by = {
        basis: [s.name for s, a, _ in rows if a.basis == basis]
        for basis in ("baseline", "modelled", "unknown")
    }
    out = []
    if agent.kind == "replay":
        out.append("replays call no model")
    if by["baseline"]:
        model = f", priced for {agent.model} from pricing.yaml" if agent.model else ""
        out.append(f"the baseline's recorded usage per trial{model} ({', '.join(by['baseline'])})")
    if by["modelled"]:
        why = "the baseline recorded no model usage (replays)" if baseline else "there is no baseline"
        out.append(
            f"{why}, so a trial of {agent.model} is modelled at pricing.yaml's prices: the baseline's "
            f"turns (else max_turns {agent.max_turns}), the prompts and {agent.tools} tool definitions "
            f"re-read each turn through the prompt cache, the seeded world read once (an agent that "
            f"reads it again costs more), "
            f"~{OUTPUT_TOKENS_PER_TURN} output tokens a turn, ~{CHARS_PER_TOKEN} characters a token"
        )
    if by["unknown"]:
        out.append(f"a module agent's model is its own ({', '.join(by['unknown'])})")
    if judge.model is not None:
        out.append(
            f"judge {judge.model}: recorded, else at most one call per judged part at the evidence cap"
        )
    lines = [f"  basis: {'; '.join(out)}"] if out else []
    per = [
        f"{s.name} {_money(usd)}"
        + (
            f" ({a.turns:.0f} turns, world ~{a.world_tokens / 1000:.1f}k tokens)"
            if a.basis == "modelled"
            else ""
        )
        for s, a, usd in rows
        if usd is not None and usd > 0
    ]
    if per:
        lines.append(f"  per trial: {', '.join(per)}")
    return lines
