"""A write that races a pattern merge on PostgreSQL lands on the surviving pattern.

The write resolves the message's pattern before the merge commits, then waits for that
pattern's lock, which the merge holds. Once the merge has committed, the write must store and
count its failure (and its outcome's pattern) under the survivor, not the merged-away pattern.
"""

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from failures.models import Failure, FailurePattern
from failures.records.services import failures_record_many
from failures.store.mining import patterns_merge
from lessons.models import Lesson
from lessons.selectors import lesson_check
from lessons.services import lesson_record
from outcomes.models import Outcome
from outcomes.services import outcomes_parse, outcomes_record

BIG = "connection refused to db-primary:5432"
SMALL = "connection reset by db-primary:5432"


def waiting_for_a_lock(timeout: float = 10.0) -> bool:
    """Whether another session of this database is waiting for a lock, polled up to timeout
    (the statistics snapshot is dropped before each look: within a transaction PostgreSQL
    would otherwise answer from the first one)."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                "current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def in_thread(work, errors: list) -> threading.Thread:
    def run():
        try:
            work()
        except Exception as exc:  # noqa: BLE001 - handed to the test to raise
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def merged_while_waiting(small: FailurePattern, big: FailurePattern, write) -> None:
    """Run ``write`` while a merge of ``small`` into ``big`` holds small's lock: the write
    starts after the merge locked the pattern and must wait for it; then the merge commits."""
    merging, go, failed = threading.Event(), threading.Event(), []

    def merge():
        with transaction.atomic():
            list(FailurePattern.objects.select_for_update().filter(pk=small.pk))
            merging.set()
            go.wait(20)
            patterns_merge(pattern_ids={big.pk, small.pk}, template=big.template)

    merger = in_thread(merge, failed)
    assert merging.wait(10)
    writer = in_thread(write, failed)
    waited = waiting_for_a_lock()
    go.set()
    merger.join(20)
    writer.join(20)
    assert not failed, failed
    assert waited, "the write never waited for the merge's lock"
    small.refresh_from_db()
    assert small.merged_into_id == big.pk


def two_patterns() -> tuple[FailurePattern, FailurePattern]:
    """A pattern of three failures and one of one (merged into the first by the tests)."""
    at = timezone.now()
    failures_record_many(
        entries=[
            {"agent": "a", "task": f"big{i}", "error": BIG, "occurred_at": at} for i in range(3)
        ]
    )
    failures_record_many(
        entries=[{"agent": "a", "task": "small", "error": SMALL, "occurred_at": at}]
    )
    return tuple(Failure.objects.filter(error=e).first().pattern for e in (BIG, SMALL))


@pytest.mark.django_db(transaction=True)
def test_a_write_waiting_on_a_merge_lands_on_the_survivor():
    big, small = two_patterns()
    [(item, errors)] = outcomes_parse(
        raw_items=[
            {
                "agent": "b",
                "task_id": "late",
                "task_type": "sync",
                "outcome": "failure",
                "context": {"error_type": "connection", "error_message": SMALL},
            }
        ]
    )
    assert not errors
    merged_while_waiting(small, big, lambda: outcomes_record(items=[item]))
    late = Failure.objects.get(task="late")
    assert late.pattern_id == big.pk
    assert Outcome.objects.get(task_id="late").pattern_id == big.pk
    big.refresh_from_db()
    assert big.event_count == Failure.objects.filter(pattern=big).count() == 5
    assert not Failure.objects.filter(pattern=small).exists()


@pytest.mark.django_db(transaction=True)
def test_a_lesson_linked_while_a_merge_runs_is_linked_to_the_survivor():
    big, small = two_patterns()
    merged_while_waiting(
        small,
        big,
        lambda: lesson_record(
            error_pattern="db_primary_reset",
            error_type="connection",
            resolution="Fail over.",
            error_message=SMALL,
            proposed_by="agent-b",
        ),
    )
    lesson = Lesson.objects.get(error_pattern="db_primary_reset")
    assert list(lesson.patterns.values_list("pk", flat=True)) == [big.pk]
    assert [c.lesson for c in lesson_check(error_message=SMALL).lessons] == [lesson]


@pytest.mark.django_db(transaction=True)
def test_a_lesson_linked_before_a_merge_moves_with_it():
    big, small = two_patterns()
    with transaction.atomic():
        lesson_record(
            error_pattern="db_primary_reset",
            error_type="connection",
            resolution="Fail over.",
            error_message=SMALL,
            proposed_by="agent-b",
        )
        failed = []

        def merge():
            with transaction.atomic():
                patterns_merge(pattern_ids={big.pk, small.pk}, template=big.template)

        merger = in_thread(merge, failed)
        assert waiting_for_a_lock(), "the merge never waited for the link"
    merger.join(20)
    assert not failed, failed
    lesson = Lesson.objects.get(error_pattern="db_primary_reset")
    assert big.pk in set(lesson.patterns.values_list("pk", flat=True))
