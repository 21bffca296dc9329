"""Regressions (fixed patterns coming back) and loops across the whole fleet."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from failures.analysis.regressions import QUIET, loops_fleet_detect, regressions_detect
from failures.models import Failure, Regression
from failures.records.services import failure_record, failures_resolve
from failures.store.jobstate import SETTLE
from failures.tasks import regressions_detect_task
from lessons.models import Lesson
from lessons.services import applications_record
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

WEBHOOK = "Webhook signature mismatch for stripe events"


def later():
    """A moment when every row this test wrote has settled (see failures.store.jobstate)."""
    return timezone.now() + SETTLE + timedelta(minutes=1)


def record(hours_ago: float, *, task: str = "webhooks", agent: str = "a", error: str = WEBHOOK):
    return failure_record(
        agent=agent,
        task=task,
        error=error,
        occurred_at=timezone.now() - timedelta(hours=hours_ago),
    )


def approved_lesson(pattern_id: int, hours_ago: float) -> Lesson:
    lesson = LessonFactory(error_pattern="stripe_signature", status=Lesson.Status.APPROVED)
    lesson.patterns.add(pattern_id)
    Lesson.objects.filter(pk=lesson.pk).update(
        reviewed_at=timezone.now() - timedelta(hours=hours_ago)
    )
    return lesson


def applied(lesson: Lesson, failure, *, worked: bool):
    """The agent of ``failure`` applied ``lesson`` to it, a minute later."""
    applications_record(
        entries=[
            dict(
                lesson_id=lesson.pk,
                worked=worked,
                agent=failure.agent,
                task_id=failure.task,
                failure=failure,
                applied_at=failure.occurred_at + timedelta(minutes=1),
            )
        ]
    )


def fixed_by_a_lesson(*, before: int = 3) -> tuple[int, Lesson]:
    """A pattern that failed ``before`` times in the two days before its lesson was approved
    (48 hours ago); the job has seen those failures."""
    first = record(hours_ago=95)
    for n in range(1, before):
        record(hours_ago=95 - n * 10)
    lesson = approved_lesson(first.pattern_id, hours_ago=48)
    regressions_detect(now=later())
    return first.pattern_id, lesson


def test_a_recurrence_its_lesson_keeps_handling_is_not_a_regression():
    pattern_id, lesson = fixed_by_a_lesson()
    for hours_ago in (40, 30, 20, 10, 5):  # back more often than before the fix: a rate limit
        applied(lesson, record(hours_ago, task=f"t{hours_ago}"), worked=True)
    result = regressions_detect(now=later())
    assert (result.flagged, result.handled) == (0, 1)
    episode = Regression.objects.get()
    assert (episode.pattern_id, episode.kind, episode.verdict, episode.regressed_at) == (
        pattern_id,
        "lesson_approved",
        "handled",
        None,
    )
    assert episode.evidence["lessons"][0]["id"] == str(lesson.pk)
    assert {
        key: episode.evidence[key]
        for key in (
            "failures_since",
            "failures_recent",
            "failures_before",
            "applications",
            "worked",
            "recent_applications",
            "recent_worked",
        )
    } == {
        "failures_since": 5,
        "failures_recent": 5,
        "failures_before": 3,
        "applications": 5,
        "worked": 5,
        "recent_applications": 5,
        "recent_worked": 5,
    }


def test_applications_of_the_lesson_failing_is_a_regression_flagged_once():
    _, lesson = fixed_by_a_lesson()
    first = record(hours_ago=40, task="t1")
    applied(lesson, first, worked=True)
    applied(lesson, record(hours_ago=30, task="t2"), worked=False)
    assert regressions_detect(now=later()).handled == 1  # one failure in two: not yet evidence
    applied(lesson, record(hours_ago=20, task="t3"), worked=False)
    comeback = record(hours_ago=10, task="t4")
    applied(lesson, comeback, worked=True)  # 2 of the latest 4 worked: not fewer than half
    assert regressions_detect(now=later()).flagged == 0
    applied(lesson, record(hours_ago=5, task="t5"), worked=False)  # 2 of 5 worked
    result = regressions_detect(now=later())
    assert (result.flagged, result.handled) == (1, 0)
    regression = Regression.objects.get()
    assert (regression.verdict, regression.since) == ("failing", first.occurred_at)
    assert (regression.evidence["recent_applications"], regression.evidence["recent_worked"]) == (
        5,
        2,
    )
    assert regression.regressed_at is not None
    # A regression stays one: the lesson working again does not take it back or count it again.
    applied(lesson, record(hours_ago=1, task="t6"), worked=True)
    assert regressions_detect(now=later()).flagged == 0
    assert Regression.objects.get().verdict == "failing"


def test_back_at_the_pre_fix_rate_with_no_application_that_worked_is_a_regression():
    pattern_id, lesson = fixed_by_a_lesson(before=3)
    applied(lesson, record(hours_ago=30, task="t1"), worked=False)
    record(hours_ago=20, task="t2")
    assert regressions_detect(now=later()).flagged == 0  # twice: below its rate before the fix
    assert Regression.objects.get().verdict == "recurring"
    comeback = record(hours_ago=10, task="t3")
    result = regressions_detect(now=later())
    assert result.flagged == 1
    regression = Regression.objects.get()
    assert (regression.pattern_id, regression.verdict) == (pattern_id, "returned")
    assert (
        regression.evidence["failures_recent"],
        regression.evidence["failures_before"],
        regression.evidence["worked"],
    ) == (3, 3, 0)
    assert regression.since < comeback.occurred_at


def test_back_at_the_pre_fix_rate_but_handled_by_the_lesson_is_not_a_regression():
    _, lesson = fixed_by_a_lesson(before=3)
    for hours_ago in (30, 20, 10):
        record(hours_ago, task=f"t{hours_ago}")
    applied(lesson, record(hours_ago=5, task="t5"), worked=True)
    assert regressions_detect(now=later()).flagged == 0
    assert Regression.objects.get().verdict == "handled"


def test_failures_before_the_approval_are_no_regression():
    failure = record(hours_ago=5)
    approved_lesson(failure.pattern_id, hours_ago=1)
    assert regressions_detect(now=later()).flagged == 0
    assert not Regression.objects.exists()


def resolved_history(hours_ago: float, *, failures: int = 2) -> int:
    """A pattern with ``failures`` failures, all resolved ``hours_ago``; the job has seen them."""
    first = record(hours_ago=hours_ago + 2, task="hook-0")
    for n in range(1, failures):
        record(hours_ago=hours_ago + 1, task=f"hook-{n}")
    for n in range(failures):
        failures_resolve(agent="a", task=f"hook-{n}")
    Failure.objects.update(resolved_at=timezone.now() - timedelta(hours=hours_ago))
    regressions_detect(now=later())
    return first.pattern_id


def test_coming_back_after_all_were_resolved_is_a_regression_at_its_earlier_rate():
    pattern_id = resolved_history(hours_ago=72)
    comeback = record(hours_ago=3, task="back-1")
    assert regressions_detect(now=later()).flagged == 0  # once: it may just recur
    episode = Regression.objects.get()
    assert (episode.pattern_id, episode.kind, episode.since, episode.verdict) == (
        pattern_id,
        "resolved",
        comeback.occurred_at,
        "recurring",
    )
    assert (episode.evidence["resolved_failures"], episode.evidence["quiet_hours"]) == (2, 69.0)
    record(hours_ago=2, task="back-2")
    record(hours_ago=1, task="back-3")  # three since: at least its two before the fix
    assert regressions_detect(now=later()).flagged == 1
    regression = Regression.objects.get()  # the same episode, judged again
    assert (regression.since, regression.verdict) == (comeback.occurred_at, "returned")
    record(hours_ago=0.5, task="back-4")
    assert regressions_detect(now=later()).flagged == 0


def test_a_failure_soon_after_resolution_is_flakiness_not_a_regression():
    resolved_history(hours_ago=QUIET / timedelta(hours=1) - 2)
    for n in range(4):
        record(hours_ago=1, task=f"back-{n}")
    assert regressions_detect(now=later()).flagged == 0
    assert not Regression.objects.exists()


def test_a_pattern_with_a_failure_still_open_has_not_gone_away():
    resolved_history(hours_ago=72)
    Failure.objects.filter(task="hook-1").update(status="open", resolved_at=None)
    for n in range(4):
        record(hours_ago=3, task=f"back-{n}")
    assert regressions_detect(now=later()).flagged == 0
    assert not Regression.objects.exists()


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
        ("b", "sync", "alternating", 4),
        ("a", "deploy", "repeat", 3),
    ]
    assert loops[1]["patterns"][0]["template"] == "Disk quota exceeded on <*>"


def test_task_and_command():
    failure = record(hours_ago=50)
    approved_lesson(failure.pattern_id, hours_ago=48)
    for hours_ago in (3, 2, 1):
        record(hours_ago)
    assert regressions_detect_task() == {"patterns": 1, "flagged": 1, "handled": 0, "loops": 1}
    out = io.StringIO()
    call_command("detect_regressions", stdout=out)
    assert "0 new regression(s), 0 recurring and handled; 1 task(s) looping" in out.getvalue()
