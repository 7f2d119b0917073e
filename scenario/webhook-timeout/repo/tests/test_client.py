from webhooks.client import backoff_s


def test_backoff_doubles():
    assert [backoff_s(a) for a in range(1, 6)] == [1.0, 2.0, 4.0, 8.0, 16.0]
