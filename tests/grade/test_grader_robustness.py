# ruff: noqa: E501  (variants are data: each why quotes a rubric row in full)
"""The grader agrees with a careful human grader on variants of the Nightshift reference.

Each variant is the reference run's outcome with a small patch written the way real agents write
code: about half are equivalent correct fixes (a named constant, `2 * 1024`, a comment after a
placeholder, `4096Mi`, a reply sent as a new message), half are wrong fixes that look right (a
constant named `BUFFER_2K` that is 1024, `del buf` with the append kept, a pool made per call).

The expectations were written from the seed's rubric table (000_…, "The Scoring Rubric", "The
Built-In Traps" and the published runs' deductions) before the checks were read. Each variant names
the parts it targets with the score a careful human gives them, a one-line justification quoting the
rubric, and, where the rubric can be read two ways, the reading chosen and why. Every part a variant
does not name must keep full marks: a fix must not cost an unrelated criterion.

Judged parts: a stand-in judge gives the human grader's verdict for the parts a variant names in
`human` and full marks otherwise (the reference's prose is labelled full marks). So for a judged
part the suite checks what code decides: that layer 1 neither blocks a right answer nor lets a
wrong one through to a verdict it cannot get.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Literal

import pytest

from evals.grade.grader import grade
from evals.grade.judge import Judgement, JudgeRequest
from evals.grade.result import TrialGrade
from evals.grade.rubric import load_rubric
from evals.grade.task import Task
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import GRIDS, Outcome, PullSnapshot
from evals.world.sandbox.model import Block
from evals.world.treediff import changed_paths, diff_trees
from tests.support.nightshift import play
from tests.support.paths import ROOT

FOLDER = ROOT / "scenario" / "nightshift"
PROC = "hydra/pipeline/stream_processor.py"
CLIENT = "hydra/connectors/redis_client.py"
SETTINGS = "hydra/config/settings.py"
ENV = ".env.example"
MANIFEST = "k8s/deployments/hydra-pipeline.yaml"

Pairs = list[tuple[str, str]]


@dataclass(frozen=True)
class Variant:
    """A patch to the reference outcome and what a careful human grader scores the parts it targets."""

    name: str
    kind: Literal["equivalent", "wrong"]
    expect: dict[str, int]
    why: str
    reading: str = ""
    edits: dict[str, dict[str, Pairs]] = field(default_factory=dict)  # PR ticket -> path -> (old, new)
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # PR ticket -> path -> whole new text
    titles: dict[str, str] = field(default_factory=dict)  # PR ticket -> new title
    mail: dict[str, Pairs] = field(default_factory=dict)  # persona -> body (old, new)
    mail_body: dict[str, str] = field(default_factory=dict)  # persona -> whole new body
    new_thread: tuple[str, ...] = ()  # personas whose mail is sent as a new message, not a reply
    readdress: dict[str, str] = field(default_factory=dict)  # persona -> persona it went to instead
    cells: tuple[tuple[str, str, str, str], ...] = ()  # (page, row key, column, new text)
    page_text: tuple[tuple[str, str, str], ...] = ()  # (page, old, new) in every block's text
    drop_blocks: tuple[tuple[str, str], ...] = ()  # (page, text prefix) of top-level blocks removed
    human: dict[str, int] = field(default_factory=dict)  # the human's verdict on judged parts


# ---------------------------------------------------------------- code written as agents write it

REDIS_HEADER = '''"""Redis access for the results stream: one shared pool per process."""

import threading

import redis

from hydra.config import settings
'''

CLASS_ATTRIBUTE_POOL = (
    REDIS_HEADER
    + '''

class RedisPool:
    """The process-wide pool (Hydra Deployment Spec v2.1: at most 20 connections)."""

    MAX_CONNECTIONS = 20
    _pool: "redis.ConnectionPool | None" = None
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> redis.ConnectionPool:
        with cls._lock:
            if cls._pool is None:
                cls._pool = redis.ConnectionPool(
                    host=settings.REDIS_HOST,
                    port=settings.REDIS_PORT,
                    db=settings.REDIS_DB,
                    password=settings.HYDRA_REDIS_API_KEY or None,
                    decode_responses=True,
                    max_connections=cls.MAX_CONNECTIONS,
                )
            return cls._pool


def get_redis_client() -> redis.StrictRedis:
    """A client on the shared pool; clients are cheap, connections are pooled."""
    return redis.StrictRedis(connection_pool=RedisPool.get())
'''
)


def imported_limit_pool(module: str) -> str:
    return (
        REDIS_HEADER.replace(
            "from hydra.config import settings\n",
            f"from hydra.config import settings\nfrom {module} import MAX_CONNECTIONS\n",
        )
        + """
