"""YAML is read with libyaml's loader for speed, without changing a value or a typo's message."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from evals.core.errors import BadInputError
from evals.core.loading import FastLoader, read_data
from evals.scenario.params import instance_zero
from tests.support.paths import ROOT


def test_the_c_loader_is_used_when_pyyaml_has_libyaml() -> None:
    assert FastLoader is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.parametrize(
    "path",
    [*sorted((ROOT / "scenario").rglob("*.yaml")), ROOT / "evals.yaml", ROOT / "pricing.yaml"],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_every_project_yaml_file_reads_as_the_python_loader_reads_it(path: Path) -> None:
    # A parameterised task's files are templates: what is parsed is their rendering (instance 0).
    parts = path.relative_to(ROOT).parts
    render = instance_zero(ROOT / "scenario" / parts[1]).render if parts[0] == "scenario" else str
    assert read_data(path, render) == yaml.safe_load(render(path.read_text(encoding="utf-8")))


def test_a_typo_is_reported_with_the_line_quoted_and_the_column_marked(tmp_path: Path) -> None:
    bad = tmp_path / "evals.yaml"
    bad.write_text("trials: 3\nsuite: [trial-run\n", encoding="utf-8")
    with pytest.raises(BadInputError) as caught:
        read_data(bad)
    message = str(caught.value)
    assert message.startswith(f"{bad}:") and "not valid YAML" in message
    assert "^" in message and "line 2" in message and "suite: [trial-run" in message
