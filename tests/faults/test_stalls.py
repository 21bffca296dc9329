"""Redis stalled (SIGSTOP: its port accepts connections, nothing answers) and resumed, as the
cache and as the Celery broker: no answer stays stale, the worker resumes on its own, and a write
is not held up by a stalled or dead broker."""
import statistics
import time
import uuid

import httpx
import pytest

from config.api.services import api_key_create
from config.celery_app import app
from lessons.models import Lesson
from lessons.tasks import effectiveness_recompute_task
from tests.factories import LessonFactory
from tests.faults.conftest import logs, until

# The bound: once Redis is back, a new outcome shows in its agent's history this soon.
FRESH_SECONDS = 5
# How long the broker stays stalled with jobs queued, and how soon after every job must be done.
BROKER_STALL_SECONDS = 20
CATCH_UP_SECONDS = 60
# How long a worker may take to start on this small, busy machine.
WORKER_START_SECONDS = 90
QUEUED_JOBS = 20
# The most a write may wait beyond its usual time because the broker is stalled or down.
WRITE_WAIT_BOUND = 0.2
WRITES_PER_PHASE = 8


def _history(http: httpx.Client, agent: str) -> dict:
    response = http.get("/api/v1/outcomes/history", params={"agent": agent})
    assert response.status_code == 200, response.text
    return response.json()


def _record(http: httpx.Client, agent: str, approach: str) -> float:
    """Record a success of ``agent``; the seconds the write took."""
    return _timed(lambda: _created(http.post("/api/v1/outcomes", json={
        "event_id": str(uuid.uuid4()), "agent": agent, "task_id": approach,
        "task_type": "sync", "outcome": "success", "result": {"approach": approach}})))


def _created(response: httpx.Response) -> None:
    assert response.status_code == 201, response.text


def _timed(call) -> float:
    started = time.monotonic()
    call()
    return time.monotonic() - started


def _ms(seconds: list[float]) -> str:
    return ", ".join(f"{value * 1000:.0f} ms" for value in seconds)


@pytest.mark.django_db(transaction=True)
def test_an_outcome_recorded_while_the_cache_stalls_shows_once_it_is_back(throwaway_redis,
                                                                          start_gunicorn):
    redis_ = throwaway_redis
    base = start_gunicorn(REDIS_URL=redis_.url, CELERY_BROKER_URL=redis_.url)
    key = api_key_create(name="stall", scope="write").raw
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"},
                      timeout=30) as http:
        _record(http, "staller", "before the stall")
        # Each gunicorn process has its own breaker: read until both serve the cached answer.
        assert until(lambda: all(_history(http, "staller")["metadata"]["cached"]
                                 for _ in range(4)), 30)
        redis_.pause()
        try:
            # Reads first, as in a real stall: each process finds Redis silent and stops asking
            # it for a while, so the write that follows sends nothing to Redis at all.
            reads = [_timed(lambda: _history(http, "staller")) for _ in range(4)]
            took = _record(http, "staller", "during the stall")
        finally:
            redis_.resume()
        print(f"\ncache stalled: reads took {_ms(reads)}, the write {_ms([took])}")
        assert until(lambda: "during the stall" in _history(http, "staller")["historyContext"],
                     FRESH_SECONDS, 0.1)
        # And it stays current once caching has resumed.
        assert until(lambda: _history(http, "staller")["metadata"]["cached"], 30)
        assert "during the stall" in _history(http, "staller")["historyContext"]
