"""`--agent claude`: the anthropic Messages API tool-use loop, configured by `agent/agent.yaml`.

One trial is one conversation: the scenario's system prompt (plus the agent's addendum) and task go
in; every turn, each tool_use block Claude issued is executed in order and all results go back in a
single user turn, until Claude ends its turn or a limit stops it. The tools and system prompt never
change within a trial, so they are marked for prompt caching, and so is the growing conversation.
A tool result longer than `max_tool_result_chars` reaches the model cut, with a note saying how much
was left out and how to ask for less; the transcript's tool calls keep it whole.

Limits are typed exceptions raised where they are detected and caught in one place, so the loop
carries no counters-and-flags logic. Retries on 429, 529, 5xx and lost connections are the SDK's own
(`max_retries`, exponential backoff honouring `retry-after`); once they are exhausted the trial is an
infrastructure error, never a low score. ANTHROPIC_BASE_URL is honoured (by the SDK), so any
Messages-compatible server can stand in.

Every stop reason ends the turn its own way: `tool_use` runs the tools and asks again; `pause_turn`
(a server tool's loop paused) sends the conversation back as it is to continue; `max_tokens` is a
reply cut off; `end_turn`, `stop_sequence`, `refusal` (its `stop_details` kept on the model call) and
`model_context_window_exceeded` each end the trial under their own name. A 400 is the agent's only
when its conversation outgrew the model; one caused by agent.yaml or by the request the harness
built is bad input naming what was refused (exit 2), never a score (`rejection`); so is a 404 for
the model (a misspelt id in agent.yaml), which retrying cannot fix. Thinking blocks
(and, with `thinking.display: summarized`, the notes Sonnet 5.5 writes between tool calls, which
come back as thinking blocks) stay in the transcript's messages as the content blocks they came as.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

import anthropic

from evals.agents.base import Agent, AgentPrompts, AgentResult, Termination
from evals.agents.config import AgentConfig, load_agent_config
from evals.core.claude_models import refusals
from evals.core.config import AgentLimits
from evals.core.errors import BadInputError, InfrastructureError
from evals.core.usage import Usage
from evals.world.toolset import Envelope, Toolset

CACHE = {"type": "ephemeral"}
# Sampling parameters are only accepted by this older API version (2026-10-21 rejects them, and the
# anthropic SDK 2.x no longer has them as arguments), so a configured temperature pins it.
SAMPLING_API_VERSION = "2023-06-01"
# A rejected request is the agent's failure (graded on what it did) only when its conversation grew
# past what the model takes: 413, or a 400 saying so. Any other 400 was caused by agent.yaml or by the
# request the harness built: bad input. Everything else that survives the SDK's retries (rate
# limits, overload, 5xx, auth, unknown model, no connection) is infrastructure.
REQUEST_STATUSES = {400, 413, 422}
TOO_LONG = re.compile(
    r"too long|too large|context (?:window|limit)|exceeds? .*(?:context|maximum|limit)|too many tokens", re.I
)
SPEND_LIMIT = re.compile(r"spend(?:ing)? limit|credit balance|billing", re.I)
# Words in a 400's message -> the agent.yaml field it refuses (sampling, thinking, effort, size).
CONFIG_FIELDS = (
    (re.compile(r"\b(?:temperature|top_p|top_k)\b"), "temperature"),
    (re.compile(r"\bthinking\b"), "thinking"),
    (re.compile(r"\b(?:effort|output_config)\b"), "effort"),
    (re.compile(r"\bmax_tokens\b"), "max_tokens"),
)
# Stop reasons that end the trial, each under its own name (max_tokens, tool_use and pause_turn are
# handled in the loop).
ENDINGS: dict[str, Termination] = {
    "end_turn": "end_turn",
    "stop_sequence": "stop_sequence",
    "refusal": "refusal",
    "model_context_window_exceeded": "model_context_window_exceeded",
}
UNMARKABLE = {"thinking", "redacted_thinking"}  # blocks that cannot carry cache_control


class LimitExceeded(Exception):
    """A trial limit was reached; `kind` is the termination reason recorded on the transcript."""

    def __init__(self, kind: Literal["max_turns", "max_tokens"], value: int, limit: int) -> None:
        super().__init__(f"{kind}: {value} reached the limit of {limit}")
        self.kind: Termination = kind


class ModelUnavailable(InfrastructureError):
    """The Messages API could not be reached or kept failing after retries. Carries the partial run."""

    def __init__(self, message: str, partial: AgentResult) -> None:
        super().__init__(message)
        self.partial = partial


class ModelRejected(Exception):
    """The API refused the conversation as too long for the model: the agent failed, graded as is."""

    def __init__(self, message: str, partial: AgentResult) -> None:
        super().__init__(message)
        self.partial = partial


def _api_message(exc: anthropic.APIStatusError) -> str:
    """The error body's own message ({"type": "error", "error": {"type", "message"}})."""
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else body
    message = error.get("message") if isinstance(error, dict) else None
    return str(message or exc.message)


