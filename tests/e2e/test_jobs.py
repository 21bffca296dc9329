"""The jobs for real: a Celery worker and beat on the real Redis broker, and writes that never
wait for a broker that is down."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest
from django.utils import timezone
from standardwebhooks import Webhook

from alerts.models import Alert, Destination
from config.api.services import api_key_create
from config.jobs import publish_now
from lessons.models import Application, Lesson
from lessons.tasks import effectiveness_recompute_task
from tests.alerts.conftest import receiver_start, rule_to
from tests.alerts.test_delivery import spread
from tests.conftest import ROOT, database_url, processes_stop
from tests.lessons.factories import LessonFactory

# How long a worker or beat may take to start and do its work on this 2-core machine.
WAIT_SECONDS = 60


def _post(base: str, key: str, path: str, body: dict) -> int:
    request = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens once the socket is closed


def _scored(lesson: Lesson) -> bool:
    return Lesson.objects.filter(pk=lesson.pk, scored_at__isnull=False).exists()


def _until(condition, seconds: float = WAIT_SECONDS) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return False


@pytest.mark.django_db(transaction=True)
def test_writes_succeed_with_the_broker_down_and_the_periodic_job_catches_up(start_gunicorn):
    base = start_gunicorn(CELERY_BROKER_URL=f"redis://127.0.0.1:{_dead_port()}/0")
    key = api_key_create(name="agent", scope="write").raw
    lesson = LessonFactory()
    path = f"/api/v1/lessons/{lesson.pk}/applications"
    statuses = [
        _post(base, key, path, {"worked": False, "event_id": str(uuid.uuid4())}) for _ in range(6)
    ]
    statuses.append(
        _post(
            base,
            key,
            "/api/v1/outcomes",
            {
                "agent": "a",
                "task_id": "t",
                "task_type": "sync",
                "outcome": "failure",
                "applied_lesson": str(lesson.pk),
                "context": {"error_message": "boom"},
            },
        )
    )
    assert statuses == [201] * 7
    assert Application.objects.filter(lesson=lesson).count() == 7
    assert not _scored(lesson)  # the job could not be sent ...
    subprocess.run(
        [sys.executable, "manage.py", "recompute_effectiveness"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": database_url()},
        capture_output=True,
    )
    lesson.refresh_from_db()  # ... and the periodic run did its work
    assert lesson.applications_count == 7 and lesson.flagged


@pytest.fixture
def celery_processes(transactional_db, tmp_path):
    """Start ``celery worker`` or ``celery beat`` on the test database and the real Redis."""
    started = []

    def start(*args: str, **extra_env) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "HINDSIGHT_VAR_DIR": str(tmp_path),
            **extra_env,
        }
        log = (tmp_path / f"celery-{args[0]}.log").open("w")
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config.celery_app",
                    *args,
                    "--loglevel",
                    "INFO",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )

    yield start
    processes_stop(started)


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_published_jobs_and_beat_schedules_the_periodic_ones(
    celery_processes, tmp_path
):
    published, periodic = LessonFactory(), LessonFactory()
    for lesson in (published, periodic):
        Application.objects.create(lesson=lesson, worked=True, applied_at=timezone.now())
    celery_processes("worker", "--pool", "solo", "--concurrency", "1")
    assert publish_now(effectiveness_recompute_task, lesson_ids=[str(published.pk)])
    assert _until(lambda: _scored(published)), (tmp_path / "celery-worker.log").read_text()
    assert not _scored(periodic)  # only what was published ran
    celery_processes(
        "beat", "--schedule", str(tmp_path / "beat-schedule"), HINDSIGHT_BEAT_EVERY_SECONDS="2"
    )
    assert _until(lambda: _scored(periodic)), (tmp_path / "celery-beat.log").read_text()
    periodic.refresh_from_db()
    assert periodic.applications_count == 1


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_beat_raises_an_alert_and_a_worker_delivers_it_signed_once(celery_processes, tmp_path):
    """The alerts job on beat's schedule, its delivery by a worker to a receiver on the loopback
    (allowed by the setting): one signed request, however many runs follow within the window."""
    receiver, server = receiver_start()
    try:
        hook = Destination.objects.create(name="hook", kind="webhook", url=receiver.url)
        rule_to(hook)
        spread(timezone.now())
        private = {"HINDSIGHT_ALERT_PRIVATE_URLS": "true"}
        celery_processes("worker", "--pool", "solo", "--concurrency", "1", **private)
        celery_processes(
            "beat",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            HINDSIGHT_BEAT_EVERY_SECONDS="2",
            **private,
        )
        logs = lambda: (tmp_path / "celery-worker.log").read_text()  # noqa: E731
        assert _until(lambda: len(receiver.received) >= 1), logs()
        assert _until(lambda: Alert.objects.filter(deliveries__status="delivered").exists())
        time.sleep(8)  # four more runs of the alerts job
        assert len(receiver.received) == 1 and Alert.objects.count() == 1, logs()
        (request,) = receiver.received
        payload = Webhook(hook.secret).verify(request.body, request.headers)
        assert payload["type"] == "alert.new_pattern"
    finally:
        server.shutdown()
        server.server_close()
