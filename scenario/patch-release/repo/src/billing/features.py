"""Feature switches for the billing service."""

# Bulk CSV export of invoices: unfinished, QA has not signed it off.
EXPORT_ENABLED = False
