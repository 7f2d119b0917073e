"""A local stand-in for the GitHub Actions runner, so the workflows' own steps can be dry-run."""

from __future__ import annotations

import fnmatch
import json
import math
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests.support.paths import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"


# Copied as the checkout: the project without its git data, venv, caches or earlier runs.
NOT_CHECKED_OUT = shutil.ignore_patterns(
    ".git", ".venv", "runs", ".evals-cache", ".mypy_cache", ".pytest_cache", ".ruff_cache", "__pycache__"
)


_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||[!(),])"
    r"|(?P<name>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*))"
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ValueError(f"cannot parse expression at {text[pos:]!r}")
        kind = match.lastgroup
        assert kind is not None
        out.append((kind, match.group(kind)))
        pos = match.end()
    return out


def truthy(value: Any) -> bool:
    if isinstance(value, float) and math.isnan(value):
        return False
    return value not in (None, False, 0, "")


def as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value)
    return str(value)


class Expression:
    """Recursive descent over: || && == != ! ( ) literals, context paths and function calls."""

    def __init__(self, text: str, contexts: dict[str, Any], status: dict[str, bool]) -> None:
        self.tokens = _tokens(text)
        self.pos = 0
        self.contexts = contexts
        self.status = status

    def evaluate(self) -> Any:
        value = self._or()
        if self.pos != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.pos][1]!r}")
        return value

    def _peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def _take(self, expected: str | None = None) -> tuple[str, str]:
        token = self.tokens[self.pos]
        if expected is not None and token[1] != expected:
            raise ValueError(f"expected {expected!r}, got {token[1]!r}")
        self.pos += 1
        return token

    def _or(self) -> Any:
        value = self._and()
        while self._peek() == "||":
            self._take()
            right = self._and()
            value = value if truthy(value) else right
        return value

    def _and(self) -> Any:
        value = self._compare()
        while self._peek() == "&&":
            self._take()
            right = self._compare()
            value = right if truthy(value) else value
        return value

    def _compare(self) -> Any:
        left = self._unary()
        if self._peek() in ("==", "!="):
            op = self._take()[1]
            right = self._unary()
            same = (
                left.casefold() == right.casefold()
                if isinstance(left, str) and isinstance(right, str)
                else left == right
            )
            return same if op == "==" else not same
        return left

    def _unary(self) -> Any:
        if self._peek() == "!":
            self._take()
            return not truthy(self._unary())
        return self._primary()

    def _primary(self) -> Any:
        kind, text = self._take()
        if text == "(":
            value = self._or()
            self._take(")")
            return value
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "num":
            return float(text) if "." in text else int(text)
        if kind != "name":
            raise ValueError(f"unexpected {text!r}")
        if text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[text]
        if self._peek() == "(":
            self._take()
            args = []
            while self._peek() != ")":
                args.append(self._or())
                if self._peek() == ",":
                    self._take()
            self._take(")")
            return self._call(text, args)
        value: Any = self.contexts
        for part in text.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return value

    def _call(self, name: str, args: list[Any]) -> Any:
        if name == "format":
            return re.sub(r"\{(\d+)\}", lambda m: as_text(args[1 + int(m[1])]), str(args[0]))
        if name == "fromJSON":
            return json.loads(str(args[0]))
        if name == "startsWith":  # case-insensitive, as GitHub's
            return as_text(args[0]).casefold().startswith(as_text(args[1]).casefold())
        if name in ("success", "failure", "always", "cancelled"):
            return {
                "success": self.status["ok"],
                "failure": not self.status["ok"],
                "always": True,
                "cancelled": False,
            }[name]
        raise ValueError(f"function {name}() is not supported by the dry run")


def evaluate(text: str, contexts: dict[str, Any], ok: bool = True) -> Any:
    return Expression(text, contexts, {"ok": ok}).evaluate()


