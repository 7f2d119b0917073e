import pytest

from billing.vat import gross


def test_zero_stays_zero():
    assert gross(0.0) == 0.0


def test_negative_amounts_are_rejected():
    with pytest.raises(ValueError):
        gross(-1.0)
