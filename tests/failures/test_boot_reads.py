"""Boot's plain-SQL reads on PostgreSQL: the same briefing as the ORM's reads, in fewer queries."""
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from failures import boot, boot_fleet
from failures.boot import boot_context_build
from failures.models import Failure, FailurePattern
from failures.services import failure_record, failures_record_many, failures_resolve
from lessons.match_index import match_index
from lessons.models import Lesson
from tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()
ERRORS = ["Connection timeout after 30 seconds", "ConnectionRefusedError: upstream refused",
          "PermissionError: write access denied", "KeyError: 'price' in feed parser"]


def record(agent, task, error, minutes_ago, **fields):
    fields.setdefault("task_type", "sync")
    return failure_record(agent=agent, task=task, error=error,
                          occurred_at=NOW - timedelta(minutes=minutes_ago), **fields)


def varied_history():
    """Open, resolved and old failures of several tasks, types and agents; one pattern merged
    into another; checkpoints, side effects, hints and retry reports."""
    for i in range(40):
        record("a1", f"t{i % 7}", ERRORS[i % 4], minutes_ago=i * 7 + 1,
               task_type=("sync", "billing")[i % 2], skill_name=("", "s3_api")[i % 3 == 0],
               checkpoint={"step": i} if i % 5 == 0 else None, side_effects=[f"wrote {i}"],
               recovery_hint=f"hint {i % 3}", retry_safe=(None, True, False)[i % 3],
               retry_after=(None, 30)[i % 2], attempt_count=1 + i % 2)
        record(f"peer{i % 5}", f"p{i % 3}", ERRORS[(i + 1) % 4], minutes_ago=i * 3 + 2,
               task_type=("sync", "billing")[i % 2], recovery_hint=f"peer hint {i % 2}")
    failures_resolve(agent="a1", task="t3")
    merged, survivor = (Failure.objects.filter(error=e).first().pattern_id for e in ERRORS[:2])
    FailurePattern.objects.filter(pk=merged).update(merged_into=survivor)
    LessonFactory(status=Lesson.Status.APPROVED).patterns.add(survivor)


@pytest.mark.parametrize("options", [{}, {"task_type": "billing"}, {"window_hours": 2},
                                     {"scope": "fleet"}, {"scope": "fleet", "task_type": "sync"}])
def test_the_sql_reads_build_the_briefing_the_orm_reads_build(options, monkeypatch):
    varied_history()
    built = boot_context_build(agent="a1", now=NOW, **options)
    assert built["recent_failures"] and built["retry_advice"] and built["resume"]
    cache.clear()  # nothing reused: the fleet view and the message check are read again
    monkeypatch.setattr(connection, "vendor", "other")  # the ORM's reads, as on SQLite
    assert boot_context_build(agent="a1", now=NOW, **options) == built


@pytest.mark.parametrize("task_type", ["sync", "billing", "none-such"])
def test_a_task_type_the_agent_mostly_has_or_rarely_has_reads_the_same(task_type, monkeypatch):
    """A type most of an agent's open failures have, one they rarely have and one they never
    have: boot's SQL read answers what the ORM's reads answer."""
    failures_record_many([
        {"agent": "a1", "task": f"t{i % 9}", "error": ERRORS[i % 4], "task_type": "billing"
         if i % 8 == 0 else "sync", "occurred_at": NOW - timedelta(minutes=i), "checkpoint":
         {"step": i} if i % 7 == 0 else None} for i in range(boot.OPEN_CAP + 60)])
    record("a2", "t1", ERRORS[0], 3, task_type="billing")
    built = boot_context_build(agent="a1", task_type=task_type, now=NOW)
    assert len(built["recent_failures"]) == (0 if task_type == "none-such" else boot.RECENT_CAP)
    cache.clear()
    monkeypatch.setattr(connection, "vendor", "other")  # the ORM's reads, as on SQLite
    assert boot_context_build(agent="a1", task_type=task_type, now=NOW) == built


def test_a_busy_briefing_takes_five_queries_at_most(django_assert_max_num_queries):
    for task in range(boot.OPEN_TASKS_CAP + 5):
        for attempt in range(3):
            failure = record("a1", f"t{task}", f"Fault{task} in stage", task + attempt / 10,
                             task_type=f"k{task % 7}", checkpoint={"step": attempt})
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
        assert boot_fleet.fleet_build(agent="a1", task_types=["sync"], since=since,
                                      now=NOW) == first
    reads = []
    get_many = boot_fleet.cache.get_many
    monkeypatch.setattr(boot_fleet.cache, "get_many", lambda keys: reads.append(keys) or
                        get_many(keys))
    assert boot_fleet.fleet_build(agent="a1", task_types=["sync"], since=since, now=NOW) == first
    [[name]] = reads  # only the name of the current view; the view is this process's copy
    assert name.startswith("boot:fleet:name:")
