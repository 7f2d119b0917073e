"""Settings for the request-log purge job (ticket DATA-77 tracks changes to them)."""

RETENTION_DAYS = 30
DELETE_BATCH_ROWS = 5_000  # rows deleted per transaction
ANONYMISE_IPS = True
