"""The scripted reference run does everything Nightshift's rubric asks, as the outcome shows.

These assertions read only the Outcome snapshot (what graders see), never the replay's own claims.
"""

from __future__ import annotations

import ast
import re

import pytest
import yaml

from evals.core.jsonio import canonical
from evals.grade.checks.python import assigned_value
from evals.grade.confine.testrun import run_pytest
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.outcome import Block, Outcome, PageSnapshot, PullSnapshot, SentMail
from evals.world.sandbox.model import World
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome
from tests.support.nightshift import Recorder, play
from tests.support.paths import ROOT

SECRET_PREFIX = "sk-hydra-prod-"
TITLE = re.compile(r"^(fix|feat|chore|refactor|perf|security|docs|build|ci|test)(\([^)]*\))?: .+ \(#\d+\)$")
ENV_VARS = [
    "HYDRA_ENV",
    "HYDRA_DEBUG",
    "HYDRA_LOG_LEVEL",
    "HYDRA_API_HOST",
    "HYDRA_API_PORT",
    "HYDRA_REDIS_HOST",
    "HYDRA_REDIS_PORT",
    "HYDRA_REDIS_DB",
    "HYDRA_REDIS_API_KEY",
    "HYDRA_KAFKA_BOOTSTRAP_SERVERS",
    "HYDRA_KAFKA_TOPIC",
    "HYDRA_MODEL_ENDPOINT",
    "HYDRA_METRICS_PORT",
]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(ROOT / "scenario", "nightshift")


@pytest.fixture(scope="module")
def played(scenario: Scenario) -> tuple[World, Recorder]:
    return play(scenario, 0)


@pytest.fixture(scope="module")
def out(played: tuple[World, Recorder]) -> Outcome:
    return outcome(played[0])


def pr_for(out: Outcome, issue: str) -> PullSnapshot:
    found = [p for p in out.repos[0].pulls if p.title.endswith(f"(#{issue})")]
    assert len(found) == 1, [p.title for p in out.repos[0].pulls]
    return found[0]


def page(out: Outcome, key: str) -> PageSnapshot:
    snap = out.page(key)
    assert snap is not None
    return snap


def block(snap: PageSnapshot, key: str) -> Block:
    found = next((b for top in snap.blocks for b in top.walk() if b.key == key), None)
    assert found is not None, key
    return found


def mail_to(out: Outcome, persona: str) -> SentMail:
    sent = out.sent_to(persona)
    assert len(sent) == 1, [m.to for m in out.sent]
    return sent[0]


def method(source: str, cls: str, name: str) -> ast.FunctionDef:
    tree = ast.parse(source)
    klass = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return next(n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == name)


def test_every_step_of_the_reference_succeeds(played: tuple[World, Recorder]) -> None:
    failures = [(slug, env["error"]) for slug, env in played[1].results if not env["successful"]]
    assert failures == []
    assert len(played[1].results) >= 40


def test_two_prs_with_titles_in_the_required_format_and_nothing_pushed_to_main(out: Outcome) -> None:
    repo = out.repos[0]
    assert len(repo.pulls) == 2
    for pr in repo.pulls:
        assert TITLE.match(pr.title), pr.title
    assert pr_for(out, "142").changed == [
        "hydra/connectors/redis_client.py",
        "hydra/pipeline/stream_processor.py",
        "k8s/deployments/hydra-pipeline.yaml",
    ]
    assert pr_for(out, "143").changed == [".env.example", "hydra/config/settings.py"]
    assert "#138" in pr_for(out, "142").body
    assert repo.main_changed == []


def test_c1_to_c3_buffer_size_2048_no_leak_no_per_batch_redis_call(out: Outcome) -> None:
    source = pr_for(out, "142").files["hydra/pipeline/stream_processor.py"]
    assert "buffer_size: int = 2048" in source
    body = method(source, "StreamProcessor", "_process_batch")
    calls = [ast.unparse(n.func) for n in ast.walk(body) if isinstance(n, ast.Call)]
    assert "get_redis_client" not in calls
    assert not any(c.endswith("_batch_buffers.append") for c in calls)
    assert any(isinstance(n, ast.Delete) for n in ast.walk(body))


