"""The workflows are checked by real tools (zizmor, the GitHub-workflow JSON schema) and hold to the
security rules docs/security.md and docs/github.md promise: no ambient permissions, pinned actions, no
expressions in shell, secrets only in the environment-bound jobs, forks never reach them, the job
holding the model key executes no agent code, the jobs that do hold no secret and no write token, and
live-world tokens reach a step only when the world is live."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.paths import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
FOLDER = ROOT / ".github" / "workflows"
# The jobs live in the reusable workflows; the PR and nightly workflows only call them (and so does
# every repository that adopted the gate with `evals init`, pinned by SHA: tests/authoring/).
REUSABLE = {"evals-pr.yml": "evals-pr-gate.yml", "evals-nightly.yml": "evals-nightly-gate.yml"}
WITH_STEPS = [p for p in WORKFLOWS if p.name not in REUSABLE]
PASSED_SECRET = re.compile(r"^\$\{\{ secrets\.(\w+) \}\}$")
BIN = Path(sys.executable).parent
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}$")  # an action in a subfolder too
USES_KEY = re.compile(r"^\s*(-\s+)?uses:")
VERSION_COMMENT = re.compile(r"uses: (\S+) # v\d+(\.\d+)*\s*$")
SECRET_EXPRESSION = re.compile(r"\$\{\{[^}]*\bsecrets\.")


def reads_secrets(node: Any) -> bool:
    return bool(SECRET_EXPRESSION.search(json.dumps(node)))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    # PyYAML reads the bare key `on` as the boolean True (YAML 1.1).
    if True in data:
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, step) for name, job in workflow["jobs"].items() for step in job.get("steps", [])]


def test_the_workflows_exist() -> None:
    assert {p.name for p in WORKFLOWS} == {"ci.yml", *REUSABLE, *REUSABLE.values()}


@pytest.mark.parametrize("caller", sorted(REUSABLE))
def test_a_caller_only_calls_its_reusable_workflow_passing_each_secret_by_name(caller: str) -> None:
    """No steps of its own, no `secrets: inherit`; each secret passed is one the reusable workflow
    declares, under its own name (so it resolves only in the job bound to the environment holding it)."""
    workflow = load(FOLDER / caller)
    (job,) = workflow["jobs"].values()
    assert job["uses"] == f"$/.github/workflows/{REUSABLE[caller]}" and "steps" not in job
    called = load(FOLDER / REUSABLE[caller])
    assert set(called["on"]) == {"workflow_call"} and called["permissions"] == {}
    assert job["secrets"] != "inherit"
    declared = set(called["on"]["workflow_call"]["secrets"])
    for name, value in job["secrets"].items():
        match = PASSED_SECRET.match(value)
        assert match and match[1] == name and name in declared, (caller, name, value)
    assert set(job["with"]) <= set(called["on"]["workflow_call"]["inputs"])
    assert job["with"]["harness"] == "", "this repository is its own harness"
    for scope, level in job["permissions"].items():  # the most any called job may use
        assert level in ("read", "write"), (scope, level)


def test_zizmor_finds_nothing_even_as_an_auditor() -> None:
    out = subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--persona", "auditor", "--format", "json", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout) == []


def test_zizmor_would_catch_an_injected_title_and_an_unpinned_action(tmp_path: Path) -> None:
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request_target\npermissions: {}\njobs:\n  x:\n    runs-on: ubuntu-latest\n"
        "    permissions: {}\n    steps:\n      - uses: actions/checkout@v4\n"
        '      - run: echo "${{ github.event.pull_request.title }}"\n',
        encoding="utf-8",
    )
    out = subprocess.run(
        [str(BIN / "zizmor"), "--offline", "--format", "json", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    found = {finding["ident"] for finding in json.loads(out.stdout)}
    assert {"template-injection", "unpinned-uses", "dangerous-triggers"} <= found


def test_every_workflow_validates_against_the_github_workflow_schema() -> None:
    out = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_schema_check_would_catch_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    stepz: []\n", encoding="utf-8")
    out = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(broken)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1


@pytest.mark.parametrize("path", WITH_STEPS, ids=lambda p: p.name)
def test_no_permissions_unless_a_job_asks_and_every_job_has_a_timeout(path: Path) -> None:
    workflow = load(path)
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, f"{path.name}: job {name} must state its permissions"
        assert isinstance(job.get("timeout-minutes"), int), f"{path.name}: job {name} has no timeout"
        for scope, level in job["permissions"].items():
            assert level in ("read", "write", "none"), (scope, level)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_version_in_a_comment(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for _, step in steps(load(path)):
        if "uses" in step:
            assert PINNED.match(step["uses"]), step["uses"]
    for line in text.splitlines():
        if USES_KEY.match(line) and "uses: $/" not in line:  # the key, not `statuses:`; a local call
            assert VERSION_COMMENT.search(line), line


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_expression_inside_a_shell_step_and_no_persisted_credentials(path: Path) -> None:
    for _, step in steps(load(path)):
        if "run" in step:
            assert "${{" not in step["run"], step["run"]
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False


@pytest.mark.parametrize("path", WITH_STEPS, ids=lambda p: p.name)
def test_secrets_appear_only_in_jobs_bound_to_an_environment(path: Path) -> None:
    """`evals` holds the agent's and the live world's keys; `evals-status` only the GitHub App's key and
    the comment key, for the jobs that find or post our sticky comment and the status (`context` and
    `publish`, which run no code of the PR's)."""
    for name, job in load(path)["jobs"].items():
        if not reads_secrets(job):
            continue
        named = set(re.findall(r"\bsecrets\.(\w+)", json.dumps(job)))
        if job.get("environment") == "evals-status":
            assert named <= {"EVALS_APP_PRIVATE_KEY", "EVALS_COMMENT_KEY"}, (
                f"{path.name}: job {name} reads {named}"
            )
            assert name in ("context", "publish"), f"{path.name}: job {name} is bound to evals-status"
        else:
            assert job.get("environment") == "evals", f"{path.name}: job {name} reads secrets outside it"


LIVE_SECRETS = ("EVALS_GITHUB_TOKEN", "NOTION_TOKEN", "COMPOSIO_API_KEY")
LIVE = "vars.EVALS_WORLD == 'live'"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_live_world_tokens_reach_a_step_only_when_the_world_is_live(path: Path) -> None:
    for job_name, step in steps(load(path)):
        for key, value in (step.get("env") or {}).items():
            if any(f"secrets.{secret}" in str(value) for secret in LIVE_SECRETS):
                gated = LIVE in str(step.get("if", "")) or f"{LIVE} && secrets." in str(value)
                assert gated, f"{path.name}: {job_name} / {step.get('name')}: {key} outside the live world"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_the_model_key_reaches_only_the_agent_step_of_a_job_that_defers_agent_code(path: Path) -> None:
    for name, job in load(path)["jobs"].items():
        holding = [s for s in job.get("steps", []) if "secrets.ANTHROPIC_API_KEY" in json.dumps(s)]
        if not holding:
            continue
        # the agent under test, the nightly's canary (a planted regression run like one),
        # or the nightly's judge job (re-judges the labelled sample; the evidence needs no agent code);
        # the PR's evals job also measures the judge prompts the PR edits, before the agent is taken
        expected = {
            "canary": ["bash scripts/canary.sh"],
            "judge": ["bash scripts/judge_agreement.sh"],
            "evals": ["bash scripts/judge_prompts.sh", "bash scripts/agent.sh"],
        }.get(name, ["bash scripts/agent.sh"])
        assert [s["run"] for s in holding] == expected, (path.name, name)
        assert job["env"]["EVALS_DEFER_EXECUTION"] == "1", f"{path.name}: {name} may run agent code"


def agent_code_steps(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """Steps that run the agent's code: the PR verdict (layer 1 re-graded), the nightly's merge and its
    record of the canary (whose layer 1 is computed again)."""
    return [
        (n, s)
        for n, s in steps(load(path))
        if s.get("run") in ("bash scripts/verdict.sh", "bash scripts/merge.sh", "bash scripts/operating.sh")
    ]


@pytest.mark.parametrize("path", [FOLDER / name for name in REUSABLE.values()], ids=lambda p: p.name)
def test_agent_code_runs_only_confined_in_a_job_without_secrets_or_write_tokens(path: Path) -> None:
    workflow = load(path)
    found = agent_code_steps(path)
    assert found, path.name
    for job_name, step in found:
        job = workflow["jobs"][job_name]
        assert not reads_secrets(job) and "environment" not in job, (path.name, job_name)
        assert set(job["permissions"].values()) == {"read"}, (path.name, job_name)
        assert "github.token" not in json.dumps(job), (path.name, job_name)
        assert step["env"]["EVALS_CONFINE_MINIMUM"] == "landlock"
        runs = [s.get("run") for s in job["steps"]]
        assert runs.index("bash scripts/confine.sh") < runs.index(step["run"])


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_script_a_step_calls_exists(path: Path) -> None:
    for _, step in steps(load(path)):
        for script in re.findall(r"scripts/[\w.]+", step.get("run", "")):
            assert (ROOT / script).is_file(), script


def checkouts(job: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@")]


BASE = "${{ github.sha }}"
HEAD = "${{ needs.context.outputs.head_sha }}"  # the labelled head SHA, or the continued run's


def test_the_pr_workflow_runs_from_the_base_on_the_label_and_takes_only_the_agent_from_the_head() -> None:
    """pull_request_target (and issue_comment for `/evals continue`): GitHub runs the default
    branch's workflow (the caller, and the reusable gate it names), so a PR cannot edit the gate. The
    reusable gate's `context` job is the door every other job needs: the label from this repository
    into the default branch, or a `/evals continue` comment on a PR (which `evals github context`
    checks: write access, same head, same ruler); under any other caller trigger nothing runs."""
    workflow = load(FOLDER / "evals-pr.yml")
    assert workflow["on"] == {
        "pull_request_target": {"types": ["labeled"]},
        "issue_comment": {"types": ["created"]},
    }
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    same_repo = "github.event.pull_request.head.repo.full_name == github.repository"
    fork = "github.event.pull_request.head.repo.full_name != github.repository"
    default_base = "github.event.pull_request.base.ref == github.event.repository.default_branch"
    door = jobs["context"]["if"]
    assert same_repo in door and "'run-evals'" in door and default_base in door
    assert "startsWith(github.event.comment.body, '/evals continue')" in door
    # the door names its two triggers: under any other (github.sha could be the PR's commit) it is shut
    label_door, comment_door = door.split(" || ")
    assert label_door.startswith("(github.event_name == 'pull_request_target' && ")
    assert comment_door.startswith("(github.event_name == 'issue_comment' && ")
    assert jobs["evals"]["needs"] == "context" and "if" not in jobs["evals"]  # only through the door
    assert jobs["context"]["environment"] == "evals-status"  # the comment key and the App's key only
    assert set(re.findall(r"secrets\.(\w+)", json.dumps(jobs["context"]))) == {
        "EVALS_APP_PRIVATE_KEY",
        "EVALS_COMMENT_KEY",
    }
    assert "pr-head" not in json.dumps(jobs["context"])  # base code only
    assert jobs["context"]["permissions"] == {"contents": "read", "pull-requests": "read", "actions": "read"}
    assert fork in jobs["fork-notice"]["if"] and "'run-evals'" in jobs["fork-notice"]["if"]
    assert jobs["fork-notice"]["permissions"] == {} and "environment" not in jobs["fork-notice"]
    assert not reads_secrets(jobs["fork-notice"])
    assert reads_secrets(jobs["evals"]) and not reads_secrets(jobs["verdict"])
    assert jobs["evals"]["permissions"] == {"contents": "read", "actions": "read"}  # the continued run
    assert jobs["verdict"]["permissions"] == {"contents": "read"}
    assert jobs["publish"]["permissions"] == {
        "contents": "read",
        "statuses": "write",
        "pull-requests": "write",
    }
    assert "environment" not in jobs["verdict"] and jobs["publish"]["environment"] == "evals-status"
    for name in ("evals", "verdict"):
        base, head = checkouts(jobs[name])
        assert base["with"]["ref"] == BASE and "path" not in base["with"], "the workspace is the base"
        assert head["with"] == {"ref": HEAD, "path": "pr-head", "persist-credentials": False}
    (base,) = checkouts(jobs["publish"])  # the write token's job never checks out the head
    assert base["with"]["ref"] == BASE and "path" not in base["with"]
    for job in ("verdict", "publish"):  # base code only; the head is data
        for step in jobs[job]["steps"]:
            assert "pr-head" not in step.get("run", "") and "working-directory" not in step
    group = workflow["concurrency"]["group"]
    assert "github.event.pull_request.number" in group and workflow["concurrency"]["cancel-in-progress"]


def test_only_an_event_the_context_job_accepted_reaches_the_prs_eval_group() -> None:
    """A comment anyone may post never shares a group that cancels or queues: the caller groups only
    labelled runs (a label needs triage access), every other event is alone (its run id); the PR's
    eval group is joined by the `evals` job, which only runs after `context` accepted the event."""
    caller = load(FOLDER / "evals-pr.yml")["concurrency"]["group"]
    assert "comment" not in caller and "github.event.issue" not in caller
    assert "github.event.label.name == 'run-evals'" in caller and caller.endswith("|| github.run_id }}")
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    grouped = {name for name, job in jobs.items() if "concurrency" in job}
    assert grouped == {"evals"}
    assert jobs["evals"]["concurrency"] == {
        "group": "agent-evals-pr-${{ needs.context.outputs.number }}",
        "cancel-in-progress": True,
    }
    assert jobs["evals"]["needs"] == "context" and "if" not in jobs["evals"]


def test_a_failed_evals_job_gets_no_verdict_and_error_is_published() -> None:
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    assert "needs.evals.result == 'success'" in jobs["verdict"]["if"]
    publish = jobs["publish"]
    assert "needs.evals.result != 'cancelled'" in publish["if"]  # a newer eval publishes instead
    env = {k: v for s in publish["steps"] for k, v in (s.get("env") or {}).items()}
    for key in ("STATUS_STATE", "VERDICT", "VERDICT_EXIT"):
        assert env[key].startswith("${{ needs.evals.result == 'success' && "), key
    assert env["EVALS_JOB_RESULT"] == "${{ needs.evals.result }}"


def test_the_comment_key_and_author_reach_every_step_that_finds_our_comment() -> None:
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    context = next(s for s in jobs["context"]["steps"] if s.get("run") == "bash scripts/pr_context.sh")
    comment = next(s for s in jobs["publish"]["steps"] if s.get("run") == "bash scripts/comment.sh")
    for step in (context, comment):
        assert step["env"]["EVALS_COMMENT_KEY"] == "${{ secrets.EVALS_COMMENT_KEY }}"
        assert "steps.app.outputs.app-slug" in step["env"]["EVALS_COMMENT_AUTHOR"]


def test_the_only_silenced_zizmor_finding_is_the_justified_trigger() -> None:
    ignores = [
        (path.name, line.strip())
        for path in WORKFLOWS
        for line in path.read_text(encoding="utf-8").splitlines()
        if "zizmor: ignore" in line
    ]
    assert ignores == [("evals-pr.yml", "pull_request_target: # zizmor: ignore[dangerous-triggers]")]
    text = (ROOT / ".github" / "workflows" / "evals-pr.yml").read_text(encoding="utf-8")
    assert "How the PR workflow stays safe" in text  # the justification points at docs/security.md


def test_the_required_status_is_posted_whatever_the_gate_step_did() -> None:
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    verdict, publish = jobs["verdict"]["steps"], jobs["publish"]
    download = next(s for s in verdict if str(s.get("uses", "")).startswith("actions/download-artifact@"))
    assert download["continue-on-error"] is True  # a missing artifact reaches the gate: `error`
    assert publish["needs"] == ["context", "evals", "verdict"] and "!cancelled()" in publish["if"]
    assert "needs.verdict.result" not in publish["if"]  # a failed verdict job still gets its status
    names = [s.get("name") for s in publish["steps"]]
    post = publish["steps"][names.index("Post the agent-evals status on the head SHA")]
    assert "|| 'error'" in post["env"]["STATUS_STATE"]  # no output from the gate: error
    assert publish["steps"][-1]["name"] == "Fail unless the verdict passes"


def test_a_refused_continue_is_answered_by_a_job_that_runs_only_base_code() -> None:
    """The refusal job: only after the context job failed with a reason, on an issue_comment; no
    secret, no environment, no head checkout; the reason reaches the script through env only."""
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    refusal = jobs["refusal"]
    assert refusal["needs"] == "context"
    for part in ("always()", "github.event_name == 'issue_comment'", "needs.context.result == 'failure'"):
        assert part in refusal["if"]
    assert jobs["context"]["outputs"]["refused"] == "${{ steps.pr.outputs.refused }}"
    assert refusal["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert not reads_secrets(refusal) and "environment" not in refusal
    (base,) = checkouts(refusal)
    assert base["with"]["ref"] == BASE and "path" not in base["with"]
    reply = refusal["steps"][-1]
    assert reply["run"] == "bash scripts/refused.sh" and "${{" not in reply["run"]
    assert reply["env"]["EVALS_REFUSED"] == "${{ needs.context.outputs.refused }}"


def test_the_status_is_posted_with_a_github_app_token_when_one_is_configured() -> None:
    """With EVALS_APP_ID set, the status comes from the App (branch protection can pin its source);
    otherwise github.token, which any workflow with `statuses: write` also holds (docs/github.md's caveat)."""
    publish = load(FOLDER / "evals-pr-gate.yml")["jobs"]["publish"]
    (app,) = [
        s for s in publish["steps"] if str(s.get("uses", "")).startswith("actions/create-github-app-token@")
    ]
    assert app["if"] == "${{ vars.EVALS_APP_ID }}" and app["id"] == "app"
    assert app["with"]["private-key"] == "${{ secrets.EVALS_APP_PRIVATE_KEY }}"
    for step in publish["steps"]:
        if step.get("run", "").startswith("bash scripts/") and "GITHUB_TOKEN" in (step.get("env") or {}):
            assert step["env"]["GITHUB_TOKEN"] == "${{ steps.app.outputs.token || github.token }}"
    comment = next(s for s in publish["steps"] if s.get("run") == "bash scripts/comment.sh")
    assert "steps.app.outputs.app-slug" in comment["env"]["EVALS_COMMENT_AUTHOR"]


def test_the_nightly_is_scheduled_dispatchable_and_sharded() -> None:
    workflow = load(FOLDER / "evals-nightly.yml")
    assert workflow["on"]["schedule"]
    assert set(workflow["on"]["workflow_dispatch"]["inputs"]) == {"suite", "trials"}
    workflow = load(FOLDER / "evals-nightly-gate.yml")
    shard = workflow["jobs"]["shard"]
    assert shard["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.matrix) }}"
    assert shard["strategy"]["fail-fast"] is False
    assert "environment" not in workflow["jobs"]["fan-in"], "the fan-in re-grades nothing: no secrets"


def cache_steps(job: dict[str, Any]) -> list[tuple[int, str, dict[str, str]]]:
    """(position, verb, with) of every actions/cache step of a job."""
    return [
        (i, step["uses"].split("@")[0].rsplit("/", 1)[1], step.get("with", {}))
        for i, step in enumerate(job["steps"])
        if str(step.get("uses", "")).startswith("actions/cache")
    ]


def test_each_shard_restores_the_judge_jobs_cache_before_the_agent_and_never_saves_one() -> None:
    """A shard asks the judge nothing the judge job already asked (same key and prefix it saves
    under); it saves nothing, because it runs the agent, and a cache it wrote would be restored by
    later nights and the judge's own measurement (planted grades)."""
    jobs = load(FOLDER / "evals-nightly-gate.yml")["jobs"]
    (saved,) = [w for _, verb, w in cache_steps(jobs["judge"]) if verb == "save"]
    (judge_restore,) = [w for _, verb, w in cache_steps(jobs["judge"]) if verb == "restore"]
    shard = cache_steps(jobs["shard"])
    assert [verb for _, verb, _ in shard] == ["restore"], "a shard restores the judge cache, saves none"
    ((at, _, restore),) = shard
    assert restore == judge_restore and restore["key"] == saved["key"] and restore["path"] == saved["path"]
    assert saved["key"].startswith(restore["restore-keys"].strip())  # last night's save is found
    agent = next(
        i for i, step in enumerate(jobs["shard"]["steps"]) if step.get("run") == "bash scripts/agent.sh"
    )
    assert at < agent, "restored before the agent stage grades"
    assert restore["path"] == ".evals-cache/judge"  # evals.yaml judge.cache_dir
    config = yaml.safe_load((ROOT / "evals.yaml").read_text(encoding="utf-8"))
    assert config.get("judge", {}).get("cache_dir", ".evals-cache/judge").rstrip("/") == restore["path"]


def test_the_pr_measures_edited_judge_prompts_before_taking_the_agent_and_never_lets_it_decide() -> None:
    """The evals job measures the PR's edited judge prompts (the head read as data) and uploads the
    record before anything of the PR is taken or run; the step cannot fail the job; the verdict job
    reads the record only when that step said it wrote one."""
    jobs = load(FOLDER / "evals-pr-gate.yml")["jobs"]
    names = [step.get("name", "") for step in jobs["evals"]["steps"]]
    runs = [step.get("run") for step in jobs["evals"]["steps"]]
    measure = runs.index("bash scripts/judge_prompts.sh")
    upload = names.index("Upload the measurement of the PR's judge prompts")
    assert measure < upload < runs.index("bash scripts/take_agent.sh") < runs.index("bash scripts/agent.sh")
    step = jobs["evals"]["steps"][measure]
    assert step["continue-on-error"] is True and step["id"] == "judge-prompts"
    assert [verb for _, verb, _ in cache_steps(jobs["evals"])] == ["restore"]  # never saved from a PR
    assert jobs["evals"]["outputs"]["judge_prompts"] == "${{ steps.judge-prompts.outputs.measured }}"
    verdict = jobs["verdict"]["steps"]
    take = next(s for s in verdict if s.get("run") == "cp pr-judge/judge.jsonl baseline/judge.jsonl")
    download = next(s for s in verdict if s.get("id") == "pr-judge")
    assert download["if"] == "${{ needs.evals.outputs.judge_prompts == 'true' }}"
    assert take["if"] == "${{ steps.pr-judge.outcome == 'success' }}"
    assert verdict.index(take) < [s.get("run") for s in verdict].index("bash scripts/verdict.sh")


def test_ci_runs_the_offline_suite_on_push_and_pull_request_without_secrets() -> None:
    """Push and pull request run `make test`; the schedule runs the drawn instances it leaves out."""
    workflow = load(ROOT / ".github" / "workflows" / "ci.yml")
    assert set(workflow["on"]) == {"push", "pull_request", "schedule"}
    assert not reads_secrets(workflow)
    runs = {s["run"]: s.get("if", "") for _, s in steps(workflow) if "run" in s}
    assert runs == {
        "make test": "github.event_name != 'schedule'",
        "make test-instances": "github.event_name == 'schedule'",
    }
