"""Layer 2: a judge decides a part from its evidence, only after that part's code checks passed.

`Judge.decide_all(requests) -> verdicts` is the whole contract. `make_judge` picks the judge once,
when the run is planned: with an API key, the model behind its on-disk cache (`CachedJudge` around
`ModelJudge`); without, the human labels (`LabelJudge`), never the cache, so an offline result does
not depend on what one machine happened to cache.

A judge prompt is its own file with YAML front matter declaring `version`; the evidence is fenced as
data; the model critiques first and ends its reply with one JSON object whose `score` is an integer
or "unknown". Only a JSON object that *ends* the reply counts (`parse_reply`). A failed, truncated
or undecided call leaves the part unscored, never 0. What the judge cost is in
`evals.grade.judge.cost`.

    _protocol   the contract: `decide_all(requests) -> verdicts`, one per request, in order
    _judgement  what a judge answers about one part, as stored on the part grade and in the cache
    _factory    choosing the judge, once, when the run is planned
    _model      the model judge: one Anthropic Messages API call per judged part
    _cache      the model judge's verdicts on disk, so a re-grade asks nothing it asked before
    _label      the label judge: a person's score for a part on one piece of evidence
    _prompt     the judge prompt file: YAML front matter declaring `version`, then a template
    _reply      reading the model's reply: only a JSON object that ends it is the verdict
    cost        what grading a trial cost in judge calls, priced from the pricing file

The private modules are reached through this package's names only (tests/test_architecture.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evals.grade.judge._cache import CachedJudge
    from evals.grade.judge._factory import make_judge
    from evals.grade.judge._judgement import Judgement, Source, Status
    from evals.grade.judge._label import LabelJudge
    from evals.grade.judge._model import SAMPLING_API_VERSION, ModelJudge
    from evals.grade.judge._prompt import SYSTEM, JudgePrompt, fence, load_prompt
    from evals.grade.judge._protocol import Judge, JudgeRequest
    from evals.grade.judge._reply import parse_reply

# Each name is imported from its module on first use (PEP 562), so a command that only reads stored
# verdicts (`compare` reads them on every part grade) does not import the model client, the cache
# and the factory behind them.
_HOME = {
    "CachedJudge": "_cache",
    "make_judge": "_factory",
    "LabelJudge": "_label",
    "SAMPLING_API_VERSION": "_model",
    "ModelJudge": "_model",
    "SYSTEM": "_prompt",
    "JudgePrompt": "_prompt",
    "fence": "_prompt",
    "load_prompt": "_prompt",
    "Judge": "_protocol",
    "JudgeRequest": "_protocol",
    "parse_reply": "_reply",
    "Source": "_judgement",
    "Status": "_judgement",
    "Judgement": "_judgement",
}

__all__ = [
    "SAMPLING_API_VERSION",
    "SYSTEM",
    "CachedJudge",
    "Judge",
    "JudgePrompt",
    "JudgeRequest",
    "Judgement",
    "LabelJudge",
    "ModelJudge",
    "Source",
    "Status",
    "fence",
    "load_prompt",
    "make_judge",
    "parse_reply",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later lookups skip this function
    return value
