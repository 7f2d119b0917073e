"""Scenario-owned checks: loaded from the scenario's folder, namespaced, never leaking between scenarios."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from evals.cli import main
from evals.core.errors import BadInputError
from evals.grade.checks import MODULES, VOCABULARY
from evals.grade.registry import Registry, RegistryError, check, load_scenario_checks
from evals.grade.rubric import load_rubric
from tests.support.paths import ROOT

RUBRIC = """\
max_points: 1
pass_threshold: 1
categories: {{code: {{title: Code}}}}
criteria:
  - id: A1
    title: one check
    category: code
    parts:
      - id: A1
        points: 1
        checks:
          - {{check: {check}, with: {params}}}
"""

SAYS = '''\
from evals.grade.registry import CheckResult, GradeContext, check


@check("says")
def says(ctx: GradeContext, word: str) -> CheckResult:
    """Passes with `word` as its detail: enough to tell two scenarios' checks apart."""
    return CheckResult(True, "{owner}: " + word)
'''


def scenario(tmp_path: Path, name: str, modules: dict[str, str], check: str = "", params: str = "{}") -> Path:
    folder = tmp_path / name
    (folder / "checks").mkdir(parents=True)
    for file, source in modules.items():
        (folder / "checks" / file).write_text(textwrap.dedent(source), encoding="utf-8")
    if check:
        (folder / "rubric.yaml").write_text(RUBRIC.format(check=check, params=params), encoding="utf-8")
    return folder


def test_two_scenarios_may_use_one_short_name_each_in_its_own_namespace(tmp_path: Path) -> None:
    alpha = scenario(
        tmp_path, "alpha", {"own.py": SAYS.replace("{owner}", "alpha")}, "alpha.says", "{word: hi}"
    )
    beta = scenario(tmp_path, "beta", {"own.py": SAYS.replace("{owner}", "beta")}, "beta.says", "{word: hi}")
    a, b = load_rubric(alpha).registry, load_rubric(beta).registry
    assert "alpha.says" in a.checks and "beta.says" not in a.checks
    assert "beta.says" in b.checks and "alpha.says" not in b.checks
    assert a.checks["alpha.says"](None, word="x").detail == "alpha: x"
    assert b.checks["beta.says"](None, word="x").detail == "beta: x"
    assert not any(name.startswith(("alpha.", "beta.")) for name in VOCABULARY.checks)


def test_a_rubric_cannot_name_another_scenarios_check(tmp_path: Path) -> None:
    scenario(tmp_path, "alpha", {"own.py": SAYS.replace("{owner}", "alpha")})
    beta = scenario(tmp_path, "beta", {"own.py": SAYS.replace("{owner}", "beta")}, "alpha.says", "{word: hi}")
    unknown = r"rubric\.yaml:\d+:\d+: A1: unknown check 'alpha\.says'.*beta\.says"
    with pytest.raises(BadInputError, match=unknown):
        load_rubric(beta)


def test_a_scenario_cannot_replace_a_package_check(tmp_path: Path) -> None:
    clash = SAYS.replace('@check("says")', '@check("constant_equals")')
    folder = scenario(tmp_path, "python", {"own.py": clash}, "python.constant_equals", "{word: hi}")
    with pytest.raises(BadInputError, match=r"'python\.constant_equals' is defined twice"):
        load_rubric(folder)
    assert VOCABULARY.checks["python.constant_equals"].__module__ == "evals.grade.checks.python"


def test_two_modules_of_one_scenario_claiming_one_name_are_bad_input(tmp_path: Path) -> None:
    folder = scenario(tmp_path, "alpha", {"a.py": SAYS, "b.py": SAYS})
    with pytest.raises(BadInputError, match=r"'alpha\.says' is defined twice: .*a\.py.* and .*b\.py"):
        load_scenario_checks(folder)


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("def broken(:\n    pass\n", "SyntaxError"),
        ("import module_that_does_not_exist\n", "ModuleNotFoundError"),
        (SAYS.replace('@check("says")', '@check("alpha.says")'), "without dots"),
    ],
    ids=["syntax-error", "bad-import", "dotted-name"],
)
def test_a_check_module_that_does_not_load_is_bad_input_naming_the_file(
    tmp_path: Path, source: str, why: str
) -> None:
    folder = scenario(tmp_path, "alpha", {"fine.py": SAYS, "broken.py": source}, "alpha.says", "{word: hi}")
    with pytest.raises(BadInputError) as caught:
        load_rubric(folder)
    assert str(folder / "checks" / "broken.py") in str(caught.value) and why in str(caught.value)


def test_bad_parameters_for_a_scenario_check_are_rejected_at_load(tmp_path: Path) -> None:
    folder = scenario(tmp_path, "alpha", {"own.py": SAYS}, "alpha.says", "{wurd: hi}")
    missing = r"rubric\.yaml:\d+:\d+: A1: check alpha\.says: missing a required argument: 'word'"
    with pytest.raises(BadInputError, match=missing):
        load_rubric(folder)


def test_each_load_reads_the_modules_afresh_and_leaves_no_bytecode(tmp_path: Path) -> None:
    folder = scenario(tmp_path, "alpha", {"own.py": SAYS.replace("{owner}", "first")})
    before = load_scenario_checks(folder)
    (folder / "checks" / "own.py").write_text(SAYS.replace("{owner}", "the second version"), encoding="utf-8")
    after = load_scenario_checks(folder)
    assert before.checks["alpha.says"](None, word="x").detail == "first: x"
    assert after.checks["alpha.says"](None, word="x").detail == "the second version: x"
    assert not (folder / "checks" / "__pycache__").exists()


def test_a_scenario_without_a_checks_folder_uses_the_vocabulary_alone(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "rubric.yaml").write_text(
        RUBRIC.format(check="repo.pull_request_opened", params="{}"), encoding="utf-8"
    )
    assert load_rubric(folder).registry == VOCABULARY


def test_a_check_imported_from_the_package_is_not_registered_again(tmp_path: Path) -> None:
    reuse = SAYS + "\nfrom evals.grade.checks.python import constant_equals  # noqa: E402, F401\n"
    registry = load_scenario_checks(scenario(tmp_path, "alpha", {"own.py": reuse}))
    assert list(registry.checks) == ["alpha.says"]


def test_the_package_vocabulary_is_one_namespace_per_module_and_knows_no_scenario() -> None:
    modules = {m.__name__.rsplit(".", 1)[-1] for m in MODULES}
    names = [*VOCABULARY.checks, *VOCABULARY.evidence]
    assert {n.split(".")[0] for n in names} == modules
    for name, fn in VOCABULARY.checks.items():
        assert fn.__module__ == f"evals.grade.checks.{name.split('.')[0]}", name
    assert not [n for n in names if n.startswith(("nightshift.", "trial-run.", "probe."))]
    assert {"nightshift.buffers_do_not_grow", "nightshift.clients_share_one_pool"} <= set(
        load_rubric(ROOT / "scenario" / "nightshift").registry.checks
    )


def test_merging_registries_refuses_a_taken_name() -> None:
    @check("twice")
    def first(ctx: object) -> None: ...

    @check("twice")
    def second(ctx: object) -> None: ...

    one = Registry(checks={"x.twice": first})
    assert one.merged(Registry(checks={"x.twice": first})).checks == {"x.twice": first}
    with pytest.raises(RegistryError, match="defined twice"):
        one.merged(Registry(checks={"x.twice": second}))


def test_a_broken_scenario_check_exits_2_naming_the_file_before_any_trial(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = project / "scenario" / "trial-run" / "checks" / "broken.py"
    broken.parent.mkdir()
    broken.write_text("def broken(:\n    pass\n", encoding="utf-8")
    out = project / "runs" / "x"
    code = main(["run", "--scenario", "trial-run", "--agent", "replay:reference", "--out", str(out)])
    assert code == 2
    assert f"{broken}: cannot load the check module: SyntaxError" in capsys.readouterr().err
    assert not out.exists()