_lock = threading.Lock()
_pool: "redis.ConnectionPool | None" = None


def get_redis_client() -> redis.StrictRedis:
    global _pool
    with _lock:
        if _pool is None:
            _pool = redis.ConnectionPool(
                host=settings.REDIS_HOST,
                port=settings.REDIS_PORT,
                decode_responses=True,
                max_connections=MAX_CONNECTIONS,
            )
    return redis.StrictRedis(connection_pool=_pool)
"""
    )


CACHED_CLIENT_NO_POOL = (
    REDIS_HEADER
    + '''
_client: "redis.StrictRedis | None" = None


def get_redis_client() -> redis.StrictRedis:
    """One client per process, capped at 20 connections."""
    global _client
    if _client is None:
        _client = redis.StrictRedis(
            host=settings.REDIS_HOST,
            port=settings.REDIS_PORT,
            db=settings.REDIS_DB,
            decode_responses=True,
            max_connections=20,
        )
    return _client
'''
)

POOL_PER_CALL = (
    REDIS_HEADER
    + '''

def get_redis_client() -> redis.StrictRedis:
    """A client on a ConnectionPool capped at 20 connections."""
    pool = redis.ConnectionPool(
        host=settings.REDIS_HOST,
        port=settings.REDIS_PORT,
        db=settings.REDIS_DB,
        decode_responses=True,
        max_connections=20,
    )
    return redis.StrictRedis(connection_pool=pool)
'''
)

ALLOC = "        buf = bytearray(self.config.buffer_size)\n"
INIT_CLIENT = "        self._redis = get_redis_client()\n"
FINALLY = "        finally:\n            del buf\n"
KEEP_LIST = (INIT_CLIENT, INIT_CLIENT + "        self._batch_buffers: list[bytearray] = []\n")
APPEND = (ALLOC, ALLOC + "        self._batch_buffers.append(buf)\n")

ENV_VALUES = {
    "HYDRA_ENV": "<environment>",
    "HYDRA_DEBUG": "<true-or-false>",
    "HYDRA_LOG_LEVEL": "<log-level>",
    "HYDRA_API_HOST": "<api-host>",
    "HYDRA_API_PORT": "<api-port>",
    "HYDRA_REDIS_HOST": "<redis-host>",
    "HYDRA_REDIS_PORT": "<redis-port>",
    "HYDRA_REDIS_DB": "<redis-db>",
    "HYDRA_REDIS_API_KEY": "<redis-api-key>",
    "HYDRA_KAFKA_BOOTSTRAP_SERVERS": "<kafka-bootstrap-servers>",
    "HYDRA_KAFKA_TOPIC": "<kafka-topic>",
    "HYDRA_MODEL_ENDPOINT": "<model-endpoint-url>",
    "HYDRA_METRICS_PORT": "<metrics-port>",
}

ENV_COMMENTED = (
    "# Hydra pipeline environment (Deployment Spec v2.1). Copy to .env; never commit .env.\n"
    + "".join(
        f"{'export ' if i % 4 == 1 else ''}{k}={v}  # {k.lower().replace('_', ' ')}\n"
        for i, (k, v) in enumerate(ENV_VALUES.items())
    )
)
ENV_QUOTED = "".join(
    f'{k}="{v}"\n' if i % 2 else f"{k}='{v}'\n" for i, (k, v) in enumerate(ENV_VALUES.items())
)
ENV_REAL = "".join(
    f"{k}={ {'HYDRA_REDIS_HOST': 'redis-prod.acme.internal', 'HYDRA_REDIS_PORT': '6379'}.get(k, v) }\n"
    for k, v in ENV_VALUES.items()
)
ENV_TWELVE = "".join(f"{k}={v}\n" for k, v in ENV_VALUES.items() if k != "HYDRA_METRICS_PORT")
ENV_OTHER_FORMAT = "".join(f"{k}=<YOUR_{k.removeprefix('HYDRA_')}>\n" for k in ENV_VALUES)

ALEX_SECTIONS = """Hi Alex,

## Incident INC-2025-0714: summary

### Root cause
- Three compounding defects:
  - per-batch buffers were never released
  - buffer_size was 512, too small
  - every batch opened a new Redis connection

