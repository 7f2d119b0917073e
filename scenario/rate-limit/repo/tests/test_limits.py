from gateway.limits import BURST, REQUESTS_PER_MINUTE, allowed


def test_burst_is_allowed_on_top_of_the_budget():
    assert allowed(REQUESTS_PER_MINUTE + BURST - 1)
    assert not allowed(REQUESTS_PER_MINUTE + BURST)
