"""Checks on configuration files the agent writes, parsed as what they are: `.env` templates.

An env template is read with python-dotenv's own parser (`export`, quotes, inline `# comments`,
blank lines), so order, comments and quoting do not matter; what matters is that every variable is
declared and that none carries a real value. When the rubric gives each variable's placeholder (the
Deployment Spec's own table), the value must be that placeholder; given only the names, any
placeholder in angle brackets a reader takes for one is accepted (`<db-url>`, `<DB_URL>`, `<your
slack token>`), and nothing else (a token-shaped value, an empty value): the form a task's prompt
asks for. Where the task names no form ("placeholders only"), `placeholder: common` accepts every
form a reviewer reads as "fill this in" (COMMON): angle brackets, `your-mail-api-url`,
`YOUR_API_KEY`, `changeme`, `xxx`, `...`, `${MAIL_API_KEY}`, a host under `example.com`, or no
value at all; a token-, URL- or host-shaped value is still refused. `${VAR}` is read as written
(no interpolation: the grader's own environment must not decide a grade). Reasons quote the
file's own line.
"""

from __future__ import annotations

import io
import re

from evals.grade.checks.common import heads
from evals.grade.registry import CheckResult, GradeContext, check

PLACEHOLDER = r"^<[A-Za-z0-9][A-Za-z0-9 _.-]*>$"
COMMON = (
    r"(?i)^(|<[^<>]*[A-Za-z0-9][^<>]*>|your[-_ .]?[a-z0-9][a-z0-9 _.-]*|(change|replace)[-_ ]?(me|it)"
    r"|fill[-_ ]?(me[-_ ]?)?in|todo|tbd|placeholder|x{3,}|\*{3,}|\.{3}|…"
    r"|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*"
    r"|([a-z][a-z0-9+.-]*://)?([^\s/@]+@)?([a-z0-9-]+\.)*example\.(com|org|net)(:\d+)?(/\S*)?)$"
)
NAMED = {"common": COMMON}


def parse_env(text: str) -> dict[str, str]:
    """NAME -> value as python-dotenv reads the file (a name without `=` maps to ''). Imported here:
    `compare` imports the vocabulary to validate rubrics and never parses a .env file."""
    from dotenv import dotenv_values

    values = dotenv_values(stream=io.StringIO(text), interpolate=False)
    return {name: value or "" for name, value in values.items()}


def _line(text: str, name: str) -> str:
    """The file's own line that declares `name`, for the reason."""
    pattern = re.compile(rf"^\s*(export\s+)?{re.escape(name)}\s*=")
    return next((line.strip() for line in text.splitlines() if pattern.match(line)), name)


@check("env_file_has_placeholders")
def env_file_has_placeholders(
    ctx: GradeContext, path: str, variables: list[str] | dict[str, str], placeholder: str = PLACEHOLDER
) -> CheckResult:
    """At some head, `path` names every variable, each with its placeholder and no real value.

    `variables` is either the names (any `placeholder`-shaped value passes) or name -> the spec's
    own placeholder for it (that exact value passes). `placeholder` is a regex, or `common`.
    """
    notes = []
    pattern = re.compile(NAMED.get(placeholder, placeholder))
    wanted = variables if isinstance(variables, dict) else dict.fromkeys(variables, "")
    for label, files in heads(ctx.outcome):
        if path not in files:
            continue
        text = files[path]
        env = parse_env(text)
        missing = [v for v in wanted if v not in env]

        wrong = [
            v
            for v in wanted
            if v in env and not (env[v] == wanted[v] if wanted[v] else pattern.match(env[v]))
        ]
        if not missing and not wrong:
            kind = "the spec's placeholders" if isinstance(variables, dict) else "placeholders"
            return CheckResult(True, f"{label}: {path} has all {len(wanted)} variables with {kind}")
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if wrong:
            shown = "; ".join(
                f"`{_line(text, v)}`" + (f" (spec: {wanted[v]})" if wanted[v] else "") for v in wrong[:4]
            )
            more = f" and {len(wrong) - 4} more" if len(wrong) > 4 else ""
            problems.append(f"not the placeholder: {shown}{more}")
        notes.append(f"{label}: {'; '.join(problems)}")
    return CheckResult(False, "; ".join(notes) or f"no head has {path}")
