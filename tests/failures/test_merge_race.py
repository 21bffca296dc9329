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

from failures.mining import patterns_merge
from failures.models import Failure, FailurePattern
from failures.services import failures_record_many
from outcomes.models import Outcome
from outcomes.services import outcomes_parse, outcomes_record

BIG = "connection refused to db-primary:5432"
SMALL = "connection reset by db-primary:5432"


def waiting_for_a_lock(timeout: float = 10.0) -> bool:
    """Whether another session of this database is waiting for a lock, polled up to timeout
    (outside a transaction: within one, PostgreSQL answers from one snapshot of the activity)."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
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


@pytest.mark.django_db(transaction=True)
def test_a_write_waiting_on_a_merge_lands_on_the_survivor():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and concurrent sessions need PostgreSQL")
    at = timezone.now()
    failures_record_many([{"agent": "a", "task": f"big{i}", "error": BIG, "occurred_at": at}
                          for i in range(3)])
    failures_record_many([{"agent": "a", "task": "small", "error": SMALL, "occurred_at": at}])
    big, small = (Failure.objects.filter(error=e).first().pattern for e in (BIG, SMALL))
    [(item, errors)] = outcomes_parse([{
        "agent": "b", "task_id": "late", "task_type": "sync", "outcome": "failure",
        "context": {"error_type": "connection", "error_message": SMALL}}])
    assert not errors
    merging, go, failed = threading.Event(), threading.Event(), []

    def merge():
        with transaction.atomic():
            list(FailurePattern.objects.select_for_update().filter(pk=small.pk))
            merging.set()
            go.wait(20)
            patterns_merge({big.pk, small.pk}, big.template)

    merger = in_thread(merge, failed)
    assert merging.wait(10)
    writer = in_thread(lambda: outcomes_record([item]), failed)
    waited = waiting_for_a_lock()
    go.set()
    merger.join(20)
    writer.join(20)
    assert not failed, failed
    assert waited, "the write never waited for the merge's lock"
    small.refresh_from_db()
    assert small.merged_into_id == big.pk
    late = Failure.objects.get(task="late")
    assert late.pattern_id == big.pk
    assert Outcome.objects.get(task_id="late").pattern_id == big.pk
    big.refresh_from_db()
    assert big.event_count == Failure.objects.filter(pattern=big).count() == 5
    assert not Failure.objects.filter(pattern=small).exists()
