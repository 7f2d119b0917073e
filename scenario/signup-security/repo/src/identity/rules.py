"""Password and log-in rules for Acme accounts."""

MIN_PASSWORD_LENGTH = 8
MAX_FAILED_LOGINS = 20  # consecutive failures before the account is locked
# Accounts that may sign in without a second factor.
MFA_EXEMPT_ACCOUNTS: list[str] = []


def password_ok(password: str) -> bool:
    """Whether a new password is long enough."""
    return len(password) >= MIN_PASSWORD_LENGTH


def locked(failed_logins: int) -> bool:
    """Whether the account is locked after this many consecutive failed log-ins."""
    return failed_logins >= MAX_FAILED_LOGINS


def needs_mfa(account: str) -> bool:
    """Whether the account must present a second factor."""
    return account not in MFA_EXEMPT_ACCOUNTS
