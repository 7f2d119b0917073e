"""`evals init`: adopt the gate in an existing repository, from the starter the package ships.

The starter is this project's own files, not a second copy of them: the agent (`agent/`), one
scenario of each tier, `pricing.yaml`, the canary (`canary/`), `evals.yaml` with a suite of those
three, the workflow scripts, and the two caller workflows, whose `uses:` of this repository's
reusable workflows is pinned to the gate's commit SHA and whose `harness:` installs the package at
that same commit. A
wheel carries them under `evals/_starter/` (setup.py copies them in at build time); a source checkout
(editable install) reads them where they are. Which files they are is written once, in
pyproject.toml's `[tool.evals-starter]`.

Nothing is overwritten without `force`: the whole plan is checked first, so a refused init writes
nothing. What GitHub needs that no file can hold (environments, reviewers, the label, the required
status, secrets) is the checklist the command prints.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import evals
from evals import __version__
from evals.authoring.provenance import DISTRIBUTION, origin
from evals.core.errors import BadInputError, InfrastructureError

BUNDLE = "_starter"
GATE_REF = re.compile(r"^(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)@(?P<sha>[0-9a-f]{40})$")
CALLERS = (".github/workflows/evals-pr.yml", ".github/workflows/evals-nightly.yml")
AGENT_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
GITIGNORE = "runs/\n.evals-cache/\n.env\n.venv/\n"
BASELINE_README = """\
# baseline/

`baseline.json` is the ruler a pull request is measured against. Until it exists a run passes with a
notice. Make the first one on the default branch and commit it:

    evals run --trials 10 --out runs/first
    evals baseline bless --run runs/first
    git add baseline/baseline.json && git commit -m "First baseline"

