"""Payment terms applied to new invoices."""

from datetime import date, timedelta

PAYMENT_DUE_DAYS = {{param:terms.old}}
REMINDER_DAYS_BEFORE_DUE = {{param:reminder.old}}
LATE_FEE_PERCENT = 1.5


def due_date(issued: date) -> date:
    """The day an invoice issued on `issued` falls due."""
    return issued + timedelta(days=PAYMENT_DUE_DAYS)


def reminder_date(issued: date) -> date:
    """The day the payment reminder for an invoice issued on `issued` goes out."""
    return due_date(issued) - timedelta(days=REMINDER_DAYS_BEFORE_DUE)
