"""The Redis cache reads an outage as misses, never as errors."""

import socket

import pytest
from django.core.cache import caches

from config.cache import ResilientRedisCache


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def make_cache(location: str) -> ResilientRedisCache:
    return ResilientRedisCache(
        location,
        {
            "KEY_PREFIX": "hindsight-test",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        },
    )


@pytest.mark.redis
def test_configured_cache_is_the_real_redis():
    cache = caches["default"]
    assert isinstance(cache, ResilientRedisCache)
    cache.set("probe", {"n": 1}, 30)
    assert cache.get("probe") == {"n": 1}
    cache.delete("probe")
    assert cache.get("probe") is None


def test_unreachable_redis_reads_as_misses():
    cache = make_cache(f"redis://127.0.0.1:{free_port()}/0")
    assert cache.get("k") is None
    assert cache.get("k", "fallback") == "fallback"
    cache.set("k", 1)  # no exception
    assert cache.add("k", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    assert cache.delete("k") is False
    assert cache.get_or_set("k", lambda: 7) == 7


def test_after_a_failure_the_cache_is_skipped_for_a_while():
    cache = make_cache(f"redis://127.0.0.1:{free_port()}/0")
    attempts = []
    real_get_client = cache._cache.get_client

    def counting_get_client(*args, **kwargs):
        attempts.append(1)
        return real_get_client(*args, **kwargs)

    cache._cache.get_client = counting_get_client
    for _ in range(100):
        cache.get("k")
    assert len(attempts) == 1  # one failed attempt, then the breaker skips Redis
    assert cache.breaker.is_open()


@pytest.mark.redis
def test_caching_resumes_when_redis_is_back(settings):
    cache = make_cache(settings.REDIS_URL)
    cache.breaker.trip()
    assert cache.get("k", "miss") == "miss"
    cache.breaker.reset()
    cache.set("k", "hit", 30)
    assert cache.get("k") == "hit"
    cache.delete("k")


def test_api_answers_with_redis_down(api, redis_down):
    """Check, record, failures and boot (all of which read or write the cache) with Redis dead."""
    redis_down()
    assert api.get("/api/v1/lessons/check", {"error_type": "x"}).status_code == 200
    assert (
        api.post(
            "/api/v1/lessons",
            {"error_pattern": "payments_down", "error_type": "t", "resolution": "r"},
            format="json",
        ).status_code
        == 201
    )
    # The boot fleet view lives in the cache and falls back to the database; the lesson match
    # index's version is in the database, so the new lesson is found at once.
    failure = {
        "agent": "a",
        "task": "t",
        "task_type": "sync",
        "error": "payments_down happened",
        "error_type": "t",
    }
    recorded = api.post("/api/v1/failures", failure, format="json")
    assert recorded.status_code == 201
    assert [l["error_pattern"] for l in recorded.json()["lessons"]] == ["payments_down"]
    api.post("/api/v1/failures", {**failure, "agent": "b"}, format="json")
    boot = api.get("/api/v1/boot", {"agent": "a", "scope": "fleet"})
    assert boot.status_code == 200
    assert [entry["agents"] for entry in boot.json()["fleet"]] == [1]


@pytest.mark.redis
def test_one_redis_client_per_pool_is_reused_across_calls_and_threads():
    import threading

    cache = caches["default"]
    first = cache._cache.get_client(write=True)
    seen = []
    thread = threading.Thread(target=lambda: seen.append(cache._cache.get_client(write=True)))
    thread.start()
    thread.join()
    assert cache._cache.get_client(write=True) is first and seen == [first]
    cache.set("shared", 1, 30)
    assert cache.get("shared") == 1 and cache.incr("shared") == 2