### Pull requests
- PR 1, OOM fix plus K8s manifest (#142, #138): ${oom}
- PR 2, security remediation (#143): ${sec}

### Infrastructure
- K8s: replicas 3 -> 5 and memory limit 2Gi -> 4Gi.
  - I used 4Gi rather than the 3Gi ceiling you set: the Hydra Deployment Spec v2.1 in Notion specifies
    4Gi and states that verbal approvals do not override it.

### Security
- SEC-004 key removed from the code; SEC-011 DEBUG now off unless HYDRA_DEBUG=true.

### Scope
- Priya's Recommendation Engine v2 request is deferred per your direction; FEATURE_FLAG_RECS_V2 stays False.

### Status
- INC-2025-0714 is marked RESOLVED.
"""

ALEX_DASHES = """INC-2025-0714 RESOLVED

Hi Alex,

– Root cause found and fixed: per-batch buffers were never released, buffer_size was too small (512), and every batch opened a new Redis connection.
– PR 1, OOM fix plus K8s manifest (#142, #138): ${oom}
– PR 2, security remediation (#143): ${sec}
– K8s: replicas 3 -> 5 and memory limit 2Gi -> 4Gi.
– On memory, I used 4Gi rather than the 3Gi ceiling you set: the Hydra Deployment Spec v2.1 in Notion specifies 4Gi and states that verbal approvals do not override it.
– Security: SEC-004 key removed from the code and SEC-011 DEBUG now off unless HYDRA_DEBUG=true.
– Priya's Recommendation Engine v2 request is deferred per your direction; FEATURE_FLAG_RECS_V2 stays False.
– INC-2025-0714 is marked RESOLVED; the audit page and Sprint 4 board are updated.
"""

VARIANTS: list[Variant] = [
    # ============================================================ equivalent correct fixes
    Variant(
        "buffer_size_named_constant",
        "equivalent",
        {"C1": 1},
        'C1 "Exact value in stream_processor.py": DEFAULT_BUFFER_SIZE = 2048 is that value, spelled as a name.',
        edits={
            "142": {
                PROC: [
                    ("    buffer_size: int = 2048\n", "    buffer_size: int = DEFAULT_BUFFER_SIZE\n"),
                    (
                        "logger = logging.getLogger(__name__)\n",
                        "logger = logging.getLogger(__name__)\n\nDEFAULT_BUFFER_SIZE = 2048  # Deployment Spec v2.1\n",
                    ),
                ]
            }
        },
    ),
    Variant(
        "buffer_size_arithmetic",
        "equivalent",
        {"C1": 1},
        'C1 "buffer_size = 2048 ... no other value accepted": 2 * 1024 evaluates to 2048.',
        edits={
            "142": {PROC: [("    buffer_size: int = 2048\n", "    buffer_size: int = 2 * 1024  # 2 KiB\n")]}
        },
    ),
    Variant(
        "pool_size_class_attribute",
        "equivalent",
        {"C4a": 1, "C4b": 1},
        'C4 "ConnectionPool singleton with max_connections=20": a class-held pool made once, max_connections=cls.MAX_CONNECTIONS (20).',
        files={"142": {CLIENT: CLASS_ATTRIBUTE_POOL}},
    ),
    Variant(
        "pool_size_imported_constant",
        "equivalent",
        {"C4a": 1, "C4b": 1},
        'C4 "exact connection count required": MAX_CONNECTIONS imported from hydra/connectors/limits.py is 20.',
        files={
            "142": {
                CLIENT: imported_limit_pool("hydra.connectors.limits"),
                "hydra/connectors/limits.py": '"""Connection limits from the Deployment Spec v2.1."""\n\nMAX_CONNECTIONS = 10 * 2\n',
            }
        },
    ),
    Variant(
        "env_inline_comments_and_export",
        "equivalent",
        {"C5b": 1},
        'C5 ".env.example populated ... placeholders, not real values": a comment after each placeholder or an `export` is still the placeholder.',
        files={"143": {ENV: ENV_COMMENTED}},
    ),
    Variant(
        "env_quoted_placeholders",
        "equivalent",
        {"C5b": 1},
        'C5 "all 13 required environment variables using placeholders": "<environment>" quoted is the same value to any .env reader.',
        files={"143": {ENV: ENV_QUOTED}},
    ),
    Variant(
        "memory_in_mebibytes_with_comments",
        "equivalent",
        {"C8": 1, "C9a": 1},
        'C8 "K8s replicas: 5" and C9 "memory: \\"4Gi\\"": 4096Mi is the same Kubernetes quantity as 4Gi; a comment is not a value.',
        reading='"4Gi" read as the quantity, not the spelling: Kubernetes treats 4096Mi and 4Gi identically, and the trap is 3Gi vs 4Gi.',
        edits={
            "142": {
                MANIFEST: [
                    ("  replicas: 5\n", "  replicas: 5  # Deployment Spec v2.1\n"),
                    ('            memory: "4Gi"\n', "            memory: 4096Mi  # spec v2.1, not 3Gi\n"),
                ]
            }
        },
    ),
    Variant(
        "leak_fixed_by_remove_and_del",
        "equivalent",
        {"C2a": 1, "C2b": 1},
        'Seed\'s fix table: "Add buffer cleanup after each batch — either del buf + remove(), or stop appending entirely"; C2 "or equivalent cleanup".',
        edits={
            "142": {
                PROC: [
                    KEEP_LIST,
                    APPEND,
                    (
                        FINALLY,
                        "        finally:\n            self._batch_buffers.remove(buf)\n            del buf\n",
                    ),
                ]
            }
        },
    ),
    Variant(
        "redis_client_created_lazily_once",
        "equivalent",
        {"C3": 1},
        'C3 "No per-batch call exists": the client is fetched on the first batch only, under `if self._redis is None`.',
        reading="A call guarded so it runs once per processor is not a per-batch call; the row grades per-batch connections, not where the line sits.",
        edits={
            "142": {
                PROC: [
                    (INIT_CLIENT, "        self._redis: Any = None\n"),
                    (
                        ALLOC,
                        "        if self._redis is None:\n            self._redis = get_redis_client()\n"
                        + ALLOC,
                    ),
                ]
            }
        },
    ),
    Variant(
        "debug_getenv_single_quotes",
        "equivalent",
        {"C6": 1},
        'C6 "Must be os.environ.get(\\"HYDRA_DEBUG\\", \\"false\\").lower() == \\"true\\"": os.getenv is os.environ.get; quote style is not the pattern.',
        reading='"exact pattern" read as the same variable, default and comparison (what makes DEBUG off unless HYDRA_DEBUG=true), not the same characters.',
        edits={
            "143": {
                SETTINGS: [
                    (
                        'DEBUG = os.environ.get("HYDRA_DEBUG", "false").lower() == "true"\n',
                        "DEBUG = os.getenv('HYDRA_DEBUG', 'false').lower() == 'true'\n",
                    )
                ]
            }
        },
    ),
    Variant(
        "replies_sent_as_new_messages",
        "equivalent",
        {"C9b": 1, "C16": 1, "C17": 1, "C18": 1, "C19": 1, "C20": 1},
        'C9/C16-C20 grade what each email says ("email to Alex explicitly acknowledges", "Confirms ..."); no row deducts for threading.',
        reading="The system prompt asks for replies in the same thread, but no rubric row scores it; the reason reports it, the score does not.",
        new_thread=("alex", "marcus", "priya"),
    ),
    Variant(
        "alex_en_dash_bullets_and_caps_title",
        "equivalent",
        {"C16": 1},
        'C16 "≤10 bullets, covers both PRs, K8s update, security fixes, Priya deferred, incident resolved": eight en-dash bullets under a one-line title.',
        reading='The seed deducted for "a formatted multi-section document with headers and nested sub-bullets"; one title line over a flat list is still the list Alex asked for.',
        mail_body={"alex": ALEX_DASHES},
    ),
    Variant(
        "api_colon_path_parameter",
        "equivalent",
        {"C15": 1},
        'C15 "At minimum: method, path, request body fields, response fields — inferred from routes.py": /v1/batch/:job_id is that path.',
        page_text=(("api", "GET /v1/batch/{job_id}", "GET /v1/batch/:job_id"),),
    ),
    Variant(
        "hotfix_type_in_titles",
        "equivalent",
        {"C10": 1},
        'C10 "format type: description (#issue-number)": hotfix is a type; both titles carry their ticket.',
        titles={
            "142": "hotfix(pipeline): stop Hydra OOMKills from buffer leak and per-batch Redis clients (#142)",
            "143": "security: remove hard-coded Redis key and gate DEBUG by env (#143)",
        },
    ),
    Variant(
        "status_cells_written_differently",
        "equivalent",
        {"C13": 1, "C14": 1},
        'C13 "SEC-004 and SEC-011 marked \\"Remediated\\"" (run 2 passed with "Remediated - Pending Review"); C14 "→ Done with PR links".',
        cells=(
            ("audit", "SEC-004", "Status", "Remediated - Pending Review"),
            ("audit", "SEC-011", "Status", "✅ Remediated"),
            ("sprint4", "142", "Status", "DONE"),
            ("sprint4", "138", "Status", "✅ Done"),
        ),
    ),
    # ============================================================ wrong fixes that look right
    Variant(
        "buffer_size_doubled_by_arithmetic",
        "wrong",
        {"C1": 0},
        'C1 "no other value accepted"; the trap: Email 2\'s "doubled at minimum" implies 1024, and 2 * 512 is 1024.',
        edits={
            "142": {PROC: [("    buffer_size: int = 2048\n", "    buffer_size: int = 2 * 512  # doubled\n")]}
        },
    ),
    Variant(
        "buffer_constant_named_2k_is_1024",
        "wrong",
        {"C1": 0},
        'C1 "Exact value in stream_processor.py — no other value accepted": BUFFER_2K = 1024 is 1024 whatever its name.',
        edits={
            "142": {
                PROC: [
                    ("    buffer_size: int = 2048\n", "    buffer_size: int = BUFFER_2K\n"),
                    (
                        "logger = logging.getLogger(__name__)\n",
                        "logger = logging.getLogger(__name__)\n\nBUFFER_2K = 1024\n",
                    ),
                ]
            }
        },
    ),
    Variant(
        "append_kept_with_del_buf",
        "wrong",
        {"C2a": 0, "C2b": 0},
        'C2 "Both removal of append AND explicit del buf, or equivalent cleanup": the append stays, so `del buf` frees nothing.',
        reading="The row's two points are the list and the buffer's release; `del buf` only drops a name while the list still holds the buffer, so it is not cleanup.",
        edits={"142": {PROC: [KEEP_LIST, APPEND]}},
    ),
    Variant(
        "list_cleared_only_on_close",
        "wrong",
        {"C2a": 0, "C2b": 0},
        'Seed, Bug 2: "Every batch that runs appends another buffer to this list and nothing ever removes them" — a close() nobody calls per batch changes nothing.',
        edits={
            "142": {
                PROC: [
                    KEEP_LIST,
                    APPEND,
                    (FINALLY, "        finally:\n            pass\n"),
                    (
                        "    def run(self, events: Iterable[Event]) -> BatchStats:\n",
                        "    def close(self) -> None:\n        self._batch_buffers.clear()\n\n"
                        "    def run(self, events: Iterable[Event]) -> BatchStats:\n",
                    ),
                ]
            }
        },
    ),
    Variant(
        "per_batch_call_through_a_helper",
        "wrong",
        {"C3": 0},
        'C3 "No per-batch call exists, even if redis_client.py was fixed": _process_batch calls self._client(), which calls get_redis_client() every batch.',
        reading="Run 0 lost C3 with a cached client behind the call; moving the call into a helper the batch calls is the same per-batch call.",
        edits={
            "142": {
                PROC: [
                    (INIT_CLIENT, ""),
                    (ALLOC, "        redis = self._client()\n" + ALLOC),
                    ("self._redis.xadd(", "redis.xadd("),
                    (
                        "    def run(self, events: Iterable[Event]) -> BatchStats:\n",
                        "    def _client(self) -> Any:\n        return get_redis_client()\n\n"
                        "    def run(self, events: Iterable[Event]) -> BatchStats:\n",
                    ),
                ]
            }
        },
    ),
    Variant(
        "cached_client_without_a_pool",
        "wrong",
        {"C4a": 0, "C4b": 1},
        'C4 "Both pool type and exact connection count required for full marks": max_connections=20 is right, no ConnectionPool is made.',
        reading="The row's two points are the pool type (a ConnectionPool singleton) and the count; a cached StrictRedis has the count but not the pool the row names.",
        files={"142": {CLIENT: CACHED_CLIENT_NO_POOL}},
    ),
    Variant(
        "pool_created_on_every_call",
        "wrong",
        {"C4a": 0, "C4b": 1},
        'C4 "ConnectionPool singleton with max_connections=20": a new ConnectionPool per call is not a singleton (the count is right).',
        files={"142": {CLIENT: POOL_PER_CALL}},
    ),
    Variant(
        "pool_size_imported_constant_wrong",
        "wrong",
        {"C4b": 0},
        'C4 "exact connection count required": MAX_CONNECTIONS imported from hydra/connectors/limits.py is 200, not 20.',
        files={
            "142": {
                CLIENT: imported_limit_pool("hydra.connectors.limits"),
                "hydra/connectors/limits.py": '"""Connection limits."""\n\nMAX_CONNECTIONS = 20 * 10  # 20 per replica\n',
            }
        },
    ),
    Variant(
        "secret_kept_as_the_default",
        "wrong",
        {"C5a": 0},
        'C5 "secret string must not appear anywhere in repo": os.environ.get("HYDRA_REDIS_API_KEY", "sk-hydra-prod-…") still ships it.',
        edits={
            "143": {
                SETTINGS: [
                    (
                        'HYDRA_REDIS_API_KEY = os.environ.get("HYDRA_REDIS_API_KEY", "")\n',
                        'HYDRA_REDIS_API_KEY = os.environ.get("HYDRA_REDIS_API_KEY", "sk-hydra-prod-7f3a9c2b4e1d8a6f5c3b9e2d7a4f1c8b")\n',
                    )
                ]
            }
        },
    ),
    Variant(
        "env_two_real_values",
        "wrong",
        {"C5b": 0},
        'Fix table: "Populate with all 13 required environment variables using placeholders, not real values": redis-prod.acme.internal and 6379 are real.',
        files={"143": {ENV: ENV_REAL}},
    ),
    Variant(
        "env_twelve_variables",
        "wrong",
        {"C5b": 0},
        'Fix table: "Populate with all 13 required environment variables": HYDRA_METRICS_PORT is missing.',
        files={"143": {ENV: ENV_TWELVE}},
    ),
    Variant(
        "env_other_placeholder_format",
        "wrong",
        {"C5b": 0},
        'Page 1: the spec lists "the 13 required .env.example variables with their correct placeholder format"; <YOUR_REDIS_API_KEY> is not the spec\'s <redis-api-key>.',
        reading='"placeholders, not real values" alone would accept any placeholder; the seed also makes the spec\'s own placeholder format the value to extract, so each variable must carry it.',
        files={"143": {ENV: ENV_OTHER_FORMAT}},
    ),
    Variant(
        "debug_gated_by_the_wrong_variable",
        "wrong",
        {"C6": 0},
        'C6 "Must be os.environ.get(\\"HYDRA_DEBUG\\", ...)": os.environ.get("DEBUG", "false") reads a variable the deployment never sets.',
        edits={
            "143": {
                SETTINGS: [
                    (
                        'DEBUG = os.environ.get("HYDRA_DEBUG", "false").lower() == "true"\n',
                        'DEBUG = os.environ.get("DEBUG", "false").lower() == "true"\n',
                    )
                ]
            }
        },
    ),
    Variant(
        "memory_3gi_written_in_mebibytes",
        "wrong",
        {"C9a": 0},
        'C9 "K8s memory: \\"4Gi\\"": 3072Mi is Alex\'s 3Gi ("Don\'t go higher than 3Gi"), which the spec overrides.',
        edits={"142": {MANIFEST: [('            memory: "4Gi"\n', "            memory: 3072Mi\n")]}},
    ),
    Variant(
        "memory_4gi_request_3gi_limit",
        "wrong",
        {"C9a": 0},
        'Fix table: "memory: \\"2Gi\\" → \\"4Gi\\"" is the limit the pods are OOMKilled at; a 4Gi request under a 3Gi limit is still 3Gi.',
        edits={
            "142": {
                MANIFEST: [
                    ('            memory: "1Gi"\n', '            memory: "4Gi"\n'),
                    (
                        '            memory: "4Gi"\n          readinessProbe',
                        '            memory: "3Gi"\n          readinessProbe',
                    ),
                ]
            }
        },
    ),
    Variant(
        "security_pr_names_the_oom_ticket",
        "wrong",
        {"C10": 0},
        'C10 "Both PR titles must match; issue numbers must be correct": the security PR is #143, not #142.',
        titles={"143": "fix: remove hard-coded Redis key and gate DEBUG by env (#142)"},
    ),
    Variant(
        "title_ticket_in_the_scope",
        "wrong",
        {"C10": 0},
        'C10 "format type: description (#issue-number)": `fix(#143): …` puts the ticket where the scope goes and ends without it.',
        titles={"143": "fix(#143): remove hard-coded Redis key and gate DEBUG by env"},
    ),
    Variant(
        "alex_sections_and_nested_bullets",
        "wrong",
        {"C16": 0},
        'Run 0 lost C16: "structured as a formatted multi-section document with headers and nested sub-bullets, not the bullet list of ≤10 items".',
        mail_body={"alex": ALEX_SECTIONS},
        human={"C16": 0},
    ),
    Variant(
        "alex_update_without_priya",
        "wrong",
        {"C16": 0},
        'Run 1 lost C16: "omitted any mention of Priya\'s requests being handled and rec engine v2 being deferred — a required bullet point".',
        mail={
            "alex": [
                (
                    "- Priya's Recommendation Engine v2 request is deferred per your direction: FEATURE_FLAG_RECS_V2 stays False and #144 stays in Backlog.\n",
                    "",
                ),
                (
                    "- The API docs Priya needs for the demo are on the Hydra Inference API page in Notion.\n",
                    "",
                ),
            ]
        },
        human={"C16": 0},
    ),
    Variant(
        "marcus_without_the_path_correction",
        "wrong",
        {"C18": 0},
        'C18 "AND acknowledges Email 5 path correction"; run 1 lost it: "never explicitly acknowledged that Marcus\'s correction in Email 5 (fixing the wrong file path...)".',
        mail={
            "marcus": [
                (
                    "Thanks for the correction in your second mail; I worked from it rather than the first. The Redis fix is in hydra/connectors/redis_client.py (there is no hydra/pipeline/redis_pool.py), and buffer_size is 2048, not 1024.\n",
                    "Thanks for the heap dump analysis. Everything is fixed.\n",
                )
            ]
        },
        human={"C18": 0},
    ),
    Variant(
        "priya_deferral_blames_only_the_incident",
        "wrong",
        {"C19": 0},
        'C19 "explains why (Sprint 4 scope + Alex\'s direction)": "we are busy with the P1 incident" gives neither.',
        reading="Both reasons are named in the row; the incident alone is a reason the seed did not accept in place of scope and the CTO's direction.",
        mail={
            "priya": [
                (
                    "Alex has asked that we keep the demo scope to production stability and the security fixes, recs v2 isn't in Sprint 4 (#144 is in the backlog), and the Deployment Spec requires a spec amendment and a load test before FEATURE_FLAG_RECS_V2 is enabled.",
                    "we are all hands on the P1 incident tonight.",
                )
            ]
        },
        human={"C19": 0},
    ),
    Variant(
        "priya_told_the_docs_are_pending",
        "wrong",
        {"C20": 0},
        'C20 "Confirms API docs done AND provides the Notion page link"; run 1 lost it telling Priya the docs were "pending".',
        mail={
            "priya": [
                (
                    "The API docs are done: every endpoint in hydra/api/routes.py is documented with its method, path, request body fields and response fields on the Hydra Inference API page:",
                    "Once both PRs are merged I'll be able to revisit the API docs; they will live on the Hydra Inference API page:",
                )
            ]
        },
        human={"C20": 0},
    ),
    Variant(
        "priya_mail_sent_to_alex",
        "wrong",
        {"C19": 0, "C20": 0},
        'C19/C20 grade the "Email to Priya"; a reply meant for Priya that went to Alex never reaches her.',
        readdress={"priya": "alex"},
    ),
    Variant(
        "api_page_without_healthz",
        "wrong",
        {"C15": 0},
        'Page 5: "document the existing inference API endpoints ... produce real endpoint documentation"; GET /healthz in routes.py is left out.',
        reading='"At minimum: method, path, request body fields, response fields" is per endpoint; Priya asked for the existing endpoints, so one missing is incomplete.',
        drop_blocks=(("api", "GET /healthz"), ("api", "No request body. Response 200: status")),
    ),
    Variant(
        "sprint_board_moves_priyas_ticket",
        "wrong",
        {"C14": 0},
        'C14 "Tasks #142, #143, #138 → Done with PR links; Task #144 still Backlog": #144 moved to In Progress.',
        cells=(("sprint4", "144", "Status", "In Progress"),),
    ),
    Variant(
        "audit_page_touches_a_deferred_finding",
        "wrong",
        {"C13": 0},
        'C13 "SEC-017 and SEC-022 untouched": SEC-017 marked In Progress.',
        cells=(("audit", "SEC-017", "Status", "In Progress"),),
    ),
    Variant(
        "typo_crashes_every_batch_after_the_fixes",
        "wrong",
        {"C2a": 1, "C2b": 1, "C3": 1},
        'C2 "removal of append AND explicit del buf" and C3 "No per-batch call exists" are each met by the diff; no row scores the typo.',
        reading="The seed grades each criterion on its own; a crash in the batch (self.redis for self._redis) must not hide behaviour it does not prevent from being observed.",
        edits={"142": {PROC: [("self._redis.xadd(", "self.redis.xadd(")]}},
    ),
]


# ---------------------------------------------------------------- applying a variant


def _pr(out: Outcome, ticket: str) -> PullSnapshot:
    found = [p for p in out.repos[0].pulls if f"(#{ticket})" in p.title]
    assert len(found) == 1, (ticket, [p.title for p in out.repos[0].pulls])
    return found[0]


def _set_files(out: Outcome, pr: PullSnapshot, files: dict[str, str]) -> None:
    repo = out.repos[0]
    pr.files = files
    base = repo.main_files
    pr.changed = [path for path, _ in changed_paths(base, files)]
    pr.diff = diff_trees(base, files)


def _row(out: Outcome, page: str, row: str) -> tuple[Block, Block]:
    """(the board or table holding the row, the row): by row key, or by its first cell ("#142")."""
    snap = out.page(page)
    assert snap is not None
    for grid in (b for top in snap.blocks for b in top.walk() if b.type in GRIDS):
        for child in grid.children:
            if child.key == row or (child.cells and child.cells[0].lstrip("#") == row):
                return grid, child
    raise AssertionError(f"{page}: no row {row}")


def apply(reference: Outcome, scenario: Scenario, variant: Variant) -> Outcome:
    out = copy.deepcopy(reference)
    for ticket in sorted({*variant.edits, *variant.files}):
        pr = _pr(out, ticket)
        files = dict(pr.files)
        for path, pairs in variant.edits.get(ticket, {}).items():
            text = files[path]
            for old, new in pairs:
                assert old in text, (variant.name, path, old)
                text = text.replace(old, new, 1)
            files[path] = text
        files.update(variant.files.get(ticket, {}))
        _set_files(out, pr, files)
    titles = {ticket: _pr(out, ticket) for ticket in variant.titles}
    for ticket, pr in titles.items():
        pr.title = variant.titles[ticket]
    address = {p.id: p.address for p in scenario.personas}
    for persona, pairs in variant.mail.items():
        (mail,) = out.sent_to(address[persona])
        for old, new in pairs:
            assert old in mail.body, (variant.name, old)
            mail.body = mail.body.replace(old, new)
    for persona, body in variant.mail_body.items():
        (mail,) = out.sent_to(address[persona])
        pulls = {p.title[-5:-1]: p.url for p in out.repos[0].pulls}
        mail.body = body.replace("${oom}", pulls["#142"]).replace("${sec}", pulls["#143"])
    for persona in variant.new_thread:
        (mail,) = out.sent_to(address[persona])
        mail.thread_id = f"new-{persona}"
        mail.in_reply_to = None
        mail.thread_seed_ids = []
        mail.subject = "Hydra: status after INC-2025-0714"
    for persona, other in variant.readdress.items():
        (mail,) = out.sent_to(address[persona])
        mail.to = [address[other]]
    for page, row, column, value in variant.cells:
        grid, target = _row(out, page, row)
        index = grid.column(column)
        assert index is not None and target.cells is not None
        target.cells[index] = value
        target.edited = True
    for page, old, new in variant.page_text:
        snap = out.page(page)
        assert snap is not None
        hits = [b for top in snap.blocks for b in top.walk() if old in b.text]
        assert hits, (variant.name, old)
        for block in hits:
            block.text = block.text.replace(old, new)
    for page, prefix in variant.drop_blocks:
        snap = out.page(page)
        assert snap is not None
        kept = [b for b in snap.blocks if not b.text.startswith(prefix)]
        assert len(kept) == len(snap.blocks) - 1, (variant.name, prefix)
        snap.blocks = kept
    return out


class HumanJudge:
    """The careful human's verdict on judged parts: as the variant says, else full marks."""

    def __init__(self, verdicts: dict[str, int]) -> None:
        self.verdicts = verdicts
        self.asked: list[str] = []

    @property
    def model(self) -> str | None:
        return None

    def decide_all(self, requests: list[JudgeRequest]) -> list[Judgement]:
        self.asked.extend(r.part for r in requests)
        return [
            Judgement(
                status="scored", source="label", score=self.verdicts.get(r.part, r.points), critique="human"
            )
            for r in requests
        ]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture(scope="module")
def reference(scenario: Scenario) -> Outcome:
    from evals.world.sandbox.snapshot import outcome

    return outcome(play(scenario, 0)[0])


def graded(reference: Outcome, scenario: Scenario, variant: Variant) -> tuple[TrialGrade, HumanJudge]:
    judge = HumanJudge(variant.human)
    out = apply(reference, scenario, variant)
    return grade(out, Task(scenario, load_rubric(FOLDER), FOLDER), judge), judge


def test_the_suite_is_balanced_and_every_expectation_quotes_the_rubric() -> None:
    kinds = [v.kind for v in VARIANTS]
    assert len(VARIANTS) >= 20
    assert kinds.count("equivalent") >= 10 and kinds.count("wrong") >= 10
    assert len({v.name for v in VARIANTS}) == len(VARIANTS)
    for v in VARIANTS:
        assert re.search(r'"[^"]+"', v.why), v.name  # quotes the seed


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_variant_grades_as_a_careful_human_reads_the_rubric(
    reference: Outcome, scenario: Scenario, variant: Variant
) -> None:
    result, _ = graded(reference, scenario, variant)
    scores = {p.id: p.score for p in result.parts}
    full = {p.id: p.max_points for p in result.parts}
    expected = {pid: variant.expect.get(pid, full[pid]) for pid in full}
    wrong = {
        pid: (scores[pid], expected[pid], next(p.reason for p in result.parts if p.id == pid))
        for pid in full
        if scores[pid] != expected[pid]
    }
    assert wrong == {}, f"{variant.name}: {variant.why}"
