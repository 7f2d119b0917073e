"""Late fees on overdue invoices."""

from decimal import ROUND_HALF_UP, Decimal

LATE_FEE_PERCENT = 15.0  # per month overdue
GRACE_DAYS = 0  # days after the due date before a late fee is charged


def late_fee(amount: Decimal, months_overdue: int) -> Decimal:
    """The fee owed on an overdue `amount`, to the cent."""
    fee = amount * Decimal(str(LATE_FEE_PERCENT)) / 100 * months_overdue
    return fee.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def fee_applies(days_overdue: int) -> bool:
    """Whether an invoice this many days past its due date is charged a late fee."""
    return days_overdue > GRACE_DAYS
