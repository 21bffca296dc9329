"""Regressions (fixed patterns coming back) and loops across the whole fleet."""
import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from failures.jobstate import SETTLE
from failures.models import Failure, Regression
from failures.regressions import QUIET, loops_fleet_detect, regressions_detect
from failures.services import failure_record, failures_resolve
from failures.tasks import regressions_detect_task
from lessons.models import Lesson
from tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

WEBHOOK = "Webhook signature mismatch for stripe events"


def later():
    """A moment when every row this test wrote has settled (see failures.jobstate)."""
    return timezone.now() + SETTLE + timedelta(minutes=1)


def record(hours_ago: float, *, task: str = "webhooks", agent: str = "a", error: str = WEBHOOK):
    return failure_record(agent=agent, task=task, error=error,
                          occurred_at=timezone.now() - timedelta(hours=hours_ago))


def approved_lesson(pattern_id: int, hours_ago: float) -> Lesson:
    lesson = LessonFactory(error_pattern="stripe_signature", status=Lesson.Status.APPROVED)
    lesson.patterns.add(pattern_id)
    Lesson.objects.filter(pk=lesson.pk).update(
        reviewed_at=timezone.now() - timedelta(hours=hours_ago))
    return lesson


def test_failure_after_a_lesson_was_approved_is_a_regression_flagged_once():
    before = record(hours_ago=50)
    lesson = approved_lesson(before.pattern_id, hours_ago=48)
    comeback = record(hours_ago=2)
    assert regressions_detect(now=later()).flagged == 1
    regression = Regression.objects.get()
    assert (regression.pattern_id, regression.kind) == (before.pattern_id, "lesson_approved")
    assert regression.since == comeback.occurred_at
    assert regression.evidence["lessons"][0]["id"] == str(lesson.pk)
    record(hours_ago=1)  # the same episode goes on
    assert regressions_detect(now=later()).flagged == 0
    assert Regression.objects.count() == 1


def test_failures_before_the_approval_are_no_regression():
    failure = record(hours_ago=5)
    approved_lesson(failure.pattern_id, hours_ago=1)
    assert regressions_detect(now=later()).flagged == 0


def resolved_history(hours_ago: float) -> int:
    """A pattern with two failures, both resolved ``hours_ago``; the job has seen them."""
    first = record(hours_ago=hours_ago + 2, task="hook-1")
    record(hours_ago=hours_ago + 1, task="hook-2")
    failures_resolve(agent="a", task="hook-1")
    failures_resolve(agent="a", task="hook-2")
    Failure.objects.update(resolved_at=timezone.now() - timedelta(hours=hours_ago))
    regressions_detect(now=later())
    return first.pattern_id


def test_coming_back_after_all_failures_were_resolved_is_a_regression():
    pattern_id = resolved_history(hours_ago=72)
    comeback = record(hours_ago=3, task="hook-3")
    assert regressions_detect(now=later()).flagged == 1
    regression = Regression.objects.get()
    assert (regression.pattern_id, regression.kind, regression.since) == (
        pattern_id, "resolved", comeback.occurred_at)
    assert regression.evidence == {"resolved_failures": 2, "quiet_hours": 69.0}
    record(hours_ago=2, task="hook-4")
    assert regressions_detect(now=later()).flagged == 0  # the same episode


def test_a_failure_soon_after_resolution_is_flakiness_not_a_regression():
    resolved_history(hours_ago=QUIET / timedelta(hours=1) - 2)
    record(hours_ago=1, task="hook-3")
    assert regressions_detect(now=later()).flagged == 0


def test_a_pattern_with_a_failure_still_open_has_not_gone_away():
    resolved_history(hours_ago=72)
    Failure.objects.filter(task="hook-2").update(status="open", resolved_at=None)
    record(hours_ago=3, task="hook-3")
    assert regressions_detect(now=later()).flagged == 0


def test_loops_are_found_across_every_agents_open_tasks():
    other = "Disk quota exceeded on /var/lib/build"
    for hours_ago in (4, 3, 2):
        record(hours_ago, agent="a", task="deploy", error=other)
    for hours_ago, error in zip((4, 3, 2, 1), (WEBHOOK, other) * 2):
        record(hours_ago, agent="b", task="sync", error=error)
    record(2, agent="c", task="mixed", error=WEBHOOK)
    record(1, agent="c", task="mixed", error=other)
    for hours_ago in (4, 3, 2):
        record(hours_ago, agent="d", task="fixed", error=other)
    failures_resolve(agent="d", task="fixed")
    loops = loops_fleet_detect()
    assert [(e["agent"], e["task"], e["kind"], e["length"]) for e in loops] == [
        ("b", "sync", "alternating", 4), ("a", "deploy", "repeat", 3)]
    assert loops[1]["patterns"][0]["template"] == "Disk quota exceeded on <*>"


def test_task_and_command():
    failure = record(hours_ago=50)
    approved_lesson(failure.pattern_id, hours_ago=48)
    for hours_ago in (3, 2, 1):
        record(hours_ago)
    assert regressions_detect_task() == {"patterns": 1, "flagged": 1, "loops": 1}
    out = io.StringIO()
    call_command("detect_regressions", stdout=out)
    assert "0 new regression(s); 1 task(s) looping" in out.getvalue()
