"""A Redis cache that reads an outage as cache misses.

Django's own Redis backend raises on a connection error, which would turn a cache outage into a
500. This backend catches Redis errors, logs them, answers as if the key were absent, and stops
trying for a short while so that every request does not pay the connect timeout while Redis is
down.
"""

import logging
import threading
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import Redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# After a failure, skip Redis for this long: long enough that a dead Redis costs one timeout per
# few seconds per process instead of one per call, short enough that caching resumes promptly.
RETRY_AFTER_SECONDS = 5.0


class Breaker:
    """Remembers when Redis last failed, per process."""

    def __init__(self):
        self._lock = threading.Lock()
        self._down_until = 0.0

    def is_open(self) -> bool:
        return time.monotonic() < self._down_until

    def trip(self) -> None:
        with self._lock:
            self._down_until = time.monotonic() + RETRY_AFTER_SECONDS

    def reset(self) -> None:
        with self._lock:
            self._down_until = 0.0


def _guarded(name: str, fallback):
    """Wrap RedisCache.<name> so a Redis error or an open breaker returns ``fallback(args)``."""
    method = getattr(RedisCache, name)

    def wrapper(self, *args, **kwargs):
        if self.breaker.is_open():
            return fallback(*args, **kwargs)
        try:
            return method(self, *args, **kwargs)
        except (RedisError, OSError) as exc:
            self.breaker.trip()
            logger.warning("cache unavailable, %s treated as a miss: %s", name, exc)
            return fallback(*args, **kwargs)

    wrapper.__name__ = name
    wrapper.__doc__ = f"{method.__doc__ or name} (a Redis outage reads as a miss)"
    return wrapper


def _default(key, default=None, *args, **kwargs):
    return default


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` for every call, which sets up its table of
    response callbacks each time (~0.1-0.3 ms, several calls a request). A ``redis.Redis`` is
    safe to share between threads (each command takes a connection from the pool), so one per
    pool is kept and reused."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        # Django's own choice of pool (the first server for writes).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # RedisCacheClient's private method, which django-stubs leave out; no public one gives the pool
        client = self._clients.get(id(pool))
        if client is None:
            # The class Django's client makes for every call (its _client is redis.Redis).
            client = self._clients[id(pool)] = Redis(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    """Django's RedisCache, but an unreachable Redis means a miss, never an exception."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self.breaker = Breaker()

    def incr_expiring(self, key, ttl: int, version=None) -> int:
        """Add one to ``key`` (from 0 when absent) and make it expire in ``ttl`` seconds, in one
        round trip: a fixed-window counter. Unlike the other methods a Redis error is raised,
        so that the caller knows nothing was counted."""
        key = self.make_and_validate_key(key, version=version)
        pipe = self._cache.get_client(key, write=True).pipeline()
        pipe.incr(key)
        pipe.expire(key, ttl)
        return pipe.execute()[0]

    get = _guarded("get", _default)
    set = _guarded("set", lambda *a, **k: None)
    add = _guarded("add", lambda *a, **k: False)
    touch = _guarded("touch", lambda *a, **k: False)
    delete = _guarded("delete", lambda *a, **k: False)
    has_key = _guarded("has_key", lambda *a, **k: False)
    get_many = _guarded("get_many", lambda *a, **k: {})
    set_many = _guarded("set_many", lambda *a, **k: [])
    delete_many = _guarded("delete_many", lambda *a, **k: None)
    clear = _guarded("clear", lambda *a, **k: False)
    incr = _guarded("incr", lambda key, delta=1, *a, **k: delta)
    get_or_set = _guarded(
        "get_or_set", lambda key, default, *a, **k: default() if callable(default) else default
    )
