"""Redis access for the results stream."""

import redis

from hydra.config import settings


def get_redis_client() -> redis.StrictRedis:
    """Return a Redis client for the results stream."""
    return redis.StrictRedis(
        host=settings.REDIS_HOST,
        port=settings.REDIS_PORT,
        db=settings.REDIS_DB,
        password=settings.HYDRA_REDIS_API_KEY,
        socket_timeout=5,
        decode_responses=True,
    )
