import pytest

from moderation.classifier import classify, is_flagged


def test_clearly_toxic_content_is_flagged():
    assert is_flagged(0.95)


def test_clean_content_is_not_flagged():
    assert not is_flagged(0.1)


def test_decision_carries_the_score():
    assert classify(0.5).score == 0.5


def test_scores_outside_range_are_rejected():
    with pytest.raises(ValueError):
        is_flagged(1.5)
