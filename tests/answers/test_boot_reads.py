"""Boot's reads: a briefing in a few queries, and the fleet views a process keeps."""

from datetime import timedelta

import pytest
from django.utils import timezone

from answers.boot import composer as boot
from answers.boot import fleet as boot_fleet
from answers.boot.composer import boot_context_build
from failures.records.services import failure_record
from lessons.match_index import match_index
from lessons.models import Lesson
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()
ERRORS = [
    "Connection timeout after 30 seconds",
    "ConnectionRefusedError: upstream refused",
    "PermissionError: write access denied",
    "KeyError: 'price' in feed parser",
]


def record(agent, task, error, minutes_ago, **fields):
    fields.setdefault("task_type", "sync")
    return failure_record(
        agent=agent,
        task=task,
        error=error,
        occurred_at=NOW - timedelta(minutes=minutes_ago),
        **fields,
    )


def test_a_busy_briefing_takes_five_queries_at_most(django_assert_max_num_queries):
    for task in range(boot.OPEN_TASKS_CAP + 5):
        for attempt in range(3):
            failure = record(
                "a1",
                f"t{task}",
                f"Fault{task} in stage",
                task + attempt / 10,
                task_type=f"k{task % 7}",
                checkpoint={"step": attempt},
            )
        if task % 2:
            LessonFactory(status=Lesson.Status.APPROVED).patterns.add(failure.pattern)
        record(f"peer{task}", "p", ERRORS[0], 1, task_type=f"k{task % 7}")
    LessonFactory(error_pattern="in stage", status=Lesson.Status.APPROVED)
    match_index()  # built once per process after lessons change, not per briefing
    # Failures, links, one message check (matched and related lessons), the fleet.
    with django_assert_max_num_queries(5):
        context = boot_context_build(agent="a1", now=NOW, scope="fleet")
    assert len(context["retry_advice"]) == boot.OPEN_TASKS_CAP and context["fleet"]
    with django_assert_max_num_queries(2):  # the message check and the fleet view are reused
        boot_context_build(agent="a1", now=NOW, scope="fleet")


def test_a_process_keeps_the_fleet_views_it_read(django_assert_num_queries, monkeypatch):
    record("a1", "t", ERRORS[0], 5)
    record("b", "t", ERRORS[1], 5)
    since = NOW - timedelta(hours=24)
    first = boot_fleet.fleet_build(agent="a1", task_types=["sync"], since=since, now=NOW)
    assert [entry["agents"] for entry in first] == [1]
    boot_fleet._copies.clear()  # as in another process: the view comes from the cache
    with django_assert_num_queries(0):
        assert (
            boot_fleet.fleet_build(agent="a1", task_types=["sync"], since=since, now=NOW) == first
        )
    reads = []
    get_many = boot_fleet.cache.get_many
    monkeypatch.setattr(
        boot_fleet.cache, "get_many", lambda keys: reads.append(keys) or get_many(keys)
    )
    assert boot_fleet.fleet_build(agent="a1", task_types=["sync"], since=since, now=NOW) == first
    [[name]] = reads  # only the name of the current view; the view is this process's copy
    assert name.startswith("boot:fleet:name:")


def test_boot_reads_an_agents_failures_through_a_statement_the_connection_keeps_prepared():
    from django.db import connection

    record("a1", "t1", ERRORS[0], 5)
    briefings = [boot_context_build(agent="a1", now=NOW) for _ in range(7)]
    assert all(b["recent_failures"] == briefings[0]["recent_failures"] for b in briefings)
    assert briefings[0]["recent_failures"] and briefings[0]["skip"] == []
    with connection.cursor() as cursor:
        # Statements the driver prepared through the protocol (not by an SQL PREPARE).
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [statement for (statement,) in cursor.fetchall()]
    [boot_read] = [statement for statement in prepared if "UNION ALL" in statement]
    assert "failures_failure" in boot_read and "$1" in boot_read
