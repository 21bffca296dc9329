"""Redis stalled (SIGSTOP: its port accepts connections, nothing answers) and resumed, as the
cache and as the Celery broker: no answer stays stale, the worker resumes on its own, and a write
is not held up by a stalled or dead broker."""

import statistics
import time
import uuid

import httpx
import pytest

from config.api.services import api_key_create
from config.cache import RETRY_AFTER_SECONDS
from config.celery_app import app
from lessons.models import Lesson
from lessons.tasks import effectiveness_recompute_task
from tests.conftest import database_url
from tests.faults.conftest import logs, until
from tests.lessons.factories import LessonFactory

# The bound: once Redis is back, a new outcome shows in its agent's history this soon.
FRESH_SECONDS = 5
# How long the broker stays stalled with jobs queued, and how soon after every job must be done.
BROKER_STALL_SECONDS = 20
CATCH_UP_SECONDS = 60
# How long a worker may take to start on this small, busy machine.
WORKER_START_SECONDS = 90
# Enough jobs that the worker, which runs one in a few milliseconds, is still busy with them when
# the broker stops: sending them takes a fraction of the time running them does.
QUEUED_JOBS = 200
# The most a write may wait beyond its usual time because the broker is stalled or down.
WRITE_WAIT_BOUND = 0.2
WRITES_UP = 16
TRIALS = 3


def _history(http: httpx.Client, agent: str) -> dict:
    response = http.get("/api/v1/outcomes/history", params={"agent": agent})
    assert response.status_code == 200, response.text
    return response.json()


def _record(http: httpx.Client, agent: str, approach: str) -> float:
    """Record a success of ``agent``; the seconds the write took."""
    return _timed(
        lambda: _created(
            http.post(
                "/api/v1/outcomes",
                json={
                    "event_id": str(uuid.uuid4()),
                    "agent": agent,
                    "task_id": approach,
                    "task_type": "sync",
                    "outcome": "success",
                    "result": {"approach": approach},
                },
            )
        )
    )


def _created(response: httpx.Response) -> None:
    assert response.status_code == 201, response.text


def _timed(call) -> float:
    started = time.monotonic()
    call()
    return time.monotonic() - started


def _ms(seconds: list[float]) -> str:
    return ", ".join(f"{value * 1000:.0f} ms" for value in seconds)


