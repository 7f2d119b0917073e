"""Request limits the API gateway enforces per client."""

REQUESTS_PER_MINUTE = 60
BURST = 10


def allowed(count_in_window: int) -> bool:
    """True while a client is within its per-minute budget plus the burst allowance."""
    return count_in_window < REQUESTS_PER_MINUTE + BURST
