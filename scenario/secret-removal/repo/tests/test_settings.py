from payments import settings


def test_the_provider_is_called_over_https():
    assert settings.PAYMENTS_API_URL.startswith("https://")


def test_requests_time_out_quickly():
    assert 0 < settings.PAYMENTS_TIMEOUT_S <= 30


def test_a_key_is_configured():
    assert settings.{{param:setting}}
