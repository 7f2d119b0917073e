"""labels.yaml: a value a ` #` comment marker cut short is rejected, and every bundled `why` reads in full."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from evals.core.errors import BadInputError
from evals.grade.labels import cut_by_comment, load_labels
from tests.support.paths import ROOT

BUNDLED = sorted((ROOT / "scenario").glob("*/labels.yaml"))
SHA = "a" * 64


def test_a_why_cut_at_a_hash_is_rejected_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "labels.yaml").write_text(
        f"labels:\n  - part: T5\n    evidence_sha256: {SHA}\n    score: 1\n    by: me\n"
        "    why: The #131 row gives the root cause\n",
        encoding="utf-8",
    )
    with pytest.raises(BadInputError, match=r"line 6: 'The' is followed by '#131 row"):
        load_labels(tmp_path)


def test_a_quoted_hash_and_a_real_comment_on_its_own_line_are_fine(tmp_path: Path) -> None:
    (tmp_path / "labels.yaml").write_text(
        f"# a comment\nlabels:\n  - part: T5\n    evidence_sha256: {SHA}\n    score: 1\n    by: me\n"
        '    why: "The #131 row gives the root cause"\n',
        encoding="utf-8",
    )
    labels = load_labels(tmp_path)
    assert labels[("T5", SHA)].why == "The #131 row gives the root cause"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.parent.name)
def test_every_bundled_why_is_read_in_full(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert cut_by_comment(text) == []
    for label in yaml.safe_load(text)["labels"]:
        why = label["why"]
        # each reason is a full sentence naming the replay it was given for
        assert len(why.split()) >= 6 and why.rstrip().endswith((".", ")")), why
        assert "(replay" in why, why
    assert load_labels(path.parent)


def test_a_labels_file_that_is_not_yaml_is_bad_input_naming_the_line(tmp_path: Path) -> None:
    (tmp_path / "labels.yaml").write_text("labels:\n  - part: [\n", encoding="utf-8")
    with pytest.raises(BadInputError, match=r"labels\.yaml:3:1: not valid YAML"):
        load_labels(tmp_path)
