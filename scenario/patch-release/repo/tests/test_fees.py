from decimal import Decimal

from billing.fees import GRACE_DAYS, fee_applies, late_fee


def test_no_fee_when_not_overdue():
    assert late_fee(Decimal("100.00"), 0) == Decimal("0.00")


def test_the_fee_starts_after_the_grace_period():
    assert not fee_applies(GRACE_DAYS)
    assert fee_applies(GRACE_DAYS + 1)
