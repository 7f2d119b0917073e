"""`evals init` (evals/authoring/init.py): what an adopting repository gets, that it refuses to
overwrite, that the scaffolded workflows pass zizmor and the workflow schema, call the gate pinned by
SHA and differ from this repository's own callers in nothing else, and that the Actions emulator
runs the scaffolded PR workflow end to end (regressed red, reference green). The wheel, built and
installed into a fresh venv, doing init and an offline run: tests/authoring/test_wheel.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from evals.agents.replay import load_fixture
from evals.authoring.init import Gate, plan, starter_files, starter_root
from evals.cli import main
from evals.core.config import load_config
from evals.core.errors import BadInputError
from evals.definition import load_scenarios
from evals.scenario.folder import ScenarioFolder
from tests.support.actions import Runner
from tests.support.fakes.github_pr_fake import FakeGitHubPR
from tests.support.paths import FIXTURES, ROOT

SHA = "0123456789abcdef0123456789abcdef01234567"
GATE = f"acme/agent-evals-gate@{SHA}"
BIN = Path(sys.executable).parent
CALLERS = (".github/workflows/evals-pr.yml", ".github/workflows/evals-nightly.yml")


def init(target: Path, *extra: str) -> int:
    return main(["init", "--dir", str(target), "--gate", GATE, *extra])


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert init(repo) == 0
    return repo


def test_init_scaffolds_one_scenario_of_each_tier_the_agent_scripts_and_workflows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adopted = tmp_path / "fresh"
    adopted.mkdir()
    assert init(adopted) == 0
    tiers = {}
    for folder in sorted((adopted / "scenario").iterdir()):
        tiers[yaml.safe_load((folder / "scenario.yaml").read_text(encoding="utf-8")).get("tier", "L2")] = (
            folder
        )
    assert set(tiers) == {"L1", "L2", "L3"}
    config = yaml.safe_load((adopted / "evals.yaml").read_text(encoding="utf-8"))
    assert config["suite"] == "starter"
    assert sorted(config["suites"]["starter"]) == sorted(p.name for p in tiers.values())
    assert config["gate"] == yaml.safe_load((ROOT / "evals.yaml").read_text(encoding="utf-8"))["gate"]
    assert (adopted / "agent" / "agent.yaml").is_file() and (adopted / "baseline" / "README.md").is_file()
    for rel in ("scripts/agent.sh", "scripts/verdict.sh", "scripts/install.sh", "pricing.yaml"):
        assert (adopted / rel).read_bytes() == (ROOT / rel).read_bytes(), rel
    # every script a scaffolded (or called) workflow runs is there
    called = [
        (ROOT / ".github/workflows" / n).read_text(encoding="utf-8")
        for n in ("evals-pr-gate.yml", "evals-nightly-gate.yml")
    ]
    for script in {s for text in called for s in re.findall(r"scripts/[\w.]+\.sh", text)}:
        assert (adopted / script).is_file(), script
    assert not (adopted / ".github/workflows/evals-pr-gate.yml").exists()  # called, never copied
    ignored = (adopted / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "runs/" in ignored and ".venv/" in ignored  # a venv made next to the code is never committed
    out = capsys.readouterr().out
    for needed in (
        "`evals`",
        "required reviewers",
        "`evals-status`",
        "`run-evals`",
        "`agent-evals`",
        "ANTHROPIC_API_KEY",
        "CODEOWNERS",
    ):
        assert needed in out, needed


def test_the_scaffolded_callers_are_this_repositorys_own_pinned_to_the_gate(adopted: Path) -> None:
    for rel in CALLERS:
        ours = (ROOT / rel).read_text(encoding="utf-8").splitlines()
        theirs = (adopted / rel).read_text(encoding="utf-8").splitlines()
        changed = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
        assert len(changed) == 2, changed
        uses, harness = (b.strip() for _, b in changed)
        name = Path(rel).name.replace(".yml", "-gate.yml")
        assert uses.startswith(f"uses: acme/agent-evals-gate/.github/workflows/{name}@{SHA} # ")
        assert harness == f'harness: "agent-evals-gate @ git+https://github.com/acme/agent-evals-gate@{SHA}"'


def test_the_scaffolded_workflows_pass_zizmor_and_the_workflow_schema(adopted: Path) -> None:
    files = [str(adopted / rel) for rel in CALLERS]
    zizmor = subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--persona", "auditor", "--format", "json", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert zizmor.returncode == 0 and json.loads(zizmor.stdout) == [], zizmor.stdout + zizmor.stderr
    schema = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr


def test_init_refuses_to_overwrite_and_writes_nothing_then_force_replaces(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = adopted / "evals.yaml"
    config.write_text("mine: true\n", encoding="utf-8")
    (adopted / "scripts" / "agent.sh").unlink()
    assert init(adopted) == 2
    assert "--force" in capsys.readouterr().err
    assert config.read_text(encoding="utf-8") == "mine: true\n"
    assert not (adopted / "scripts" / "agent.sh").exists()  # refused as a whole: nothing written
    assert init(adopted, "--force") == 0
    assert yaml.safe_load(config.read_text(encoding="utf-8"))["suite"] == "starter"
    assert (adopted / "scripts" / "agent.sh").is_file()
    ignore = (adopted / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ignore.count("runs/") == 1  # appended once, never twice


def test_the_scaffolded_nightly_plans_every_starter(adopted: Path) -> None:
    """The nightly's plan step (scripts/plan_shards.sh, blank suite: the `full` suite of evals.yaml)
    finds every starter scenario in the adopting repository's evals.yaml, sliced as the workflow asks."""
    done = subprocess.run(
        ["bash", "scripts/plan_shards.sh"],
        cwd=adopted,
        env={"PATH": f"{BIN}:/usr/bin:/bin", "EVALS_TRIALS": "6", "EVALS_SLICES": "2"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("matrix=")]
    planned = json.loads(line.removeprefix("matrix="))["include"]
    starters = sorted(p.name for p in (adopted / "scenario").iterdir())
    assert sorted({shard["scenario"] for shard in planned}) == starters
    assert len(planned) == 2 * len(starters)


@pytest.mark.parametrize(
    "ref", ["acme/agent-evals-gate@main", "acme/agent-evals-gate@v1.2.3", f"acme@{SHA}", SHA[:12]]
)
def test_the_gate_must_be_pinned_by_a_full_commit_sha(ref: str) -> None:
    with pytest.raises(BadInputError, match="40-character"):
        Gate.parse(ref)


def test_the_package_knows_where_it_was_built_from_and_says_what_to_pass_when_not(tmp_path: Path) -> None:
    """#40: a plain `evals init` pins the gate the package records (the wheel's _build.json, or the
    checkout's origin and HEAD); what it cannot name, the error spells out, with the commit it knows."""
    from evals.authoring.provenance import build_origin, checkout_origin, unknown_message

    (tmp_path / "_build.json").write_text(json.dumps({"repository": "acme/gate", "commit": SHA}))
    built = build_origin(tmp_path)
    assert built is not None and (built.repository, built.commit) == ("acme/gate", SHA)
    (tmp_path / "_build.json").write_text(json.dumps({"repository": None, "commit": "not-a-sha"}))
    unnamed = build_origin(tmp_path)
    assert unnamed is not None and (unnamed.repository, unnamed.commit) == (None, None)

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("")
    git = ["git", "-C", str(checkout)]
    subprocess.run([*git, "init", "-q"], check=True)
    who = ["-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, *who, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    partial = checkout_origin(checkout)
    assert partial is not None and (partial.repository, partial.commit) == (None, head)
    said = unknown_message(partial)
    assert f"pass --gate OWNER/REPO@{head}" in said
    assert "pass --gate OWNER/REPO@SHA" in unknown_message(None)
    subprocess.run([*git, "remote", "add", "origin", "git@github.com:acme/agent-evals-gate.git"], check=True)
    found = checkout_origin(checkout)
    assert found is not None and (found.repository, found.commit) == ("acme/agent-evals-gate", head)


def test_an_own_agent_replaces_the_bundled_one(tmp_path: Path) -> None:
    todo = plan(Gate.parse(GATE), "my_agent:run")
    assert "agent: my_agent:run\n" in todo.texts["evals.yaml"]
    assert not [rel for rel in todo.paths() if rel.startswith("agent/")]
    with pytest.raises(BadInputError, match="module:callable"):
        plan(Gate.parse(GATE), "python -c 'boom'")


def test_an_own_agent_gets_a_stub_module_when_it_has_none_and_the_first_run_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """#40: `evals init --agent my_agent:run` wrote no module, so the printed `evals run` exited 2. A
    stub that does nothing is written where the module is missing (never over a team's own), and the
    first run grades it: 0 points, no crash."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert init(repo, "--agent", "my_agent:run") == 0
    assert "my_agent.py" in capsys.readouterr().out
    assert "async def run(prompts: AgentPrompts, toolset: Toolset)" in (repo / "my_agent.py").read_text()
    done = subprocess.run(
        [str(BIN / "python"), "-m", "evals", "run", "--scenario", "reply-facts", "--out", "runs/first"],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "Verdict:" in done.stdout and "total 0.00" in done.stdout, done.stdout

    own = tmp_path / "own"
    own.mkdir()
    (own / "team_agent.py").write_text("async def go(prompts, toolset):\n    return 'mine'\n")
    assert init(own, "--agent", "team_agent:go") == 0
    assert (own / "team_agent.py").read_text() == "async def go(prompts, toolset):\n    return 'mine'\n"


def test_the_starter_lists_only_files_that_exist() -> None:
    files = starter_files(starter_root())
    assert all(path.is_file() for path in files.values())
    assert not [rel for rel in files if "__pycache__" in rel or rel.endswith(".pyc")]


LABELED = FIXTURES / "webhooks" / "pull_request.labeled.json"
TOKEN = "ghs-dry-run-token-0001"


def regressing_replay(repo: Path) -> tuple[str, str]:
    """The quickest starter (lowest tier) and its wrong replay that declares the largest loss past
    the gate's threshold: the scenario's own `expect_lost` and rubric points say it regresses
    (check-scenario holds every replay to its `expect_lost`), not a score written here."""
    config, _ = load_config(repo)
    candidates = []
    for name, loaded in load_scenarios(repo, config, config.suites["starter"], with_judge=False).items():
        points = {part.id: part.points for _, part in loaded.rubric.parts()}
        allowed = config.threshold.allowed_drop(loaded.rubric.max_points)
        for replay in ScenarioFolder(loaded.folder).replays():
            lost = sum(points[p] for p in load_fixture(loaded.folder, replay).expect_lost or [])
            if lost > allowed:
                candidates.append((loaded.scenario.task_tier(), -lost, name, replay))
    assert candidates, "no starter has a wrong replay that loses more than the gate's threshold"
    _tier, _lost, name, replay = min(candidates)
    return name, replay


def _pr_run(tmp: Path, repo: Path, github: FakeGitHubPR, scenario: str, agent: str) -> dict[str, list]:  # type: ignore[type-arg]
    event = json.loads(LABELED.read_text(encoding="utf-8"))
    event["label"]["name"] = "run-evals"
    github.label(2, "run-evals")
    runner = Runner(
        tmp,
        "pull_request_target",
        event,
        "Codertocat/Hello-World",
        api_url=github.url,
        vars={"EVALS_AGENT": agent, "EVALS_SCENARIOS": scenario},
        secrets={"ANTHROPIC_API_KEY": ""},
        project=repo,
    )
    runner.token = TOKEN
    jobs = runner.run("evals-pr.yml")
    assert runner.called == [f"acme/agent-evals-gate/.github/workflows/evals-pr-gate.yml@{SHA}"]
    return jobs


def test_the_emulator_runs_the_scaffolded_pr_workflow_regressed_red_reference_green(
    adopted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adopting repository's first baseline is blessed from a reference run (docs/github.md step 3); the
    harness line is pointed at the package this test session has installed (no network). The
    regressed agent is a starter's wrong replay that loses more than the threshold by its own
    declaration (regressing_replay)."""
    monkeypatch.chdir(adopted)
    scenario, wrong = regressing_replay(adopted)
    assert main(["run", "--scenario", scenario, "--out", "runs/first"]) == 0
    assert main(["baseline", "bless", "--run", "runs/first"]) == 0
    caller = adopted / CALLERS[0]
    text = caller.read_text(encoding="utf-8")
    caller.write_text(text.replace(Gate.parse(GATE).harness, "agent-evals-gate"), encoding="utf-8")
    head_sha = json.loads(LABELED.read_text(encoding="utf-8"))["pull_request"]["head"]["sha"]
    with FakeGitHubPR("Codertocat", "Hello-World", {2}, TOKEN) as github:
        jobs = _pr_run(tmp_path / "red", adopted, github, scenario, f"replay:{wrong}")
        assert jobs["evals"][0].result == "success", jobs["evals"][0].log()
        assert jobs["publish"][0].result == "failure", jobs["publish"][0].log()
        status = github.status(head_sha, "agent-evals")
        assert status is not None and status["state"] == "failure", status
        assert status["description"].startswith("regression:")
        assert jobs["gate"][0].result == "failure"

        jobs = _pr_run(tmp_path / "green", adopted, github, scenario, "replay:reference")
        assert jobs["publish"][0].result == "success", jobs["publish"][0].log()
        status = github.status(head_sha, "agent-evals")
        assert status is not None and status["state"] == "success", status
        (comment,) = github.comments_on(2)
        assert "Agent evals: **pass**" in comment.body


def test_a_caller_on_the_wrong_trigger_runs_no_evals(adopted: Path, tmp_path: Path) -> None:
    """A scaffolded caller edited onto `pull_request` (github.sha: the PR's own merge commit, so the
    ruler would come from the change) gets no `evals` job, and so no verdict or status either."""
    caller = adopted / CALLERS[0]
    caller.write_text(
        caller.read_text(encoding="utf-8").replace("pull_request_target: #", "pull_request: #"),
        encoding="utf-8",
    )
    event = json.loads(LABELED.read_text(encoding="utf-8"))
    event["label"]["name"] = "run-evals"
    runner = Runner(tmp_path / "run", "pull_request", event, "Codertocat/Hello-World", project=adopted)
    jobs = runner.run("evals-pr.yml")
    assert [j.result for n in ("evals", "verdict", "publish") for j in jobs[n]] == ["skipped"] * 3
