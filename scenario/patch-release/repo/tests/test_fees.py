from decimal import Decimal

from billing.fees import late_fee


def test_no_fee_when_not_overdue():
    assert late_fee(Decimal("100.00"), 0) == Decimal("0.00")
