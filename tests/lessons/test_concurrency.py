"""Record-or-increment under real parallel load on PostgreSQL: every call counted exactly once.

Eight client processes send to a multi-process gunicorn, so the increments really race on
separate database connections.
"""

import multiprocessing
import uuid
from collections import Counter

import pytest

from config.api.services import api_key_create
from lessons.models import Lesson
from tests.load_worker import send_many

PROCESSES = 8
CALLS_PER_PROCESS = 200
# Requests each process keeps in flight; 8 x 5 = 40 in flight against 4 workers x 4 threads
# (16 database connections), well inside PostgreSQL's default max_connections of 100.
THREADS_PER_PROCESS = 5


@pytest.mark.django_db(transaction=True)
def test_parallel_records_of_one_pattern_count_exactly(gunicorn_server):
    key = api_key_create(name="load", scope="write").raw
    url = f"{gunicorn_server}/api/v1/lessons"
    body = {"error_pattern": "hot_pattern", "error_type": "rate_limit", "resolution": "wait"}
    jobs = [(url, key, [body] * CALLS_PER_PROCESS, THREADS_PER_PROCESS)] * PROCESSES
    with multiprocessing.get_context("spawn").Pool(PROCESSES) as pool:
        statuses = Counter(code for codes in pool.starmap(send_many, jobs) for code in codes)
    assert statuses == Counter({200: PROCESSES * CALLS_PER_PROCESS - 1, 201: 1})
    assert Lesson.objects.get(error_pattern="hot_pattern").occurrences == 1600


@pytest.mark.django_db(transaction=True)
def test_parallel_replays_of_one_event_count_once(gunicorn_server):
    key = api_key_create(name="load", scope="write").raw
    url = f"{gunicorn_server}/api/v1/lessons"
    body = {
        "error_pattern": "replayed",
        "error_type": "t",
        "resolution": "r",
        "event_id": str(uuid.uuid4()),
    }
    jobs = [(url, key, [body] * 25, THREADS_PER_PROCESS)] * 4
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        statuses = Counter(code for codes in pool.starmap(send_many, jobs) for code in codes)
    assert statuses == Counter({201: 100})  # every replay gets the first answer
    assert Lesson.objects.get(error_pattern="replayed").occurrences == 1
