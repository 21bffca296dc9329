"""Per-key throttling: budgets per key and per kind of request, 429s in the error shape, counters
in Redis, and a Redis outage that lifts the limits instead of failing requests."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.core.cache import caches
from rest_framework.settings import api_settings

from config.api.services import api_key_create
from config.api.throttling import ApiKeyRateThrottle, counter_incr, rate_parse
from tests.conftest import bearer
from tests.security.conftest import lesson_body, outcome_body

ROOT = Path(__file__).resolve().parents[2]
# A moment 15 seconds into a minute (1_800_000_000 is a multiple of 60): the throttle's clock is
# pinned there, so a test never straddles two windows and Retry-After is exactly known.
WINDOW_START = 1_800_000_000
NOW = WINDOW_START + 15


@pytest.fixture(autouse=True)
def pinned_clock(monkeypatch):
    monkeypatch.setattr(ApiKeyRateThrottle, "timer", staticmethod(lambda: NOW))


@pytest.fixture
def rates(settings):
    """Set the throttle rates for this test; scopes not given are unlimited."""

    def set_rates(**given):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {"read": None, "write": None, "bulk": None, **given},
        }

    return set_rates


def read(client):
    return client.get("/api/v1/lessons/check", {"error_type": "timeout"})


def write(client):
    return client.post("/api/v1/lessons", lesson_body(), format="json")


def bulk(client):
    return client.post("/api/v1/outcomes/bulk", {"outcomes": [outcome_body()]}, format="json")


def key_client(scope: str = "write", name: str = "agent"):
    return bearer(api_key_create(name=name, scope=scope).raw)


def test_defaults_are_generous_and_separate_per_kind():
    assert {
        scope: rate_parse(rate) for scope, rate in api_settings.DEFAULT_THROTTLE_RATES.items()
    } == {"read": (60000, 60), "write": (30000, 60), "bulk": (3000, 60)}


@pytest.mark.redis
def test_over_the_limit_is_a_429_with_retry_after_in_the_error_shape(db, rates):
    rates(read="3/minute")
    client = key_client("read")
    assert [read(client).status_code for _ in range(3)] == [200, 200, 200]
    refused = read(client)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "45"  # the rest of the pinned minute
    assert refused.json() == {
        "error": "Too many read requests for this API key (limit 3/minute). "
        "Expected available in 45 seconds.",
        "fields": {},
    }


@pytest.mark.redis
def test_limits_are_per_key(db, rates):
    rates(read="2/minute", write="1/minute")
    first, second = key_client(name="first"), key_client(name="second")
    assert [read(first).status_code for _ in range(3)] == [200, 200, 429]
    assert [write(first).status_code for _ in range(2)] == [201, 429]
    # Another key, even one of the same agent name, has its own budgets.
    assert [read(second).status_code for _ in range(3)] == [200, 200, 429]
    assert write(second).status_code == 201


@pytest.mark.redis
def test_reads_writes_and_bulk_are_counted_apart(db, rates):
    rates(read="1/hour", write="1/hour", bulk="1/hour")
    client = key_client()
    assert read(client).status_code == 200
    assert read(client).status_code == 429
    # Reads used up: writes and bulk writes still have their own budgets.
    assert write(client).status_code == 201
    assert write(client).status_code == 429
    assert bulk(client).status_code == 200
    assert bulk(client).status_code == 429
    assert read(client)["Retry-After"] == str(3600 - 15)


@pytest.mark.redis
def test_a_posted_check_is_a_read(db, rates):
    """POST /lessons/check spends the read budget, not the write one."""
    rates(read="2/hour", write="1/hour")
    client = key_client()
    posted = lambda: (
        client.post(
            "/api/v1/lessons/check",
            {"error_type": "timeout"},  # noqa: E731
            format="json",
        ).status_code
    )
    assert [posted(), read(client).status_code, posted()] == [200, 200, 429]
    assert write(client).status_code == 201


@pytest.mark.redis
def test_refused_scopes_and_bad_keys_do_not_spend_the_budget(db, rates):
    """Permission and authentication come first: a read key's refused write is a 403, counted
    nowhere, and the key's reads are untouched."""
    rates(read="1/minute", write="1/minute")
    client = key_client("read")
    assert [write(client).status_code for _ in range(3)] == [403, 403, 403]
    assert read(client).status_code == 200
    assert bearer("hsk_unknown").get("/api/v1/lessons").status_code == 401


