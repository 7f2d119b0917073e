"""A reference must score full marks in every world a run can give it, not just instance 0, trial 0.

check-scenario grades one instance at trial 0, yet the trial index changes the world (the
repository is `web-6` at trial 6, every page and message id differs) and a run may draw any
instance. Two mistakes pass that one check and fail elsewhere: a reference that writes one
instance's value literally (right at instance 0 only), and a rubric pattern that also matches text
the harness writes by itself (a stale `\\b6\\b` matches the repository `identity-6`, so an unchanged
agent loses a point at trial 6). check.py's `sweep` grades the reference and every declared valid replay
(`expect_lost: []`) at each (instance, trial) asked for; `lint` finds both mistakes without
grading, cheaply enough for every check-scenario.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from evals.scenario.folder import REFERENCE, ScenarioFolder

if TYPE_CHECKING:
    from evals.grade.rubric import Rubric
    from evals.scenario.model import Scenario

TRIALS = range(16)  # the trial indices swept: every trial a 16-trial nightly plays
DRAWN = 5  # `--sweep`'s drawn instances (seeds 1..5), besides instance 0

# Check parameters that are regexes searched in what the agent wrote, and how each is written:
# `regex` as is, `time` and `date` through mail_forms' spellings. A task's own checks are not listed.
PATTERN_PARAMS: dict[str, dict[str, str]] = {
    "mail.asserts_value": {"value": "regex", "stale": "regex"},
    "mail.asserts_time": {"time": "time", "stale": "time"},
    "mail.asserts_date": {"date": "date", "stale": "date"},
    "mail.mentions_all": {"patterns": "regex"},
    "mail.no_question_about": {"about": "regex"},
    "mail.asked_without_doing": {"about": "regex"},
    "notion.keyed_block_matches": {"pattern": "regex"},
}
# The answer itself: a seeded date or time that *is* the value may match its pattern.
VALUE_PARAMS = {"value", "time", "date"}


def parse_trials(text: str) -> list[int]:
    """`0-15` or `0,6,12` (or a mix) as trial indices; ValueError on anything else."""
    out: list[int] = []
    for item in text.split(","):
        low, _, high = item.strip().partition("-")
        first, last = int(low), int(high or low)
        if first < 0 or last < first:
            raise ValueError(f"not a trial range: {item!r}")
        out.extend(range(first, last + 1))
    return sorted(set(out))


def lint(folder: Path, scenario: Scenario, rubric: Rubric) -> list[str]:
    """Both mistakes a sweep would find, without grading: instance values written literally in a
    replay that must score full marks, and rubric patterns that match harness text."""
    return hard_coded_values(folder) + patterns_matching_harness(folder, scenario, rubric)


def hard_coded_values(folder: Path) -> list[str]:
    """Instance 0's value of a drawn parameter written literally in the reference or a valid replay:
    right at instance 0, wrong in every instance that draws another value, and no check need notice
    (a date in a mail nothing grades still misinforms its reader). Values shorter than three
    characters are skipped, as `Instance.neutral` skips them: they occur for other reasons; so is a
    value the task's own data also states literally (log-retention's fixed "365 days" for support
    attachments is a fact of every instance, not its drawn 365)."""
    from evals.agents.replay import load_fixture
    from evals.scenario.params import MIN_NEUTRAL, PLACEHOLDER, declared, draw, template_files

    specs = declared(folder)
    if not specs:
        return []
    zero = draw(specs, folder.name, None).values
    replays = ScenarioFolder(folder).replay(REFERENCE).parent
    data = " ".join(
        PLACEHOLDER.sub(" \0 ", p.read_text(encoding="utf-8"))
        for p in template_files(folder)
        if replays not in p.parents and p != ScenarioFolder(folder).meta
    )
    varying = {
        n: v
        for n, v in zero.items()
        if len(v) >= MIN_NEUTRAL and _varies(specs, n, v) and not _literal(v, data)
    }
    problems = []
    for replay in ScenarioFolder(folder).replays():
        if replay != REFERENCE and load_fixture(folder, replay).expect_lost != []:
            continue
        path = ScenarioFolder(folder).replay(replay)
        text = PLACEHOLDER.sub(" \0 ", path.read_text(encoding="utf-8"))
        for name, value in sorted(varying.items()):
            if _literal(value, text):
                problems.append(
                    f"{path}: {value!r} is instance 0's {{{{param:{name}}}}} written literally: other "
                    "instances draw another value (write the placeholder)"
                )
    return problems


def _literal(value: str, text: str) -> bool:
    """Whether `value` occurs in `text` as whole words, whatever whitespace (a wrapped line) splits it."""
    return bool(re.search(rf"(?<!\w){re.escape(' '.join(value.split()))}(?!\w)", " ".join(text.split())))


def _varies(specs: Mapping[str, object], name: str, value: str) -> bool:
    """Whether another declared choice gives placeholder `name` a value other than `value`."""
    from evals.scenario.params import IntRange, draw

    base = name.split(".")[0]
    spec = specs[base]
    if isinstance(spec, IntRange):
        return spec.range[0] != spec.range[1]
    assert isinstance(spec, list)
    return any(draw({base: [choice]}, "", None).values.get(name) != value for choice in spec)


def harness_text(scenario: Scenario, trial: int) -> Iterator[tuple[str, str, str]]:
    """(what, text, date it stands for or '') for what the harness writes into trial `trial`'s world
    by itself and an agent quotes: the repository's name, full name and URL, the Notion page,
    database and block ids (a page's link carries its id), the seeded mail's message and thread
    ids, the seed's dates, as ISO stamps and as a mail's Date header spells them ("Mon, 15 Sep 2025
    08:00:00 +0000", what the Gmail tools show)."""
    import asyncio
    from datetime import UTC, datetime, timedelta
    from email.utils import format_datetime

    from evals.world.backend import make_backend

    env = asyncio.run(make_backend("sandbox").create(scenario, trial, "check-scenario-lint"))
    world = env.state() or {}
    owner, repo = scenario.repo.owner, scenario.repo_name(trial)
    yield "the repository's name", repo, ""
    yield "the repository's full name", f"{owner}/{repo}", ""
    yield "the repository's URL", f"https://github.com/{owner}/{repo}", ""
    notion = world.get("notion") or {}
    for one in [p["id"] for p in notion.get("pages", [])] + [d["id"] for d in notion.get("databases", [])]:
        yield "a Notion page id", one, ""
        yield "a Notion page id", one.replace("-", ""), ""
    for block in _blocks([b for p in notion.get("pages", []) for b in p.get("blocks", [])]):
        yield "a Notion block id", block, ""
        yield "a Notion block id", block.replace("-", ""), ""
    for message in (world.get("mailbox") or {}).get("messages", []):
        yield "a mail's id", str(message.get("id", "")), ""
        yield "a mail's thread id", str(message.get("thread_id", "")), ""
    start = datetime.strptime(scenario.start_time, "%Y-%m-%dT%H:%M:%SZ")
    stamps = {start.strftime("%Y-%m-%dT%H:%M:%SZ")}
    stamps |= {(start + timedelta(minutes=e.minutes)).strftime("%Y-%m-%dT%H:%M:%SZ") for e in scenario.emails}
    for stamp in sorted(stamps):
        yield "a seeded date", stamp, stamp
        header = format_datetime(datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC))
        yield "a mail's Date header", header, stamp


def _blocks(blocks: list[dict[str, object]]) -> Iterator[str]:
    """Every block id of a page's block tree (rows of tables and databases included)."""
    for block in blocks:
        yield str(block.get("id", ""))
        children = block.get("children")
        yield from _blocks(children if isinstance(children, list) else [])


def rubric_patterns(rubric: Rubric) -> Iterator[tuple[str, str, str, str, str]]:
    """(part, check, parameter, regex, the value it was written as) for every pattern in PATTERN_PARAMS."""
    from evals.grade.checks.mail_forms import date_pattern, time_pattern

    forms = {"regex": lambda s: s, "time": time_pattern, "date": date_pattern}
    for _, part in rubric.parts():
        for ref in part.checks:
            for param, kind in PATTERN_PARAMS.get(ref.check, {}).items():
                given = ref.params.get(param)
                for value in given if isinstance(given, list) else [] if given is None else [given]:
                    yield part.id, ref.check, param, forms[kind](str(value)), str(value)


def patterns_matching_harness(folder: Path, scenario: Scenario, rubric: Rubric) -> list[str]:
    """Every rubric pattern that matches harness text at some trial 0-15: the agent quotes such text
    (a PR's URL names the repository) without meaning the value, so the check reads it as one."""
    path = ScenarioFolder(folder).rubric
    texts = {(what, text, date) for trial in TRIALS for what, text, date in harness_text(scenario, trial)}
    problems = []
    for part, check, param, regex, value in rubric_patterns(rubric):
        found = sorted(
            (what, text)
            for what, text, date in texts
            if not (param in VALUE_PARAMS and date and value in date.replace("T", " "))
            and re.search(regex, text, re.IGNORECASE)
        )
        if found:
            what, text = found[0]
            problems.append(
                f"{path}: {part}: {check} {param} {value!r} matches {what} {text!r} "
                "(text the harness writes, not the agent's value: anchor it, e.g. (?<![\\w/:.-]))"
            )
    return problems