def rejection(exc: anthropic.APIStatusError, partial: AgentResult, agent_file: str) -> Exception:
    """What a refused request (400, 413, 422) is: the agent's failure only when its conversation
    outgrew the model; a spend limit is the account's (infrastructure); a refused setting names the
    agent.yaml field; anything else is the harness's request (bad input, never a score)."""
    detail = _api_message(exc)
    said = f"the Messages API answered {exc.status_code}: {detail}"
    if exc.status_code == 413 or TOO_LONG.search(detail):
        return ModelRejected(said, partial)
    if SPEND_LIMIT.search(detail):
        return ModelUnavailable(said, partial)
    field = next((name for pattern, name in CONFIG_FIELDS if pattern.search(detail)), None)
    if field is not None:
        return BadInputError(
            f"{agent_file}: {field}: {said} (a setting the model refuses, not the agent's doing)"
        )
    return BadInputError(
        f"{said}: the request the harness built was refused (not the agent's doing, so no trial is scored)"
    )


@dataclass
class Conversation:
    """What one trial has said and spent so far."""

    config: AgentConfig
    system: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    calls: list[dict[str, Any]] = field(default_factory=list)
    final_text: str = ""

    @property
    def tokens(self) -> int:
        u = self.usage
        return u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens

    def check_limits(self) -> None:
        if len(self.calls) >= self.config.max_turns:
            raise LimitExceeded("max_turns", len(self.calls), self.config.max_turns)
        cap = self.config.max_total_tokens
        if cap is not None and self.tokens >= cap:
            raise LimitExceeded("max_tokens", self.tokens, cap)

    def request_messages(self) -> list[dict[str, Any]]:
        """The conversation with a cache breakpoint on its last block that can carry one (not a
        thinking block; earlier ones stay unmarked). After `pause_turn` the last message is the
        assistant's own, sent back as it came so the model continues it."""
        out = [dict(m) for m in self.messages]
        for message in reversed(out):
            blocks = [dict(b) for b in message["content"]]
            markable = [i for i, b in enumerate(blocks) if b.get("type") not in UNMARKABLE]
            if markable:
                blocks[markable[-1]]["cache_control"] = CACHE
                message["content"] = blocks
                break
        return out

    def result(self, termination: Termination) -> AgentResult:
        return AgentResult(
            model=self.config.model,
            messages=[{"role": "system", "content": self.system}, *self.messages],
            usage=self.usage,
            turns=len(self.calls),
            termination=termination,
            final_text=self.final_text,
            model_calls=self.calls,
        )


def _usage(reply: Any) -> Usage:
    u = reply.usage
    return Usage(
        input_tokens=u.input_tokens or 0,
        output_tokens=u.output_tokens or 0,
        cache_read_input_tokens=u.cache_read_input_tokens or 0,
        cache_creation_input_tokens=u.cache_creation_input_tokens or 0,
    )


ASK_FOR_LESS = (
    "Ask for less: fewer results per call (max_results, per_page, page_size) and the next page after, "
    "or lighter results (GMAIL_FETCH_EMAILS with include_payload=false, verbose=false or ids_only=true, "
    "then single messages by id; a file or a block list at a time)."
)


