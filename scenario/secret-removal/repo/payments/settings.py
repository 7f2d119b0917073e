"""Payments settings."""

PAYMENTS_API_URL = "https://payments.acme.example/v2"
{{param:setting}} = "{{param:key}}"
PAYMENTS_TIMEOUT_S = 10
