from hydra.config import settings


def test_ports_are_integers():
    assert isinstance(settings.API_PORT, int)
    assert isinstance(settings.REDIS_PORT, int)
    assert isinstance(settings.METRICS_PORT, int)


def test_recommendation_engine_v2_is_off():
    assert settings.FEATURE_FLAG_RECS_V2 is False


def test_debug_is_a_boolean():
    assert isinstance(settings.DEBUG, bool)