@pytest.mark.django_db(transaction=True)
def test_an_outcome_recorded_while_the_cache_stalls_shows_once_it_is_back(
    throwaway_redis, start_gunicorn
):
    redis_ = throwaway_redis
    base = start_gunicorn(REDIS_URL=redis_.url, CELERY_BROKER_URL=redis_.url)
    key = api_key_create(name="stall", scope="write").raw
    with httpx.Client(
        base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as http:
        _record(http, "staller", "before the stall")
        # Each gunicorn process has its own breaker: read until both serve the cached answer.
        assert until(
            lambda: all(_history(http, "staller")["metadata"]["cached"] for _ in range(4)), 30
        )
        redis_.pause()
        try:
            # Reads first, as in a real stall: each process finds Redis silent and stops asking
            # it for a while, so the write that follows sends nothing to Redis at all.
            reads = [_timed(lambda: _history(http, "staller")) for _ in range(4)]
            took = _record(http, "staller", "during the stall")
        finally:
            redis_.resume()
        print(f"\ncache stalled: reads took {_ms(reads)}, the write {_ms([took])}")
        assert until(
            lambda: "during the stall" in _history(http, "staller")["historyContext"],
            FRESH_SECONDS,
            0.1,
        )
        # And it stays current once caching has resumed.
        assert until(lambda: _history(http, "staller")["metadata"]["cached"], 30)
        assert "during the stall" in _history(http, "staller")["historyContext"]


def _apply(http: httpx.Client, lesson: Lesson) -> float:
    """Report that ``lesson`` was applied (a write that sends its rescoring job); the seconds
    the write took."""
    return _timed(
        lambda: _created(
            http.post(
                f"/api/v1/lessons/{lesson.pk}/applications",
                json={"worked": False, "event_id": str(uuid.uuid4())},
            )
        )
    )


def _first_writes(http: httpx.Client, lesson: Lesson) -> list[float]:
    """Time one write after each pause long enough that no process still skips the broker (so
    every one of these writes meets it), TRIALS times."""
    waits = []
    for _ in range(TRIALS):
        time.sleep(RETRY_AFTER_SECONDS)
        waits.append(_apply(http, lesson))
    return waits


@pytest.mark.django_db(transaction=True)
def test_a_write_waits_little_on_a_stalled_or_dead_broker(throwaway_redis, gunicorn_on):
    broker = throwaway_redis
    # One process, warmed up by the first writes: what a later write waits for is the broker's.
    base = gunicorn_on(database_url(), workers=1, CELERY_BROKER_URL=broker.url)
    key = api_key_create(name="writer", scope="write").raw
    lesson = LessonFactory()
    with httpx.Client(
        base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as http:
        up = [_apply(http, lesson) for _ in range(WRITES_UP)]
        broker.pause()
        try:
            stalled = _first_writes(http, lesson)
        finally:
            broker.resume()
        broker.kill()
        dead = _first_writes(http, lesson)
    usual = statistics.median(up)
    print(
        f"\nwrites, broker up: {_ms(up)}\nbroker stalled: {_ms(stalled)}\nbroker dead: {_ms(dead)}"
    )
    for state, waits in (("stalled", stalled), ("dead", dead)):
        # The median of the trials: a machine busy for a moment does not decide it, a wait the
        # broker causes shows in every trial.
        added = statistics.median(waits) - usual
        assert added < WRITE_WAIT_BOUND, (
            f"broker {state}: a write waited {added * 1000:.0f} ms more"
        )


def _send(broker_url: str, lessons: list[Lesson]) -> None:
    """Queue one rescoring job per lesson on the given broker."""
    with app.connection_for_write(broker_url) as connection:
        for lesson in lessons:
            effectiveness_recompute_task.apply_async(
                kwargs={"lesson_ids": [str(lesson.pk)]}, connection=connection
            )


def _unscored(lessons: list[Lesson]) -> int:
    return Lesson.objects.filter(
        pk__in=[lesson.pk for lesson in lessons], scored_at__isnull=True
    ).count()


@pytest.mark.django_db(transaction=True)
def test_the_worker_takes_jobs_again_after_a_broker_stall(throwaway_redis, celery_on, tmp_path):
    broker = throwaway_redis
    celery_on(broker.url, "worker", "--pool", "solo", "--concurrency", "1")
    first, queued, later = (
        LessonFactory(),
        LessonFactory.create_batch(QUEUED_JOBS),
        LessonFactory(),
    )
    _send(broker.url, [first])
    assert until(lambda: not _unscored([first]), WORKER_START_SECONDS), logs(tmp_path)

    _send(broker.url, queued)
    broker.pause()
    try:
        assert _unscored(queued), "the worker emptied the queue before the stall"
        time.sleep(BROKER_STALL_SECONDS)
    finally:
        broker.resume()
    _send(broker.url, [later])
    assert until(lambda: not _unscored([*queued, later]), CATCH_UP_SECONDS), logs(tmp_path)


def test_a_message_taken_before_a_stall_is_back_on_its_queue_with_the_next_connection(
    throwaway_redis,
):
    """A worker's connection breaks while the broker is silent, holding a message it took: the
    message cannot be put back then. It is back on its queue as soon as the process has a
    broker again, not after the visibility timeout (15 minutes)."""
    from kombu import Connection

    options = {"socket_timeout": 0.5, "socket_connect_timeout": 0.5, "max_retries": 0}
    queue = "stall-test"

    def connect() -> Connection:
        return Connection(
            throwaway_redis.url, transport="config.broker:Transport", transport_options=options
        )

    with connect() as publisher:
        publisher.default_channel.basic_publish(
            publisher.default_channel.prepare_message("job"), exchange="", routing_key=queue
        )
    worker = connect()
    channel = worker.channel()
    channel.queue_declare(queue)
    taken = channel.basic_get(queue)  # taken, not acknowledged: in the unacked index
    assert taken is not None and throwaway_redis.client().llen(queue) == 0
    throwaway_redis.pause()
    try:
        with pytest.raises(channel.connection_errors):
            channel.close()  # puts back what it holds: the silent broker refuses
    finally:
        throwaway_redis.resume()
    assert throwaway_redis.client().llen(queue) == 0  # still only in the unacked index
    with connect() as again:
        again.channel()
        assert throwaway_redis.client().llen(queue) == 1
        again.channel()  # once only
        assert throwaway_redis.client().llen(queue) == 1
