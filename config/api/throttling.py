"""Request budgets per API key: reads, writes and bulk writes, counted apart in the cache.

Each key has one counter per scope and fixed window (``throttle:<scope>:<key id>:<window>``).
On Redis a request costs one round trip: INCR and EXPIRE sent together in one MULTI. Over the
budget the answer is a 429 in the API's error shape with ``Retry-After`` (seconds to the next
window). Throttling is a guard, not a gate: when the cache cannot count (Redis down, or a cache
that keeps nothing) requests go through, and the cache's breaker keeps them from waiting on it.
"""

import logging
import math
import time
from functools import lru_cache

from django.core.cache import caches
from redis.exceptions import RedisError
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config.cache import ResilientRedisCache

from .models import ApiKey
from .permissions import request_reads

logger = logging.getLogger(__name__)

# A rate's period by its first letter: "600/minute", "600/min" and "600/m" are the same.
PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@lru_cache(maxsize=64)
def rate_parse(rate: str | None) -> tuple[int, int] | None:
    """``"600/minute"`` → ``(600, 60)``; ``None`` (no limit) stays ``None``."""
    if rate is None:
        return None
    count, _, period = rate.partition("/")
    return int(count), PERIOD_SECONDS[period.strip()[0]]


def counter_incr(name: str, ttl: int) -> int | None:
    """Add one to the counter ``name`` and return its value; ``None`` if the cache cannot count."""
    cache = caches["default"]
    breaker = getattr(cache, "breaker", None)  # config.cache.ResilientRedisCache
    if breaker is not None and breaker.is_open():
        return None
    try:
        if isinstance(cache, ResilientRedisCache):
            return cache.incr_expiring(name, ttl)
        cache.add(name, 0, ttl)
        return cache.incr(name)
    except (RedisError, OSError) as exc:
        if breaker is not None:
            breaker.trip()
        logger.warning("cache unavailable, request not throttled: %s", exc)
        return None
    except ValueError:  # a cache that keeps nothing (DummyCache) cannot count
        return None


class ApiKeyRateThrottle(BaseThrottle):
    """Throttle by API key: ``read`` for reads (permissions.request_reads), ``write`` for the
    others, or the view's
    ``throttle_scope``; rates from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``. Requests without
    a key (the public health, schema and docs endpoints) are not counted."""

    timer = staticmethod(time.time)

    def get_scope(self, request, view) -> str:
        """The budget this request draws on."""
        scope = getattr(view, "throttle_scope", None)
        if scope:
            return scope
        return "read" if request_reads(request, view) else "write"

    def allow_request(self, request, view) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey):
            return True
        scope = self.get_scope(request, view)
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
        limit = rate_parse(rate)
        if limit is None:
            return True
        allowed, seconds = limit
        now = self.timer()
        window = int(now // seconds)
        # The counter outlives its window by a second so a slow request still finds it.
        used = counter_incr(f"throttle:{scope}:{key.pk}:{window}", ttl=seconds + 1)
        if used is None or used <= allowed:
            return True
        wait = max(1, math.ceil((window + 1) * seconds - now))
        raise exceptions.Throttled(
            wait=wait, detail=f"Too many {scope} requests for this API key (limit {rate})."
        )
