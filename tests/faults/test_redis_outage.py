"""Redis (the cache and the broker) killed under a load of reads and writes, then started again:
no request fails, every acknowledged write is stored once, and caching comes back on its own."""

import itertools
import threading
import uuid
from collections import Counter

import httpx
import pytest

from config.api.idempotency import REPLAY_HEADER
from config.api.models import IdempotencyRecord
from config.api.services import api_key_create
from failures.models import Failure
from outcomes.models import Outcome
from tests.faults.conftest import until
from tests.lessons.factories import LessonFactory

THREADS = 4
# Requests of the load in each phase (Redis up, down, back), counted over all threads.
PER_PHASE = 60
# How long caching may take to resume: past the breaker's retry interval (config.cache), with
# room for a busy machine.
RESUME_SECONDS = 30


class Load:
    """Threads that mix writes and reads until stopped, remembering every answer."""

    def __init__(self, base: str, key: str, lesson: str):
        self.base, self.key, self.lesson = base, key, lesson
        self.phase = "up"
        self.answers: list[tuple[str, str, int | str]] = []  # (phase, request, status or error)
        self.outcomes: list[tuple[str, str]] = []  # (phase, event id) of acknowledged outcomes
        self.failures: list[tuple[str, str]] = []  # (event id, task) of acknowledged failures
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(n,)) for n in range(THREADS)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def count(self, phase: str) -> int:
        with self._lock:
            return sum(1 for answer in self.answers if answer[0] == phase)

    def _run(self, number: int) -> None:
        agent = f"load-{number}"
        headers = {"Authorization": f"Bearer {self.key}"}
        with httpx.Client(base_url=self.base, headers=headers, timeout=30) as http:
            for step in itertools.count():
                if self._stop.is_set():
                    return
                for name, call in self._requests(http, agent, f"{number}-{step}"):
                    phase = self.phase
                    try:
                        status = call().status_code
                    except httpx.HTTPError as exc:
                        status = f"{type(exc).__name__}: {exc}"
                    with self._lock:
                        self.answers.append((phase, name, status))

    def _requests(self, http: httpx.Client, agent: str, tag: str):
        outcome_id, failure_id, task = str(uuid.uuid4()), str(uuid.uuid4()), f"task-{tag}"
        message = f"Timeout after {len(tag)}s calling https://api.example.com/v1/items"

        def outcome():
            phase = self.phase
            response = http.post(
                "/api/v1/outcomes",
                json={
                    "event_id": outcome_id,
                    "agent": agent,
                    "task_id": task,
                    "task_type": "sync",
                    "outcome": "success",
                },
            )
            if response.status_code == 201:
                with self._lock:
                    self.outcomes.append((phase, outcome_id))
            return response

        def failure():
            # Applying a lesson publishes its rescoring job: the broker is the same Redis.
            response = http.post(
                "/api/v1/failures",
                json={
                    "event_id": failure_id,
                    "agent": agent,
                    "task": f"failed-{tag}",
                    "task_type": "sync",
                    "error": message,
                    "error_type": "timeout",
                    "applied_lesson": self.lesson,
                },
            )
            if response.status_code == 201:
                with self._lock:
                    self.failures.append((failure_id, f"failed-{tag}"))
            return response

        return [
            ("outcome", outcome),
            ("failure", failure),
            ("boot", lambda: http.get("/api/v1/boot", params={"agent": agent})),
            ("history", lambda: http.get("/api/v1/outcomes/history", params={"agent": agent})),
            (
                "check",
                lambda: http.get(
                    "/api/v1/lessons/check",
                    params={"error_type": "timeout", "error_message": message},
                ),
            ),
        ]


def _history_cached(base: str, key: str) -> bool:
    """Whether the history of an agent that writes nothing is served from the cache."""
    response = httpx.get(
        f"{base}/api/v1/outcomes/history",
        params={"agent": "probe"},
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    return response.json()["metadata"]["cached"] is True


@pytest.mark.django_db(transaction=True)
def test_redis_killed_under_load_fails_nothing_and_caching_resumes(
    throwaway_redis, start_gunicorn
):
    redis_ = throwaway_redis
    base = start_gunicorn(REDIS_URL=redis_.url, CELERY_BROKER_URL=redis_.url)
    key = api_key_create(name="load", scope="write").raw
    lesson = LessonFactory(error_type="timeout", resolution="raise the timeout")
    assert until(lambda: _history_cached(base, key), RESUME_SECONDS)
    assert redis_.client().keys("hindsight:*")  # the service's cache keys live in this Redis

    load = Load(base, key, str(lesson.pk))
    load.start()
    try:
        assert until(lambda: load.count("up") >= PER_PHASE, 120)
        redis_.kill()
        load.phase = "down"
        assert until(lambda: load.count("down") >= PER_PHASE, 120)
        redis_.start()
        load.phase = "back"
        # Redis came back empty: a cached answer means the service is filling it again.
        assert until(lambda: _history_cached(base, key), RESUME_SECONDS)
        assert until(lambda: load.count("back") >= PER_PHASE, 120)
    finally:
        load.stop()

    expected = {"outcome": 201, "failure": 201, "boot": 200, "history": 200, "check": 200}
    wrong = [answer for answer in load.answers if answer[2] != expected[answer[1]]]
    assert wrong == []
    assert redis_.client().keys("hindsight:*")
    # Every acknowledged write is stored once.
    acknowledged = [event for _, event in load.outcomes]
    stored = Counter(
        str(e)
        for e in Outcome.objects.filter(event_id__in=acknowledged).values_list(
            "event_id", flat=True
        )
    )
    assert stored == Counter(acknowledged)
    tasks = Counter(
        Failure.objects.filter(task__in=[task for _, task in load.failures]).values_list(
            "task", flat=True
        )
    )
    assert tasks == Counter(task for _, task in load.failures)
    assert IdempotencyRecord.objects.filter(
        event_id__in=[event for event, _ in load.failures]
    ).count() == len(load.failures)
    # Writes acknowledged while Redis was down are replayed, not repeated, when sent again.
    for event_id in [event for phase, event in load.outcomes if phase == "down"][:3]:
        _assert_replayed(base, key, event_id)
    assert Outcome.objects.filter(event_id__in=acknowledged).count() == len(acknowledged)


def _assert_replayed(base: str, key: str, event_id: str) -> None:
    [event] = Outcome.objects.filter(event_id=event_id).values("event_id", "agent", "task_id")
    response = httpx.post(
        f"{base}/api/v1/outcomes",
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
        json={
            "event_id": str(event["event_id"]),
            "agent": event["agent"],
            "task_id": event["task_id"],
            "task_type": "sync",
            "outcome": "success",
        },
    )
    assert response.status_code == 201 and response.headers[REPLAY_HEADER] == "true"
