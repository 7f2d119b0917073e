"""HTTP delivery settings for webhooks."""

DELIVERY_TIMEOUT_S = 5.0
MAX_RETRIES = 5


def backoff_s(attempt: int) -> float:
    """Seconds to wait before retry `attempt` (1-based): 1, 2, 4, 8, 16."""
    if not 1 <= attempt <= MAX_RETRIES:
        raise ValueError(f"attempt must be 1..{MAX_RETRIES}")
    return float(2 ** (attempt - 1))