_INTERPOLATION = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def expand(value: Any, contexts: dict[str, Any]) -> Any:
    """`${{ x }}` inside a string; a string that is one whole expression keeps the value's type."""
    if not isinstance(value, str):
        return value
    whole = _INTERPOLATION.fullmatch(value.strip())
    if whole:
        return evaluate(whole.group(1), contexts)
    return _INTERPOLATION.sub(lambda m: as_text(evaluate(m.group(1), contexts)), value)


def condition(text: Any, contexts: dict[str, Any], ok: bool) -> bool:
    """A job's or step's `if:`: with no status function in it, GitHub adds `success() &&`."""
    if text is None:
        return ok
    source = str(text).strip()
    if source.startswith("${{") and source.endswith("}}"):
        source = source[3:-2]
    if not re.search(r"\b(success|failure|always|cancelled)\(", source):
        source = f"success() && ({source})"
    return truthy(evaluate(source, contexts, ok))


@dataclass
class StepLog:
    name: str
    skipped: bool
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    env: dict[str, str] = field(default_factory=dict)  # what the workflow gave the step (job and step env)


@dataclass(frozen=True)
class Concurrency:
    """A concurrency group a run joined: where it was declared (`workflow FILE` or `job NAME`), the
    group as GitHub would compute it, and whether joining it cancels what is in progress there."""

    where: str
    group: str
    cancel_in_progress: bool


@dataclass
class JobRun:
    job: str
    result: str  # success | failure | skipped
    outputs: dict[str, Any] = field(default_factory=dict)
    summary: str = ""
    steps: list[StepLog] = field(default_factory=list)
    matrix: dict[str, Any] = field(default_factory=dict)

    def step(self, name: str) -> StepLog:
        return next(s for s in self.steps if s.name == name)

    def log(self) -> str:
        return "\n".join(f"--- {s.name} (rc {s.returncode})\n{s.stdout}{s.stderr}" for s in self.steps)