def cut(content: str, limit: int | None) -> str:
    """The result as the model gets it: whole, or its first `limit` characters and a note saying how
    much was left out and how to ask for less."""
    if limit is None or len(content) <= limit:
        return content
    left_out = len(content) - limit
    return (
        f"{content[:limit]}\n\n[Result cut: {left_out:,} of {len(content):,} characters left out "
        f"(max_tool_result_chars = {limit:,}). {ASK_FOR_LESS}]"
    )


def tool_result(block_id: str, envelope: Envelope, limit: int | None = None) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": block_id,
        "content": cut(json.dumps(envelope, ensure_ascii=False, default=str), limit),
        "is_error": not envelope.get("successful", False),
    }


class ClaudeAgent:
    """One trial's agent. A fresh instance (and client) per trial: nothing is shared between trials."""

    def __init__(self, config: AgentConfig, addendum: str, agent_file: str = "agent/agent.yaml") -> None:
        self.config = config
        self.addendum = addendum
        self.agent_file = agent_file

    def sampling(self) -> dict[str, Any]:
        if self.config.temperature is None:
            return {}
        return {
            "extra_body": {"temperature": self.config.temperature},
            "extra_headers": {"anthropic-version": SAMPLING_API_VERSION},
        }

    def request_options(self) -> dict[str, Any]:
        """The configured options beyond model and limits: sampling, effort, thinking (each only when
        set, so the model's own defaults apply otherwise)."""
        out = self.sampling()
        if self.config.effort:
            out["output_config"] = {"effort": self.config.effort}
        thinking = self.config.thinking
        if thinking is not None:
            out["thinking"] = thinking.model_dump(exclude_none=True)
        return out

    def tools(self, toolset: Toolset) -> list[dict[str, Any]]:
        allow = set(self.config.tools)
        tools = [dict(s) for s in toolset.schemas() if not allow or s["name"] in allow]
        if tools:
            tools[-1]["cache_control"] = CACHE
        return tools

    async def __call__(self, prompts: AgentPrompts, toolset: Toolset) -> AgentResult:
        system = prompts.system.rstrip() + (f"\n\n{self.addendum}" if self.addendum else "")
        convo = Conversation(self.config, system)
        convo.messages.append({"role": "user", "content": [{"type": "text", "text": prompts.task}]})
        tools = self.tools(toolset)
        try:
            async with anthropic.AsyncAnthropic(
                max_retries=self.config.max_retries, timeout=self.config.timeout_s
            ) as client:
                termination = await self._loop(client, convo, tools, toolset)
        except LimitExceeded as limit:
            termination = limit.kind
        except anthropic.APIStatusError as exc:
            if exc.status_code in REQUEST_STATUSES:
                raise rejection(exc, convo.result("error"), self.agent_file) from exc
            if exc.status_code == 404 and "model" in _api_message(exc).lower():
                raise BadInputError(
                    f"{self.agent_file}: model {self.config.model!r}: the Messages API does not know it "
                    f"(404: {_api_message(exc)}); a misspelt model id is the configuration's, not an outage"
                ) from exc
            message = f"Messages API answered {exc.status_code}: {exc.message}"
            raise ModelUnavailable(message, convo.result("error")) from exc
        except anthropic.APIConnectionError as exc:
            raise ModelUnavailable(
                f"Messages API unreachable after retries: {exc}", convo.result("error")
            ) from exc
        except InfrastructureError as exc:  # a tool's service failed (e.g. Composio after its retries)
            exc.partial = convo.result("error")  # type: ignore[attr-defined]
            raise
        return convo.result(termination)

    async def _ask(
        self, client: anthropic.AsyncAnthropic, convo: Conversation, tools: list[dict[str, Any]]
    ) -> tuple[Any, list[dict[str, Any]]]:
        """One model call, recorded (usage, latency, stop reason and details, request id), its reply
        appended to the conversation as the content blocks it came as (thinking included)."""
        started = time.perf_counter()
        reply = await client.messages.create(
            **self.request_options(),
            model=self.config.model,
            max_tokens=self.config.max_tokens,
            system=[{"type": "text", "text": convo.system, "cache_control": {"type": "ephemeral"}}],
            tools=cast(Any, tools),
            messages=cast(Any, convo.request_messages()),
        )
        usage = _usage(reply)
        convo.usage = convo.usage.add(usage)
        call: dict[str, Any] = {
            "turn": len(convo.calls) + 1,
            "model": reply.model,
            "stop_reason": reply.stop_reason,
            "latency_s": round(time.perf_counter() - started, 4),
            "usage": usage.model_dump(),
            "request_id": getattr(reply, "_request_id", None),
        }
        details = getattr(reply, "stop_details", None)
        if details is not None:
            call["stop_details"] = details.model_dump(mode="json")
        convo.calls.append(call)
        content = [block.model_dump(mode="json", exclude_none=True) for block in reply.content]
        convo.messages.append({"role": "assistant", "content": content})
        text = "".join(b.get("text", "") for b in content if b.get("type") == "text").strip()
        if text and reply.stop_reason != "refusal":  # a refusal's partial output is not an answer
            convo.final_text = text
        return reply, content

    async def _loop(
        self,
        client: anthropic.AsyncAnthropic,
        convo: Conversation,
        tools: list[dict[str, Any]],
        toolset: Toolset,
    ) -> Termination:
        allowed = {t["name"] for t in tools}
        while True:
            convo.check_limits()
            reply, content = await self._ask(client, convo, tools)
            stop = reply.stop_reason
            if stop == "max_tokens":
                raise LimitExceeded("max_tokens", reply.usage.output_tokens or 0, self.config.max_tokens)
            if stop == "pause_turn":  # continue: the assistant turn goes back as it is, no user turn
                continue
            uses = [b for b in content if b.get("type") == "tool_use"]
            if stop != "tool_use" or not uses:
                return ENDINGS.get(str(stop), "end_turn")
            results = []
            for block in uses:  # in order: later calls in a turn may depend on earlier ones' effects
                if block["name"] in allowed:
                    envelope = await toolset.call(block["name"], block.get("input") or {})
                else:
                    envelope = {"data": {}, "successful": False, "error": f"Unknown tool {block['name']!r}"}
                # Cut for the model only: the recording toolset keeps the whole result for the transcript.
                results.append(tool_result(block["id"], envelope, self.config.max_tool_result_chars))
            convo.messages.append({"role": "user", "content": results})