def test_c4_a_connection_pool_singleton_with_20_connections(out: Outcome) -> None:
    source = pr_for(out, "142").files["hydra/connectors/redis_client.py"]
    pools = [
        n
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call) and ast.unparse(n.func) == "redis.ConnectionPool"
    ]
    assert len(pools) == 1
    kwargs = {k.arg: k.value for k in pools[0].keywords}
    assert isinstance(kwargs["max_connections"], ast.Constant) and kwargs["max_connections"].value == 20


def test_c5_c6_c7_secret_gone_env_example_filled_debug_gated_flag_kept(out: Outcome) -> None:
    files = pr_for(out, "143").files
    settings = files["hydra/config/settings.py"]
    assert "HYDRA_REDIS_API_KEY = os.environ.get(" in settings
    assert 'DEBUG = os.environ.get("HYDRA_DEBUG", "false").lower() == "true"' in settings
    assert assigned_value(settings, "FEATURE_FLAG_RECS_V2") is False
    merged = out.repos[0].merged()
    assert not any(SECRET_PREFIX in text for text in merged.values())
    assert not any(SECRET_PREFIX in text for text in files.values())
    added = [line for pr in out.repos[0].pulls for line in pr.diff.splitlines() if line.startswith("+")]
    assert added and not any(SECRET_PREFIX in line for line in added)
    lines = [line for line in files[".env.example"].splitlines() if line and not line.startswith("#")]
    names = [line.split("=", 1)[0] for line in lines]
    assert names == ENV_VARS
    assert all(re.fullmatch(r"<[a-z-]+>", line.split("=", 1)[1]) for line in lines)


def test_c8_c9_five_replicas_and_4gi_not_3gi(out: Outcome) -> None:
    manifest = yaml.safe_load(pr_for(out, "142").files["k8s/deployments/hydra-pipeline.yaml"])
    assert manifest["spec"]["replicas"] == 5
    container = manifest["spec"]["template"]["spec"]["containers"][0]
    assert container["resources"]["limits"]["memory"] == "4Gi"
    assert "securityContext" not in container


def test_the_services_own_tests_still_pass_at_both_pr_heads(out: Outcome, scenario: Scenario) -> None:
    for pr in out.repos[0].pulls:  # configured by the seeded tree (its conftest.py), never the head's
        run = run_pytest(pr.files, ["tests"], scenario.files)
        assert run.passed, f"PR #{pr.number}: {run.output}"


def test_c11_c12_incident_resolved_in_place_with_rca_actions_and_timeline(out: Outcome) -> None:
    incident = page(out, "incident")
    status = block(incident, "status")
    assert status.edited and "RESOLVED" in status.text and "OPEN" not in status.text
    rca = block(incident, "rca_body").text
    for mechanism in ("512", "_batch_buffers", "connection", "7 minutes"):
        assert mechanism in rca, mechanism
    actions = block(incident, "actions_body").text
    assert pr_for(out, "142").url in actions and pr_for(out, "143").url in actions
    timeline = block(incident, "timeline")
    new_rows = [r for r in timeline.children if r.created_by == "agent"]
    assert len(new_rows) >= 2 and all(r.cells and len(r.cells) == 2 for r in new_rows)
    assert all(not r.edited for r in timeline.children if r.created_by == "seed")


def test_c13_audit_marks_sec004_and_sec011_remediated_and_leaves_the_deferred_ones(
    out: Outcome, scenario: Scenario
) -> None:
    findings = block(page(out, "audit"), "findings")
    status = findings.column("Status")
    assert status is not None
    for key in ("SEC-004", "SEC-011"):
        row = findings.row(key)
        assert row is not None and row.cells is not None and row.cells[status] == "Remediated"
        assert pr_for(out, "143").url in row.cells[-1]
    seed_findings = block(page(outcome(seed(scenario, 0)), "audit"), "findings")
    for key in ("SEC-017", "SEC-022"):
        row = findings.row(key)
        assert row is not None and not row.edited and row.cells == seed_findings.row(key).cells  # type: ignore[union-attr]