def load_workflow(name: str, project: Path = ROOT) -> dict[str, Any]:
    folder = project / ".github" / "workflows"
    data: dict[str, Any] = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on` as True
        data["on"] = data.pop(True)
    return data


_INSTALLED: set[str] = set()


@dataclass
class Runner:
    """One workflow run: the event, the repository's vars and secrets, and a local artifact store."""

    tmp: Path
    event_name: str
    event: dict[str, Any]
    repository: str
    api_url: str = "http://127.0.0.1:9"  # nothing listens: a stray API call fails fast
    vars: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    project: Path = ROOT
    head: Path | None = None  # the PR head's tree; None: the PR changes nothing but what `project` holds
    gate: Path = ROOT  # where a reusable workflow pinned as owner/repo/...@sha is read from
    jobs: dict[str, list[JobRun]] = field(default_factory=dict)
    called: list[str] = field(default_factory=list)  # the pinned reusable workflows a run called
    # Earlier workflow runs' artifact stores by run id (download-artifact's `run-id`).
    earlier: dict[str, Path] = field(default_factory=dict)
    # The repository's Actions cache (actions/cache/restore and save): share one between two runners
    # to dry-run two nights. None: a new, empty one under tmp.
    caches: Path | None = None
    run_id: str = "4242"
    # The concurrency groups this run joined, in order (a skipped job joins none).
    concurrency: list[Concurrency] = field(default_factory=list)
    workflow_file: str = ""  # the workflow the run started with (GITHUB_WORKFLOW_REF names it)

    def __post_init__(self) -> None:
        self.artifacts = self.tmp / "artifacts"
        self.artifacts.mkdir(parents=True)
        self.caches = self.caches or self.tmp / "caches"
        self.caches.mkdir(parents=True, exist_ok=True)
        self.event_path = self.tmp / "event.json"
        self.event_path.write_text(json.dumps(self.event), encoding="utf-8")
        self.token = "ghs-dry-run-token-0001"
        pr = self.event.get("pull_request") or {}
        self.head_sha: str = (pr.get("head") or {}).get("sha", "")
        # GITHUB_SHA: the base branch's head for pull_request_target, the head for the rest here.
        base_sha = (pr.get("base") or {}).get("sha", "")
        self.sha = base_sha if self.event_name == "pull_request_target" else self.head_sha or "0" * 40

    def workflow_source(self) -> Path:
        """Where GitHub reads the workflow file from for this event."""
        if self.event_name == "pull_request" and self.head is not None:
            return self.head
        return self.project

    def github(self) -> dict[str, Any]:
        return {
            "sha": self.sha,
            "event": self.event,
            "event_name": self.event_name,
            "repository": self.repository,
            "run_id": self.run_id,
            "run_attempt": "1",
            "token": self.token,
            "api_url": self.api_url,
        }

    def run(self, workflow_name: str, only: list[str] | None = None) -> dict[str, list[JobRun]]:
        """Run the workflow's jobs (or only the named ones, which must not need the others).

        A job that calls a reusable workflow (`uses:` a workflow file) runs that workflow's jobs
        under their own names (as GitHub shows them, "caller / called"), with the caller's `with:`
        as `inputs` and only the secrets the caller passed by name; the caller job's entry is
        their overall result. `only` may name the called workflow's jobs: the caller job then
        runs just those."""
        workflow = load_workflow(workflow_name, self.workflow_source())
        self.workflow_file = workflow_name
        self._join(f"workflow {workflow_name}", workflow.get("concurrency"), self._contexts({}, {}))
        self._run_jobs(workflow_name, workflow, only)
        return self.jobs

    def _join(self, where: str, spec: Any, contexts: dict[str, Any]) -> None:
        """Record the concurrency group a workflow or job declares, as GitHub computes it: a string
        (the group) or a mapping with `group` and `cancel-in-progress`, both expanded."""
        if spec is None:
            return
        if not isinstance(spec, dict):
            spec = {"group": spec}
        group = as_text(expand(spec["group"], contexts))
        cancel = truthy(expand(spec.get("cancel-in-progress", False), contexts))
        self.concurrency.append(Concurrency(where, group, cancel))

    def default_branch(self) -> str:
        return str((self.event.get("repository") or {}).get("default_branch") or "main")

    def workflow_ref(self) -> str:
        """GITHUB_WORKFLOW_REF: OWNER/REPO/.github/workflows/FILE@refs/heads/BRANCH; the caller's file
        in a called workflow too. The PR triggers run the default branch's copy."""
        return f"{self.repository}/.github/workflows/{self.workflow_file}@refs/heads/{self.default_branch()}"

    def run_facts(self) -> dict[str, Any]:
        """This run as GitHub's API would describe it afterwards (the fields a continuation checks):
        its workflow file, event, branch and SHA (GITHUB_SHA: the base's for the PR triggers), how it
        concluded and the names of its artifacts."""
        results = [r.result for runs in self.jobs.values() for r in runs]
        return {
            "path": f".github/workflows/{self.workflow_file}",
            "event": self.event_name,
            "head_branch": self.default_branch(),
            "head_sha": self.sha,
            "conclusion": "failure" if "failure" in results else "success",
            "artifacts": sorted(a.name for a in self.artifacts.iterdir()),
        }

    def _run_jobs(self, workflow_name: str, workflow: dict[str, Any], only: list[str] | None) -> None:
        pending = [(n, j) for n, j in workflow["jobs"].items() if only is None or n in only or "uses" in j]
        while pending:
            ready = [(name, job) for name, job in pending if all(n in self.jobs for n in _needs(job))]
            assert ready, f"cyclic or unknown needs in {workflow_name}"
            for name, job in ready:
                if "uses" in job:
                    inner = None if only is None or name in only else only
                    self.jobs[name] = self._call(workflow, name, job, inner)
                else:
                    self.jobs[name] = self.run_job(workflow, name, job)
                pending.remove((name, job))

    def called_file(self, uses: str) -> Path:
        """Where a `uses:` of a reusable workflow is read from: `./...` or GitHub's self-repository
        `$/...` from the same tree as the caller; `owner/repo/.github/workflows/x.yml@sha` from
        `self.gate` (this repository stands in for the pinned gate), after checking the reference
        is a full commit SHA."""
        if uses.startswith(("./", "$/")):  # the same repository and commit as the caller
            return self.workflow_source() / uses[2:]
        path, _, ref = uses.partition("@")
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"reusable workflow not pinned by SHA: {uses}"
        owner_repo_path = path.split("/", 2)
        self.called.append(uses)
        return self.gate / owner_repo_path[2]

    def _call(
        self, workflow: dict[str, Any], name: str, job: dict[str, Any], only: list[str] | None
    ) -> list[JobRun]:
        contexts = self._contexts(workflow, job)
        needs_ok = all(n["result"] == "success" for n in contexts["needs"].values())
        if not condition(job.get("if"), contexts, needs_ok):
            return [JobRun(name, "skipped")]
        file = self.called_file(job["uses"])
        called: dict[str, Any] = yaml.safe_load(file.read_text(encoding="utf-8"))
        if True in called:
            called["on"] = called.pop(True)
        spec = called["on"]["workflow_call"]
        inputs = {k: v.get("default", "") for k, v in (spec.get("inputs") or {}).items()}
        for key, value in (job.get("with") or {}).items():
            assert key in inputs, f"{name} passes {key}, which {file.name} does not declare"
            inputs[key] = expand(value, contexts)
        declared = set(spec.get("secrets") or {})
        passed = {k: as_text(expand(v, contexts)) for k, v in (job.get("secrets") or {}).items()}
        assert set(passed) <= declared, f"{name} passes secrets {file.name} does not declare"
        saved = self.inputs, self.secrets
        self.inputs, self.secrets = inputs, passed
        try:
            self._join(f"workflow {file.name}", called.get("concurrency"), self._contexts({}, {}))
            before = set(self.jobs)
            self._run_jobs(file.name, called, only)
        finally:
            self.inputs, self.secrets = saved
        results = [r.result for n in set(self.jobs) - before for r in self.jobs[n]]
        result = "failure" if "failure" in results else "success"
        return [JobRun(name, result)]

    def _contexts(self, workflow: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
        needs = {}
        for name in _needs(job):
            runs = self.jobs[name]
            result = (
                "skipped"
                if all(r.result == "skipped" for r in runs)
                else "failure"
                if any(r.result == "failure" for r in runs)
                else "success"
            )
            outputs: dict[str, Any] = {}
            for r in runs:
                outputs.update(r.outputs)
            needs[name] = {"result": result, "outputs": outputs}
        contexts: dict[str, Any] = {
            "github": self.github(),
            "vars": self.vars,
            "secrets": {**self.secrets, "GITHUB_TOKEN": self.token},
            "inputs": self.inputs,
            "needs": needs,
            "env": {},
            "matrix": {},
            "steps": {},
        }
        for key, value in (workflow.get("env") or {}).items():
            contexts["env"][key] = as_text(expand(value, contexts))
        return contexts

    def run_job(self, workflow: dict[str, Any], name: str, job: dict[str, Any]) -> list[JobRun]:
        contexts = self._contexts(workflow, job)
        needs_ok = all(n["result"] == "success" for n in contexts["needs"].values())
        if not condition(job.get("if"), contexts, needs_ok):
            return [JobRun(name, "skipped")]
        self._join(f"job {name}", job.get("concurrency"), contexts)
        matrix = (job.get("strategy") or {}).get("matrix")
        entries: list[dict[str, Any]] = [{}]
        if matrix is not None:
            expanded = expand(matrix, contexts)
            entries = list(expanded["include"])
        return [
            self._run_one(workflow, name, job, {**contexts, "matrix": m}, i) for i, m in enumerate(entries)
        ]

    def _run_one(
        self, workflow: dict[str, Any], name: str, job: dict[str, Any], contexts: dict[str, Any], index: int
    ) -> JobRun:
        contexts = {**contexts, "env": dict(contexts["env"]), "steps": {}}
        for key, value in (job.get("env") or {}).items():
            contexts["env"][key] = as_text(expand(value, contexts))
        workdir = self.tmp / "jobs" / f"{name}-{index}"
        workspace = workdir / "workspace"
        workspace.mkdir(parents=True)
        path_prefix: list[str] = []
        run = JobRun(name, "success", matrix=contexts["matrix"])
        ok = True
        for number, step in enumerate(job["steps"]):
            label = step.get("name") or step.get("uses") or step["run"].splitlines()[0]
            if not condition(step.get("if"), contexts, ok):
                run.steps.append(StepLog(label, skipped=True))
                continue
            env = {**contexts["env"]}
            for key, value in (step.get("env") or {}).items():
                env[key] = as_text(expand(value, contexts))
            if "uses" in step:
                with_ = {k: as_text(expand(v, contexts)) for k, v in (step.get("with") or {}).items()}
                log = self._action(step["uses"], with_, workspace, path_prefix, label)
                outputs: dict[str, str] = {}
            else:
                log, outputs, summary = self._shell(step["run"], env, workspace, workdir, path_prefix, number)
                log.name = label
                run.summary += summary
            log.env = env
            run.steps.append(log)
            step_ok = log.returncode == 0 or step.get("continue-on-error") is True
            if "id" in step:
                contexts["steps"][step["id"]] = {
                    "outputs": outputs,
                    "outcome": "success" if log.returncode == 0 else "failure",
                    "conclusion": "success" if step_ok else "failure",
                }
            ok = ok and step_ok
        run.result = "success" if ok else "failure"
        run.outputs = {k: as_text(expand(v, contexts)) for k, v in (job.get("outputs") or {}).items()}
        return run

    def _shell(
        self,
        script: str,
        env: dict[str, str],
        workspace: Path,
        workdir: Path,
        path_prefix: list[str],
        number: int,
    ) -> tuple[StepLog, dict[str, str], str]:
        files = workdir / f"step-{number}"
        files.mkdir()
        output, summary = files / "output", files / "summary"
        output.touch()
        summary.touch()
        body = files / "script.sh"
        body.write_text(script, encoding="utf-8")
        full_env = {
            **os.environ,
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_REPOSITORY": self.repository,
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": str(self.event_path),
            "GITHUB_RUN_ID": self.run_id,
            "GITHUB_WORKFLOW_REF": self.workflow_ref(),
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_API_URL": self.api_url,
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "RUNNER_TEMP": str(workdir),
            "PATH": os.pathsep.join([*path_prefix, os.environ.get("PATH", "")]),
            # Offline: pip may only confirm that the test venv already holds requirements.txt.
            "PIP_NO_INDEX": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            **env,
        }
        if _install_key(script, env) in _INSTALLED:
            log = StepLog(
                "", skipped=False, returncode=0, stdout="(already installed in this test session)\n"
            )
            return log, {}, ""
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-e", str(body)],
            cwd=workspace,
            env=full_env,
            capture_output=True,
            text=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if ("pip install" in script or "install.sh" in script) and done.returncode == 0:
            _INSTALLED.add(_install_key(script, env))
        outputs = {}
        for line in output.read_text(encoding="utf-8").splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                outputs[key] = value
        log = StepLog("", skipped=False, returncode=done.returncode, stdout=done.stdout, stderr=done.stderr)
        return log, outputs, summary.read_text(encoding="utf-8")

    def _action(
        self, uses: str, with_: dict[str, str], workspace: Path, path_prefix: list[str], label: str
    ) -> StepLog:
        action = uses.split("@", 1)[0]
        if action == "actions/checkout":
            ref = with_.get("ref", "")
            if ref == self.head_sha and self.head is not None:
                tree = self.head
            elif ref in ("", self.sha, self.head_sha):
                tree = self.project
            else:
                return StepLog(label, skipped=False, returncode=1, stderr=f"unknown ref {ref!r}\n")
            dest = workspace / with_.get("path", "")
            shutil.copytree(tree, dest, ignore=NOT_CHECKED_OUT, dirs_exist_ok=True)
        elif action == "actions/setup-python":
            path_prefix.insert(0, str(Path(sys.executable).parent))
        elif action == "actions/upload-artifact":
            source = workspace / with_["path"]
            if not source.exists() or (source.is_dir() and not any(source.iterdir())):
                if with_.get("if-no-files-found", "warn") == "error":
                    return StepLog(label, skipped=False, returncode=1, stderr=f"no files at {source}\n")
                return StepLog(label, skipped=False, returncode=0, stdout=f"warning: no files at {source}\n")
            target = self.artifacts / with_["name"]
            if target.exists():
                if with_.get("overwrite") != "true":
                    return StepLog(
                        label, skipped=False, returncode=1, stderr=f"artifact {target.name} exists\n"
                    )
                shutil.rmtree(target)
            if source.is_file():  # one file: the artifact holds it under its own name
                target.mkdir(parents=True)
                shutil.copy2(source, target / source.name)
            else:
                shutil.copytree(source, target)
        elif action == "actions/download-artifact":
            dest = workspace / with_.get("path", ".")
            store = self.artifacts
            if with_.get("run-id"):  # another workflow run's artifact: needs its token (actions: read)
                if with_["run-id"] not in self.earlier or not with_.get("github-token"):
                    return StepLog(label, skipped=False, returncode=1, stderr=f"no run {with_['run-id']}\n")
                store = self.earlier[with_["run-id"]]
            if with_.get("name"):
                source = store / with_["name"]
                if not source.is_dir():
                    return StepLog(label, skipped=False, returncode=1, stderr=f"no artifact {source.name}\n")
                shutil.copytree(source, dest, dirs_exist_ok=True)
            else:
                for artifact in sorted(self.artifacts.iterdir()):
                    if fnmatch.fnmatch(artifact.name, with_.get("pattern", "*")):
                        shutil.copytree(artifact, dest / artifact.name, dirs_exist_ok=True)
        elif action in ("actions/cache/restore", "actions/cache/save"):
            return self._cache(action.rsplit("/", 1)[1], with_, workspace, label)
        else:
            raise AssertionError(f"the dry run has no local equivalent for {uses}")
        return StepLog(label, skipped=False, returncode=0)

    def _cache(self, verb: str, with_: dict[str, str], workspace: Path, label: str) -> StepLog:
        """GitHub's cache, one directory per key: `restore` takes the exact key, else the newest
        entry whose key starts with one of `restore-keys`; `save` never replaces an entry (a key is
        written once) and, like the action, only warns when there is nothing to save."""
        assert self.caches is not None
        self.caches.mkdir(parents=True, exist_ok=True)  # a store shared between runners may be new
        path = workspace / with_["path"]
        key = with_["key"]
        if verb == "save":
            if not path.exists():
                return StepLog(label, skipped=False, returncode=0, stdout=f"warning: no files at {path}\n")
            if not (self.caches / key).exists():
                shutil.copytree(path, self.caches / key / "content")
            return StepLog(label, skipped=False, returncode=0, stdout=f"saved {key}\n")
        prefixes = [k.strip() for k in with_.get("restore-keys", "").splitlines() if k.strip()]
        found = self.caches / key if (self.caches / key).exists() else None
        if found is None:
            entries = sorted(self.caches.iterdir(), key=lambda e: e.stat().st_mtime_ns, reverse=True)
            found = next((e for p in prefixes for e in entries if e.name.startswith(p)), None)
        if found is None:
            return StepLog(label, skipped=False, returncode=0, stdout=f"cache not found for {key}\n")
        shutil.copytree(found / "content", path, dirs_exist_ok=True)
        return StepLog(label, skipped=False, returncode=0, stdout=f"restored {found.name}\n")


def _needs(job: dict[str, Any]) -> list[str]:
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


def _install_key(script: str, env: dict[str, str]) -> str:
    """An install step is run once per test session for each harness it installs."""
    return f"{script.strip()}\0{env.get('HARNESS', '')}"
