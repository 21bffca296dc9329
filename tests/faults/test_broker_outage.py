"""The Celery broker (its own Redis) stopped and started again under a running service and worker:
writes go on while it is down, and the jobs they should have sent are done once it is back."""

import json
import urllib.request
import uuid

import pytest

from config.api.services import api_key_create
from lessons.models import Application, Lesson
from tests.faults.conftest import logs, until
from tests.lessons.factories import LessonFactory

# How long a worker or beat may take to start, reconnect and do its work on this small machine.
WAIT_SECONDS = 90
OUTAGE_WRITES = 5


def _apply(base: str, key: str, lesson: Lesson) -> int:
    """Report that ``lesson`` was applied and did not work; the answer's status."""
    request = urllib.request.Request(
        f"{base}/api/v1/lessons/{lesson.pk}/applications",
        method="POST",
        data=json.dumps({"worked": False, "event_id": str(uuid.uuid4())}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def _scored(lesson: Lesson, applications: int) -> bool:
    """Whether the rescoring job has run over this many applications of the lesson."""
    return Lesson.objects.filter(
        pk=lesson.pk, scored_at__isnull=False, applications_count=applications
    ).exists()


def _scored_at_all(lesson: Lesson) -> bool:
    return Lesson.objects.filter(pk=lesson.pk, scored_at__isnull=False).exists()


def _dropped(tmp_path) -> int:
    """Jobs the service's processes dropped because the broker was away, from their logs."""
    return sum(
        log.read_text().count("left to its periodic run")
        for log in tmp_path.glob("gunicorn-*.log")
    )


@pytest.mark.django_db(transaction=True)
def test_writes_go_on_while_the_broker_is_down_and_its_jobs_catch_up(
    throwaway_redis, celery_on, start_gunicorn, tmp_path
):
    broker = throwaway_redis
    worker = celery_on(broker.url, "worker", "--pool", "solo", "--concurrency", "1")
    base = start_gunicorn(CELERY_BROKER_URL=broker.url)
    key = api_key_create(name="agent", scope="write").raw
    before, during, after = LessonFactory(), LessonFactory(), LessonFactory()

    # With the broker up, a write's job reaches the worker.
    assert _apply(base, key, before) == 201
    assert until(lambda: _scored(before, 1), WAIT_SECONDS, 0.5), logs(tmp_path)

    broker.kill()
    statuses = [_apply(base, key, during) for _ in range(OUTAGE_WRITES)]
    assert statuses == [201] * OUTAGE_WRITES
    assert Application.objects.filter(lesson=during).count() == OUTAGE_WRITES
    # Each write answered before its job was sent (config.jobs): the broker comes back only
    # once every one of those jobs was tried and dropped.
    assert until(lambda: _dropped(tmp_path) == OUTAGE_WRITES, WAIT_SECONDS, 0.2), logs(tmp_path)
    assert not _scored_at_all(during)

    broker.start()  # empty: the jobs of the outage were never sent
    # The service sends again and the worker, which lived through the outage, takes the jobs:
    # keep writing until a job of these writes is done (the first sends may skip the broker).
    sent = []
    assert until(
        lambda: sent.append(_apply(base, key, after)) or _scored_at_all(after), WAIT_SECONDS, 1
    ), logs(tmp_path)
    assert set(sent) == {201}
    assert not _scored_at_all(during)
    # The periodic run redoes what the outage dropped (and what a process still skipping the
    # broker for a few seconds did not send).
    celery_on(
        broker.url,
        "beat",
        "--schedule",
        str(tmp_path / "beat-schedule"),
        HINDSIGHT_BEAT_EVERY_SECONDS="2",
    )
    assert until(
        lambda: _scored(during, OUTAGE_WRITES) and _scored(after, len(sent)), WAIT_SECONDS, 0.5
    ), logs(tmp_path)
    assert worker.poll() is None
