"""Outcomes under real parallel load on PostgreSQL: every event stored once, counted once.

Client processes send the same events, in different orders, to a multi-process gunicorn, so
the inserts really race on separate database connections.
"""

import multiprocessing
import random
import uuid
from collections import Counter

import pytest

from config.api.services import api_key_create
from failures.models import Failure, FailurePattern
from outcomes.models import Outcome
from tests.load_worker import send_many

PROCESSES = 4
THREADS_PER_PROCESS = 3
EVENTS = 240
BATCH = 40
SHAPES = ["Disk full on host-{}", "Connection reset by host-{}", "Permission denied for user{}"]


def events() -> list[dict]:
    """EVENTS outcomes with ids: a third failures (three error shapes), the rest successes."""
    made = []
    for n in range(EVENTS):
        body = {
            "event_id": str(uuid.uuid4()),
            "agent": f"agent-{n % 6}",
            "task_id": f"t{n}",
            "task_type": "sync",
            "outcome": "success",
        }
        if n % 3 == 0:
            body |= {
                "outcome": "failure",
                "context": {"error_type": "io", "error_message": SHAPES[n // 3 % 3].format(n)},
            }
        made.append(body)
    return made


@pytest.mark.django_db(transaction=True)
def test_the_same_batches_sent_in_parallel_are_stored_once(gunicorn_server):
    key = api_key_create(name="load", scope="write").raw
    url = f"{gunicorn_server}/api/v1/outcomes/bulk"
    sent = events()
    jobs = []
    for seed in range(PROCESSES):
        shuffled = random.Random(seed).sample(sent, len(sent))  # same events, other order
        batches = [{"outcomes": shuffled[i : i + BATCH]} for i in range(0, EVENTS, BATCH)]
        jobs.append((url, key, batches, THREADS_PER_PROCESS))
    with multiprocessing.get_context("spawn").Pool(PROCESSES) as pool:
        statuses = Counter(code for codes in pool.starmap(send_many, jobs) for code in codes)
    assert statuses == Counter({200: PROCESSES * EVENTS // BATCH})
    assert Outcome.objects.count() == EVENTS
    assert Failure.objects.count() == EVENTS // 3
    counted = dict(FailurePattern.objects.values_list("pk", "event_count"))
    assert len(counted) == 3
    assert all(Failure.objects.filter(pattern_id=pk).count() == n for pk, n in counted.items())
    assert set(Outcome.objects.values_list("event_id", flat=True)) == {
        uuid.UUID(body["event_id"]) for body in sent
    }


@pytest.mark.django_db(transaction=True)
def test_one_event_sent_in_parallel_is_stored_once(gunicorn_server):
    key = api_key_create(name="load", scope="write").raw
    url = f"{gunicorn_server}/api/v1/outcomes"
    [body] = events()[:1]
    jobs = [(url, key, [body] * 20, THREADS_PER_PROCESS)] * PROCESSES
    with multiprocessing.get_context("spawn").Pool(PROCESSES) as pool:
        statuses = Counter(code for codes in pool.starmap(send_many, jobs) for code in codes)
    assert statuses == Counter({201: PROCESSES * 20})
    assert Outcome.objects.count() == Failure.objects.count() == 1
    assert FailurePattern.objects.get().event_count == 1
