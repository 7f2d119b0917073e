"""Payment terms applied to new invoices."""

from datetime import date, timedelta

PAYMENT_DUE_DAYS = 14
LATE_FEE_PERCENT = 1.5


def due_date(issued: date) -> date:
    """The day an invoice issued on `issued` falls due."""
    return issued + timedelta(days=PAYMENT_DUE_DAYS)
