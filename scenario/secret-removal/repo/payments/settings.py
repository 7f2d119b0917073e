"""Payments settings."""

PAYMENTS_API_URL = "https://payments.acme.example/v2"
PAYMENTS_API_KEY = "pk_live_7Qm2Xv9Lr4Tz8Nc1Hb6Ws3Kd"
PAYMENTS_TIMEOUT_S = 10
