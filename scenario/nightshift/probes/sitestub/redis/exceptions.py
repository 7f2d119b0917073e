"""The exception names agent code commonly catches from `redis.exceptions`."""


class RedisError(Exception):
    pass


class ConnectionError(RedisError):
    pass


class TimeoutError(RedisError):
    pass


class ResponseError(RedisError):
    pass