@pytest.mark.redis
def test_public_endpoints_are_not_throttled(db, rates):
    rates(read="1/minute")
    client = key_client("read")
    for path in ("/api/v1/health", "/api/v1/schema"):
        assert [client.get(path).status_code for _ in range(3)] == [200, 200, 200], path
    assert read(client).status_code == 200  # the public calls did not spend the read budget


@pytest.mark.redis
def test_the_counter_lives_in_redis_for_one_window(db, rates, settings):
    rates(write="5/minute")
    created = api_key_create(name="agent", scope="write")
    write(bearer(created.raw))
    cache = caches["default"]
    name = cache.make_and_validate_key(f"throttle:write:{created.key.pk}:{NOW // 60}")
    server = redis.Redis.from_url(settings.REDIS_URL)
    assert int(server.get(name)) == 1
    assert 0 < server.ttl(name) <= 61


@pytest.mark.redis
def test_counting_is_one_round_trip(db, monkeypatch):
    """INCR and EXPIRE go to Redis as one pipeline: nothing is sent command by command."""
    sent = []
    execute = redis.client.Pipeline.execute
    monkeypatch.setattr(
        redis.client.Pipeline,
        "execute",
        lambda self, *a, **k: sent.append("pipeline") or execute(self, *a, **k),
    )
    monkeypatch.setattr(redis.Redis, "execute_command", lambda self, *a, **k: sent.append(a[0]))
    assert counter_incr("throttle:probe", ttl=5) == 1
    assert sent == ["pipeline"]


def dead_redis() -> dict:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        }
    }


def test_with_redis_down_requests_go_through(db, rates, settings):
    rates(read="1/minute", write="1/minute", bulk="1/minute")
    settings.CACHES = dead_redis()
    client = key_client()
    statuses = [
        read(client).status_code,
        read(client).status_code,
        write(client).status_code,
        write(client).status_code,
        bulk(client).status_code,
        bulk(client).status_code,
    ]
    assert statuses == [200, 200, 201, 201, 200, 200]


def test_a_cache_that_keeps_nothing_does_not_throttle_or_fail(db, rates, settings):
    rates(read="1/minute")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    client = key_client("read")
    assert [read(client).status_code for _ in range(3)] == [200, 200, 200]


def test_embedded_mode_counts_in_the_local_cache(db, rates, settings):
    rates(read="2/minute")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "throttle-test",
        }
    }
    client = key_client("read")
    assert [read(client).status_code for _ in range(3)] == [200, 200, 429]


def settings_of(env: dict, var_dir: Path) -> subprocess.CompletedProcess:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps(s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "HINDSIGHT_VAR_DIR": str(var_dir),
            **env,
        },
        timeout=120,
    )


def test_rates_come_from_the_environment(tmp_path):
    done = settings_of(
        {
            "HINDSIGHT_THROTTLE_READ": "100/second",
            "HINDSIGHT_THROTTLE_WRITE": "off",
            "HINDSIGHT_THROTTLE_BULK": "5/hour",
        },
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == '{"read": "100/second", "write": null, "bulk": "5/hour"}'


@pytest.mark.parametrize("bad", ["lots", "100", "100/fortnight", "-5/minute", "1.5/minute"])
def test_a_malformed_rate_stops_the_start(bad, tmp_path):
    done = settings_of({"HINDSIGHT_THROTTLE_WRITE": bad}, tmp_path)
    assert done.returncode != 0
    assert "HINDSIGHT_THROTTLE_WRITE must look like 600/minute or be off" in done.stderr