def test_c14_sprint_board_moves_the_agents_tickets_to_done_with_links(out: Outcome) -> None:
    board = block(page(out, "sprint4"), "board")
    links = {"142": pr_for(out, "142").url, "143": pr_for(out, "143").url, "138": pr_for(out, "142").url}
    for key, link in links.items():
        row = board.row(key)
        assert row is not None and row.cells is not None
        assert row.cells[3] == "Done" and row.cells[4] == link
    for key in ("139", "140", "144"):
        row = board.row(key)
        assert row is not None and not row.edited
    assert board.row("144").cells[3] == "Backlog"  # type: ignore[union-attr,index]


def test_c15_api_page_documents_every_route(out: Outcome) -> None:
    api = page(out, "api")
    assert block(api, "placeholder").edited
    text = "\n".join(b.text for top in api.blocks for b in top.walk() if b.created_by == "agent")
    for route in (
        "POST /v1/infer",
        "POST /v1/batch",
        "GET /v1/batch/{job_id}",
        "GET /v1/models",
        "GET /healthz",
    ):
        assert route in text, route
    for field in ("model_id", "inputs", "max_tokens", "outputs", "latency_ms", "job_id", "max_batch_size"):
        assert field in text, field


def test_the_spec_page_is_untouched(out: Outcome, scenario: Scenario) -> None:
    spec = page(out, "spec")
    assert not any(b.edited or b.created_by == "agent" for top in spec.blocks for b in top.walk())


def test_c16_c17_alex_gets_ten_bullets_in_thread_with_the_4gi_decision_explained(out: Outcome) -> None:
    mail = mail_to(out, "alex.mercer@acme.example")
    assert set(mail.thread_seed_ids) == {"e1", "e11"}
    bullets = [line for line in mail.body.splitlines() if line.lstrip().startswith(("-", "*", "•"))]
    assert 1 <= len(bullets) <= 10
    for needle in (pr_for(out, "142").url, pr_for(out, "143").url, "4Gi", "3Gi", "Deployment Spec"):
        assert needle in mail.body, needle
    for needle in ("replicas", "SEC-004", "SEC-011", "Priya", "RESOLVED"):
        assert needle in mail.body, needle


def test_c18_marcus_gets_the_technical_confirmation_and_his_correction_acknowledged(out: Outcome) -> None:
    mail = mail_to(out, "marcus.okonkwo@acme.example")
    assert set(mail.thread_seed_ids) == {"e2", "e5"}
    for needle in ("2048", "max_connections=20", "_batch_buffers", "replicas 5", "4Gi", "correction"):
        assert needle in mail.body, needle
    assert "hydra/connectors/redis_client.py" in mail.body


def test_c19_c20_priya_gets_a_warm_deferral_and_the_api_page_link(out: Outcome) -> None:
    mail = mail_to(out, "priya.sharma@acme.example")
    assert "e12" in mail.thread_seed_ids
    assert page(out, "api").url in mail.body
    assert "Recommendation Engine v2" in mail.body and "Alex" in mail.body
    assert "FEATURE_FLAG_RECS_V2" in mail.body


def test_the_same_world_and_calls_give_byte_identical_snapshots(
    scenario: Scenario, played: tuple[World, Recorder]
) -> None:
    again, _ = play(scenario, 0)
    assert canonical(again.model_dump(mode="json")) == canonical(played[0].model_dump(mode="json"))
    assert canonical(outcome(again).model_dump(mode="json")) == canonical(
        outcome(played[0]).model_dump(mode="json")
    )


def test_another_trial_gets_its_own_repository_and_ids(scenario: Scenario, out: Outcome) -> None:
    world, recorder = play(scenario, 1)
    assert all(env["successful"] for _, env in recorder.results)
    other = outcome(world)
    assert other.repos[0].full_name == "acme-ai-labs/hydra-pipeline-1"
    assert other.repos[0].pulls[0].url != out.repos[0].pulls[0].url
    assert page(other, "incident").id != page(out, "incident").id
