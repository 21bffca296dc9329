"""Test-run setup: the suite runs on the real PostgreSQL and Redis of the machine.

``make test`` passes DATABASE_URL and REDIS_URL; running pytest directly gets the same defaults
(tests/pytest_env.py, loaded before settings are read), which falls back to the embedded
PostgreSQL when that server does not answer and CI is not set.
Under CI an unreachable PostgreSQL or Redis fails the run; elsewhere tests that need Redis skip.
"""

import os

import pytest

from tests.pytest_env import postgres_unreachable

_unreachable: dict[str, str] = {}


def _check_redis() -> str | None:
    import redis

    try:
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        return str(exc)
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "redis: needs the real Redis server")


def pytest_sessionstart(session):
    postgres, redis_ = postgres_unreachable(os.environ["DATABASE_URL"]), _check_redis()
    if postgres:
        pytest.exit(f"PostgreSQL is needed for the tests and is unreachable: {postgres}", 3)
    if redis_:
        if os.environ.get("CI"):
            pytest.exit(f"Redis is needed under CI and is unreachable: {redis_}", 3)
        _unreachable["redis"] = redis_


def pytest_runtest_setup(item):
    if "redis" in item.keywords and "redis" in _unreachable:
        pytest.skip(f"Redis unreachable: {_unreachable['redis']}")
