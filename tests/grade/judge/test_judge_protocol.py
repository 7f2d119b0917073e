"""One judge contract, chosen once when the run is planned, and a verdict typed on the part grade.

Who judges (the model behind its cache, or the human labels) is decided from the environment when the
scenarios are loaded; a key that appears or disappears afterwards changes nothing, so every trial of
a run is judged the same way.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from evals.core.config import JudgeConfig, load_config
from evals.definition import load_scenarios
from evals.grade.judge import (
    CachedJudge,
    Judge,
    Judgement,
    JudgePrompt,
    JudgeRequest,
    LabelJudge,
    ModelJudge,
    make_judge,
)
from evals.grade.labels import Label, load_labels
from evals.grade.result import PartGrade
from tests.support.judge import Overlap, judge_server, verdict
from tests.support.paths import ROOT

# trial-run's label for the regressed replay's T1b reply: 0 points.
REGRESSED_T1B = "12d6d34ebbde80dc971ef2de8bbf973ec93ba1ea0883a2e9a742bfa338cd3c9c"
CONFIG = JudgeConfig(model="claude-haiku-4-5")


def request(
    part: str = "T1b", evidence_sha: str = REGRESSED_T1B, evidence: str = "the reply"
) -> JudgeRequest:
    prompt = JudgePrompt("T1b.md", "1", "You are grading part {{part}}.\n{{evidence}}")
    text = prompt.render(part=part, description="", points=1, evidence=evidence)
    return JudgeRequest(part, 1, prompt, text, evidence_sha)


def test_the_model_judge_the_label_judge_and_the_cache_are_all_judges(tmp_path: Path) -> None:
    judges: list[Judge] = [
        ModelJudge("claude-haiku-4-5"),
        LabelJudge({}),
        CachedJudge(ModelJudge("claude-haiku-4-5"), tmp_path),
    ]
    assert all(isinstance(j, Judge) for j in judges)
    assert [j.model for j in judges] == ["claude-haiku-4-5", None, "claude-haiku-4-5"]
    assert not isinstance(object(), Judge)  # the runtime check looks at something


def test_the_factory_picks_the_labels_without_a_key_and_the_cached_model_with_one(tmp_path: Path) -> None:
    offline = make_judge(CONFIG, tmp_path, {}, api_key_present=False)
    online = make_judge(CONFIG, tmp_path, {}, api_key_present=True)
    assert isinstance(offline, LabelJudge) and offline.model is None
    assert isinstance(online, CachedJudge) and isinstance(online.inner, ModelJudge)
    assert online.model == "claude-haiku-4-5" and online.cache_dir == tmp_path / CONFIG.cache_dir


def test_a_key_set_after_the_run_was_planned_does_not_switch_the_labels_to_the_model(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, root = load_config(project)
    judge = load_scenarios(root, config, ["trial-run"])["trial-run"].judge  # planned with no key
    with judge_server(monkeypatch, lambda part: verdict(1)) as stub:  # now a key and a model are there
        [decided] = judge.decide_all([request()])
    assert stub.requests == []
    assert (decided.source, decided.score) == ("label", 0)


def test_a_run_planned_with_a_key_asks_the_model_even_where_a_label_exists(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with judge_server(monkeypatch, lambda part: verdict(1)) as stub:
        config, root = load_config(project)
        judge = load_scenarios(root, config, ["trial-run"])["trial-run"].judge
        [decided] = judge.decide_all([request()])
    assert len(stub.requests) == 1
    assert (decided.source, decided.score, decided.model) == ("model", 1, "claude-haiku-4-5")


def test_unlabelled_evidence_is_unavailable_not_zero() -> None:
    labels = load_labels(ROOT / "scenario" / "trial-run")
    [decided] = LabelJudge(labels).decide_all([request(evidence_sha="f" * 64)])
    assert (decided.status, decided.source, decided.score) == ("unavailable", "none", None)


def test_a_label_never_scores_above_the_parts_points() -> None:
    label = Label(part="T1b", evidence_sha256=REGRESSED_T1B, score=3, by="a.person", why="generous")
    [decided] = LabelJudge({("T1b", REGRESSED_T1B): label}).decide_all([request()])
    assert decided.score == 1 and decided.critique == "a.person: generous"


def test_two_trials_sharing_a_judge_never_exceed_its_concurrency_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = Overlap()
    judge = make_judge(CONFIG.model_copy(update={"concurrency": 2}), tmp_path, {}, api_key_present=True)
    verdicts: dict[int, list[Judgement]] = {}

    def trial(n: int) -> None:  # each trial puts its two parts to the judge at once
        verdicts[n] = judge.decide_all(
            [request(f"P{n}{i}", f"{n}{i}".ljust(64, "0"), f"evidence {n} {i}") for i in range(2)]
        )

    with judge_server(monkeypatch, answer) as stub:
        threads = [threading.Thread(target=trial, args=(n,)) for n in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(stub.requests) == 4 and answer.peak == 2
    assert [v.score for n in (0, 1) for v in verdicts[n]] == [1] * 4


OLD_PART: dict[str, Any] = {  # a judged part as results.jsonl and grade.json held it before the typed verdict
    "id": "T1b",
    "criterion": "T1",
    "category": "communication",
    "max_points": 1,
    "score": 0.0,
    "status": "failed",
    "layer": 2,
    "reason": "reports 0.80, not 0.85",
    "checks": [],
    "judge": {
        "status": "scored",
        "source": "model",
        "score": 0,
        "critique": "reports 0.80, not 0.85",
        "model": "claude-haiku-4-5",
        "prompt_version": "1",
        "usage": {"input_tokens": 100, "output_tokens": 20},
    },
    "evidence_sha256": REGRESSED_T1B,
    "evidence_excerpt": "Hi, the threshold is now 0.80.",
}


def test_a_part_grade_written_before_the_typed_verdict_reads_back_unchanged() -> None:
    part = PartGrade.model_validate(OLD_PART)
    assert isinstance(part.judge, Judgement) and part.judge.usage["input_tokens"] == 100
    assert part.model_dump(mode="json") == OLD_PART
    assert list(part.model_dump(mode="json")["judge"]) == list(OLD_PART["judge"])  # same keys, same order


def test_a_verdict_with_a_field_no_version_wrote_is_rejected() -> None:
    with pytest.raises(ValidationError, match="extra"):
        PartGrade.model_validate({**OLD_PART, "judge": {**OLD_PART["judge"], "confidence": 0.9}})
    with pytest.raises(ValidationError):
        Judgement.model_validate({**OLD_PART["judge"], "status": "maybe"})