def _check_allowlist(config: AgentConfig, agent_file: Path) -> None:
    from evals.world.backend import tool_catalogue

    unknown = sorted(set(config.tools) - set(tool_catalogue()))
    if unknown:
        raise BadInputError(f"{agent_file}: tools: unknown tool slugs: {', '.join(unknown)}")


def check_model_settings(config: AgentConfig, agent_file: Path) -> None:
    """Refuse what the configured model is documented to answer with a 400 (evals.core.claude_models), so a
    config mistake exits 2 before the first trial instead of failing every trial."""
    thinking = config.thinking
    found = refusals(
        config.model,
        temperature=config.temperature,
        effort=config.effort,
        thinking=thinking.type if thinking else None,
        display=thinking.display if thinking else None,
    )
    if thinking is not None and (thinking.type == "enabled") != (thinking.budget_tokens is not None):
        found.append(("thinking.budget_tokens", "given exactly when thinking.type is enabled"))
    if found:
        raise BadInputError("; ".join(f"{agent_file}: {field}: {why}" for field, why in found))


def claude_agent_factory(
    agent_dir: Path, floors: AgentLimits | None = None
) -> tuple[str, Callable[[int], Agent], str]:
    """Validate the agent's config and credentials up front (bad input exits 2 before any trial);
    `floors` are the eval definition's `agent_limits` when the caller has loaded it (None: read from
    the evals.yaml beside agent/). Returns the label, the factory and the system-prompt addendum."""
    config, addendum = load_agent_config(agent_dir, floors)
    _check_allowlist(config, agent_dir / "agent.yaml")
    check_model_settings(config, agent_dir / "agent.yaml")
    if not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN")):
        raise BadInputError(
            "--agent claude needs ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the environment"
        )

    def make(trial: int) -> Agent:
        return ClaudeAgent(config, addendum, str(agent_dir / "agent.yaml"))

    return f"claude ({config.model})", make, addendum
