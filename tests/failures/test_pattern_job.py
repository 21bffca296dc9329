"""The incremental pattern job: merges new shapes, recounts what got failures, nothing else."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from failures.models import FailurePattern, JobState
from failures.records.services import failure_record, failures_record_many
from failures.store.jobstate import SETTLE
from failures.store.pattern_job import JOB, patterns_update
from failures.tasks import patterns_update_task

pytestmark = pytest.mark.django_db

USERS = ["alice", "bob", "carol", "dave"]


def later():
    """A moment when every row this test wrote has settled (see failures.store.jobstate)."""
    return timezone.now() + SETTLE + timedelta(minutes=1)


def record(user: str, agent: str = "a1"):
    return failure_record(
        agent=agent,
        task=f"login-{user}",
        error_type="auth",
        error=f"session expired for user {user} while syncing mailbox",
    )


def counts(pattern: FailurePattern) -> tuple:
    pattern.refresh_from_db()
    return pattern.event_count, pattern.agent_count, pattern.task_count


def test_a_new_shape_merges_with_the_patterns_it_completes():
    for i, user in enumerate(USERS[:3]):
        record(user, agent=f"a{i}")
    assert patterns_update(now=later()).merged == 0  # three words in a slot are not yet a variable
    record("dave", agent="a3")
    result = patterns_update(now=later())
    assert (result.templates, result.merged) == (1, 3)
    (pattern,) = FailurePattern.objects.filter(merged_into__isnull=True)
    assert pattern.template == "session expired for user <*> while syncing mailbox"
    assert counts(pattern) == (4, 4, 4)


def test_rerunning_with_nothing_new_changes_nothing():
    for user in USERS:
        record(user)
    patterns_update(now=later())
    before = list(FailurePattern.objects.order_by("pk").values())
    again = patterns_update(now=later())
    assert (again.templates, again.failures, again.merged, again.recounted) == (0, 0, 0, 0)
    assert list(FailurePattern.objects.order_by("pk").values()) == before


def test_only_patterns_with_new_failures_are_recounted():
    old = failure_record(agent="a", task="t", error="disk full on volume data-7").pattern
    busy = failure_record(agent="a", task="t", error="TLS handshake failed with vault").pattern
    patterns_update(now=later())
    # Drift both counters; only the pattern that gets a new failure is corrected.
    FailurePattern.objects.update(event_count=99, agent_count=99)
    failure_record(agent="b", task="u", error="TLS handshake failed with vault")
    result = patterns_update(now=later())
    assert (result.failures, result.recounted) == (1, 1)
    assert counts(busy) == (2, 2, 2)
    assert counts(old)[:2] == (99, 99)


def test_rows_written_just_now_are_read_again_until_settled():
    record("alice")
    assert patterns_update().failures == 1  # run right away: the row may have company coming
    assert patterns_update().failures == 1  # so the watermark stayed below it
    assert patterns_update(now=later()).failures == 1
    assert patterns_update(now=later()).failures == 0
    assert JobState.objects.get(name=JOB).failure_watermark > 0


def history(size: int, offset: int = 0):
    """``size`` unrelated patterns (each its own first word) with three failures each, settled."""
    names = ["".join("bcdfghjklm"[int(d)] for d in str(n)) for n in range(offset, offset + size)]
    failures_record_many(
        entries=[
            {
                "agent": f"h{k}",
                "task": f"job-{name}",
                "error": f"{name}d worker crashed on startup",
            }
            for name in names
            for k in range(3)
        ]
    )
    patterns_update(now=later())


def queries_for_new_data(tag: str) -> tuple[int, object]:
    failure_record(agent="x", task="y", error=f"quota exceeded for bucket assets-{tag}")
    with CaptureQueriesContext(connection) as captured:
        result = patterns_update(now=later())
    return len(captured), result


def test_cost_follows_new_data_not_history():
    history(3)
    small, first = queries_for_new_data("one")
    history(60, offset=3)
    assert FailurePattern.objects.count() == 3 + 1 + 60
    large, second = queries_for_new_data("two")
    assert small == large
    assert (first.templates, first.failures) == (second.templates, second.failures) == (1, 1)


def test_task_and_command():
    record("alice")
    assert patterns_update_task() == {
        "templates": 1,
        "failures": 1,
        "merged": 0,
        "widened": 0,
        "recounted": 1,
    }
    out = io.StringIO()
    call_command("update_patterns", stdout=out)
    assert "1 new template(s), 1 new failure(s)" in out.getvalue()  # not settled yet
