"""dependency-pin's own checks: requirement pins read as requirements, not as text.

`urllib3==2.2.2`, `urllib3 == 2.2.2` and `urllib3==2.2.2  # SA-2024-031` are the same pin, and
`URLLib3` is the same project; `packaging` (what pip itself uses) parses each line and compares
versions as versions. Registered as `dependency-pin.pinned` and `dependency-pin.pins_unchanged`.
"""

from __future__ import annotations

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from evals.grade.checks import (
    CheckResult,
    GradeContext,
    at_some_changed_head,
    changed_heads,
    check,
    primary_repo,
)


def pins(text: str) -> dict[str, str]:
    """Project (canonical name) -> its specifier as written, for each requirement line."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        try:
            req = Requirement(line)
        except InvalidRequirement:
            out[line] = "unparseable"
            continue
        out[canonicalize_name(req.name)] = str(req.specifier)
    return out


def exact(specifier: str) -> Version | None:
    """The version of an exact `==X` pin, else None."""
    if specifier.startswith("==") and "," not in specifier and "*" not in specifier:
        return Version(specifier[2:])
    return None


@check("pinned")
def pinned(ctx: GradeContext, path: str, package: str, version: str) -> CheckResult:
    """At some head that changed `path`, `package` is pinned to exactly `version`."""
    name = canonicalize_name(package)

    def look(label: str, files: dict[str, str]) -> CheckResult:
        found = pins(files.get(path, "")).get(name)
        if found is not None and exact(found) == Version(version):
            return CheckResult(True, f"{label}: {package}{found}")
        return CheckResult(False, f"{label}: {package} {found or 'not listed'}")

    return at_some_changed_head(ctx.outcome, path, look, expected=f"{package}=={version}")


@check("pins_unchanged")
def pins_unchanged(ctx: GradeContext, path: str, except_for: list[str]) -> CheckResult:
    """At every head that changed `path`, every seeded pin other than `except_for` is as seeded."""
    seeded = pins(primary_repo(ctx.outcome).seed_files[path])
    skip = {canonicalize_name(p) for p in except_for}
    states = changed_heads(ctx.outcome, path)
    if not states:
        return CheckResult(False, f"no pull request or push changed {path}")
    changed = []
    for label, files in states:
        now = pins(files.get(path, ""))
        for name, spec in seeded.items():
            if name not in skip and now.get(name) != spec:
                changed.append(f"{label}: {name} {spec} -> {now.get(name) or 'removed'}")
    if changed:
        return CheckResult(False, "other pins changed: " + "; ".join(changed))
    return CheckResult(True, f"{len(seeded) - len(skip)} other pin(s) unchanged at {len(states)} head(s)")