Later ones come from the nightly's `candidate-baseline` artifact, reviewed like code.
"""


@dataclass(frozen=True)
class Gate:
    """The commit of the gate the scaffolded workflows call and install: `owner/repo@sha`."""

    repo: str
    sha: str

    @classmethod
    def parse(cls, text: str) -> Gate:
        match = GATE_REF.match(text.strip())
        if not match:
            raise BadInputError(
                f"--gate {text!r}: expected OWNER/REPO@SHA with the full 40-character commit SHA "
                "(the workflows are pinned by SHA, never by a branch or tag)"
            )
        return cls(match["repo"], match["sha"])

    @property
    def harness(self) -> str:
        return f"{DISTRIBUTION} @ git+https://github.com/{self.repo}@{self.sha}"


def installed_gate() -> Gate | None:
    """The gate this package comes from (evals/authoring/provenance.py: pip's record of a git install,
    the wheel's build record, or the checkout an editable install runs from); None when it cannot name
    both the repository and the commit."""
    found = origin()
    if found is None or found.repository is None or found.commit is None:
        return None
    return Gate(found.repository, found.commit)


def starter_root() -> Path:
    """Where the starter's files are: the wheel's bundle, else the source checkout itself."""
    package = Path(evals.__file__).resolve().parent
    if (package / BUNDLE).is_dir():
        return package / BUNDLE
    source = package.parent
    if (source / "pyproject.toml").is_file():
        return source
    raise InfrastructureError(
        f"this installation of {DISTRIBUTION} has no starter files ({package / BUNDLE})"
    )


def starter_manifest(source: Path) -> tuple[list[str], list[str]]:
    """The starter's paths (files or folders) and its scenarios, from pyproject.toml."""
    table = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["evals-starter"]
    return list(table["paths"]), list(table["scenarios"])


def starter_files(root: Path) -> dict[str, Path]:
    """Every starter file by its path in the adopting repository."""
    if root.name == BUNDLE:
        candidates = [p for p in root.rglob("*") if p.is_file()]
    else:
        paths, scenarios = starter_manifest(root)
        candidates = []
        for rel in [*paths, *(f"scenario/{name}" for name in scenarios)]:
            path = root / rel
            candidates.extend([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()))
    return {
        p.relative_to(root).as_posix(): p
        for p in candidates
        if "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def starter_scenarios(files: dict[str, Path]) -> list[str]:
    return sorted({rel.split("/")[1] for rel in files if rel.startswith("scenario/")})


def configure(text: str, scenarios: list[str], agent: str | None) -> str:
    """evals.yaml for the adopting repository: the gate settings as this project keeps them, the
    bundled scenarios as the suite `starter` (what PRs run) and as `full` (what the nightly runs:
    scripts/plan_shards.sh plans the `full` suite), and the agent spec when one is given."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    skipping = False
    for line in lines:
        if skipping:
            if line.startswith((" ", "\t", "#")) or not line.strip():
                continue
            skipping = False
        if line.startswith("suite:"):
            out.append("suite: starter              # what `run` uses without --scenario (and PRs)\n")
        elif line.startswith("suites:"):
            out.append(
                "suites:                     # named task sets: add yours (evals scenarios lists them)\n"
            )
            out.append("  starter:                  # PRs and the offline default run\n")
            out.extend(f"    - {name}\n" for name in scenarios)
            out.append("  full:                     # the nightly: every task (add yours to both)\n")
            out.extend(f"    - {name}\n" for name in scenarios)
            skipping = True
        elif line.startswith("agent:") and agent is not None:
            out.append(f"agent: {agent}\n")
        else:
            out.append(line)
    result = "".join(out)
    if "suite: starter" not in result or "  full:" not in result:
        raise InfrastructureError("the bundled evals.yaml has no `suite:`/`suites:` to replace")
    return result


def pin_caller(text: str, gate: Gate) -> str:
    """A caller workflow for the adopting repository: this project's own caller, with `uses:` of the
    local reusable workflow pinned to the gate's commit and `harness:` to the same commit."""
    pinned, uses = re.subn(
        r"uses: \$/(\.github/workflows/[\w.-]+\.yml)",
        lambda m: f"uses: {gate.repo}/{m[1]}@{gate.sha} # {DISTRIBUTION} {__version__}",
        text,
    )
    pinned, harness = re.subn(r'harness: ""', f'harness: "{gate.harness}"', pinned)
    if uses != 1 or harness != 1:
        raise InfrastructureError("a bundled caller workflow lost its `uses: $/...` or `harness:` line")
    return pinned


AGENT_STUB = '''"""The agent under test: `evals run` calls `{name}(prompts, toolset)` once per trial.

A stub written by `evals init` so the first `evals run` works; it does nothing, so it scores 0. Replace
its body with your agent: it gets the task's prompts and a toolset bound to a fresh world, and works
through Composio-shaped tool calls, `await toolset.call(SLUG, args)` answering
{{"data", "successful", "error"}} (the gate's docs/agents.md, "Your own agent").
"""

from evals.agents import AgentPrompts, Toolset


async def {name}(prompts: AgentPrompts, toolset: Toolset) -> str:
    tools = [tool["name"] for tool in toolset.schemas()]
    return f"did nothing yet: {{len(tools)}} tools were offered for: {{prompts.task[:80]}}"
'''


def agent_stub(spec: str) -> tuple[str, str]:
    """(path, text) of a stub module for `--agent MODULE:CALLABLE`, written only when it is missing."""
    module, name = spec.split(":", 1)
    return module.replace(".", "/") + ".py", AGENT_STUB.format(name=name)


@dataclass(frozen=True)
class Plan:
    """What init writes: each path in the target repository and its text or source file; `stubs`
    only where nothing is there yet (a team's own agent module is never replaced)."""

    texts: dict[str, str]
    copies: dict[str, Path]
    stubs: dict[str, str] = field(default_factory=dict)

    def paths(self) -> list[str]:
        return sorted([*self.texts, *self.copies])


def plan(gate: Gate, agent: str | None = None) -> Plan:
    root = starter_root()
    files = starter_files(root)
    scenarios = starter_scenarios(files)
    if agent is not None and not AGENT_SPEC.match(agent):
        raise BadInputError(f"--agent {agent!r}: expected module:callable (e.g. my_agent:run)")
    texts = {
        "evals.yaml": configure(files.pop("evals.yaml").read_text(encoding="utf-8"), scenarios, agent),
        "baseline/README.md": BASELINE_README,
    }
    for caller in CALLERS:
        texts[caller] = pin_caller(files.pop(caller).read_text(encoding="utf-8"), gate)
    stubs: dict[str, str] = {}
    if agent is not None:
        files = {rel: p for rel, p in files.items() if not rel.startswith("agent/")}
        stubs = dict([agent_stub(agent)])
    return Plan(texts, files, stubs)


def apply(target: Path, todo: Plan, force: bool) -> list[str]:
    """Write the plan into target; refuse (writing nothing) when a file exists and not force.
    .gitignore gets the run folders appended when it lacks them, never replaced."""
    existing = [rel for rel in todo.paths() if (target / rel).exists()]
    if existing and not force:
        shown = ", ".join(existing[:8]) + (f" and {len(existing) - 8} more" if len(existing) > 8 else "")
        raise BadInputError(f"evals init would overwrite {shown} in {target}; pass --force to replace them")
    for rel, text in todo.texts.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(text, encoding="utf-8")
    for rel, source in todo.copies.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_bytes(source.read_bytes())
        (target / rel).chmod(source.stat().st_mode & 0o777)
    written = todo.paths()
    for rel, text in todo.stubs.items():
        if not (target / rel).exists():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_text(text, encoding="utf-8")
            written.append(rel)
    ignore = target / ".gitignore"
    present = ignore.read_text(encoding="utf-8").splitlines() if ignore.is_file() else []
    missing = [line for line in GITIGNORE.splitlines() if line not in present]
    if missing:
        prefix = "" if not present or ignore.read_text(encoding="utf-8").endswith("\n") else "\n"
        with ignore.open("a", encoding="utf-8") as out:
            out.write(prefix + "".join(f"{line}\n" for line in missing))
    return sorted(written)


CHECKLIST = """\
Settings the trust model needs (the gate's docs/github.md); no file can hold them:
  1. Environment `evals`: deployment branches = the default branch only; required reviewers
     (a person or team approves each PR run). Its secrets, and the only steps that receive them:
       ANTHROPIC_API_KEY   the *Agent* step (PR `evals` job, nightly shards)
       EVALS_GITHUB_TOKEN  live world only: *Agent* and *Clean up live resources*
       NOTION_TOKEN        live world only: *Agent* and *Clean up live resources*
       COMPOSIO_API_KEY    live world only: *Seed* and *Agent*
  2. Environment `evals-status`: the default branch only, no reviewers; optional secret
     EVALS_APP_PRIVATE_KEY (with the variable EVALS_APP_ID) for the App that posts `agent-evals`.
  3. The label `run-evals` (only people with triage rights can add it).
  4. Branch protection of the default branch: require the status check `agent-evals`
     (from the App, when you made one); CODEOWNERS for .github/ with code-owner review.
  5. The first baseline: see baseline/README.md, then commit baseline/baseline.json.
The workflows call {repo} at {sha}.
To move to a newer gate: install it, run `evals init --force` (it pins the new commit), review the diff.
"""


def checklist(gate: Gate) -> str:
    return CHECKLIST.format(repo=gate.repo, sha=gate.sha)
