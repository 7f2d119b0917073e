"""Authentication settings, read by the auth service at start-up."""

SESSION_TTL_MIN = 15
MAX_LOGIN_ATTEMPTS = 5
LOG_LEVEL = "INFO"
