"""A row dated far in the future or the past, written past the API's checks (an older version,
an import, a hand edit), fails no periodic job and no read for the other rows.

The API refuses timestamps more than a day ahead; these rows are written through the services
and the ORM, as such data would be already stored.
"""

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.core.management import call_command
from django.utils import timezone

from failures.analysis.regressions import regressions_detect
from failures.analysis.rootcauses import root_causes_detect
from failures.models import Failure
from failures.records.services import failure_record
from failures.staff.reports import pattern_report_build
from failures.store.jobstate import SETTLE
from failures.store.pattern_job import patterns_update
from lessons.effectiveness import effectiveness_recompute
from lessons.models import Application, Lesson
from outcomes.models import Outcome
from outcomes.services import outcomes_prune
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

LAST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt_timezone.utc)
FIRST = datetime(1, 1, 1, tzinfo=dt_timezone.utc)
FAR = [LAST, datetime(2200, 1, 1, tzinfo=dt_timezone.utc), FIRST]
ERROR = "Twilio API timeout after 30 seconds"


def _far_rows(lesson: Lesson) -> None:
    for moment in FAR:
        failure = failure_record(
            agent="far",
            task="far",
            error=ERROR,
            error_type="timeout",
            occurred_at=moment,
            retry_after=3600,
        )
        Outcome.objects.create(
            task_id="far",
            agent="far",
            task_type="fix_bug",
            outcome="failure",
            occurred_at=moment,
            failure=failure,
            pattern_id=failure.pattern_id,
            duration_ms=5,
        )
        Application.objects.create(lesson=lesson, worked=False, applied_at=moment)
    Lesson.objects.filter(pk=lesson.pk).update(last_occurred=LAST)


def test_the_effectiveness_job_scores_every_lesson_despite_far_dated_applications():
    now = timezone.now()
    far, normal = LessonFactory(), LessonFactory()
    _far_rows(far)
    Application.objects.create(lesson=normal, worked=True, applied_at=now - timedelta(days=30))

    assert effectiveness_recompute(now=now) == 2
    assert effectiveness_recompute(lesson_ids=[far.pk], now=now) == 1  # the job after a report

    normal.refresh_from_db()
    far.refresh_from_db()
    # Worked once, a half-life ago: (0.5 + 1) / (0.5 + 2).
    assert normal.effectiveness == pytest.approx(0.6)
    # The future ones weigh as today's, the one of year 1 as a thousand half-lives old
    # (0.5 ** 1000, about 9e-302, nil beside the others: the job clamps the age where POWER
    # would underflow and fail the statement).
    assert far.evidence == pytest.approx(2.0, rel=1e-12)
    assert far.effectiveness == pytest.approx(1 / 4)


def test_every_periodic_job_runs_with_far_dated_rows():
    lesson = LessonFactory(status=Lesson.Status.APPROVED)
    recent = failure_record(
        agent="a",
        task="t",
        error=ERROR,
        error_type="timeout",
        occurred_at=timezone.now() - timedelta(hours=2),
    )
    lesson.patterns.add(recent.pattern_id)
    _far_rows(lesson)
    later = timezone.now() + SETTLE + timedelta(minutes=1)

    patterns_update(now=later)
    regressions_detect(now=later)
    root_causes_detect(now=later)
    report = pattern_report_build(since=later - timedelta(days=1), until=later)
    effectiveness_recompute(now=later)
    assert outcomes_prune(older_than_days=90) == 1  # the one of year 1
    call_command("pattern_report", stdout=open("/dev/null", "w"))

    assert report.pk and Failure.objects.filter(agent="far").count() == 3
    assert Lesson.objects.get(pk=lesson.pk).scored_at is not None


@pytest.mark.parametrize(
    "url, params",
    [
        ("/api/v1/boot", {"agent": "far"}),
        ("/api/v1/boot", {"agent": "far", "format": "markdown"}),
        ("/api/v1/failures", {"agent": "far"}),
        ("/api/v1/failures", {"agent": "far", "limit": 1}),
        ("/api/v1/outcomes/history", {"agent": "far", "task_type": "fix_bug"}),
        ("/api/v1/outcomes/history", {"agent": "far", "format": "markdown"}),
        ("/api/v1/outcomes/insights", {"agent": "far"}),
        ("/api/v1/outcomes/stats", {}),
        ("/api/v1/lessons/check", {"error_type": "timeout", "error_message": ERROR}),
        ("/api/v1/lessons", {}),
    ],
)
def test_reads_answer_with_far_dated_rows(api, url, params):
    _far_rows(LessonFactory(status=Lesson.Status.APPROVED))
    response = api.get(url, params)
    assert response.status_code == 200, response.content
