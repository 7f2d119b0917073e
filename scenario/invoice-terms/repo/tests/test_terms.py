from datetime import date, timedelta

from billing import terms


def test_due_date_is_the_terms_after_issue():
    issued = date(2025, 11, 3)
    assert terms.due_date(issued) - issued == timedelta(days=terms.PAYMENT_DUE_DAYS)


def test_reminder_goes_out_before_the_due_date():
    issued = date(2025, 11, 3)
    lead = terms.due_date(issued) - terms.reminder_date(issued)
    assert lead == timedelta(days=terms.REMINDER_DAYS_BEFORE_DUE) and lead.days > 0


def test_late_fee_is_unchanged():
    assert terms.LATE_FEE_PERCENT == 1.5
