"""Measured effectiveness: what the set-based job stores, checked against numbers computed by
hand from the formulas (lessons.effectiveness), and check ranking by its score."""

from datetime import timedelta

import pytest
from django.utils import timezone

from lessons import scoring
from lessons.effectiveness import effectiveness_recompute
from lessons.models import EFFECTIVENESS_PRIOR, RANK_SCORE_PRIOR, Application, Lesson
from lessons.selectors import lesson_check
from tests.lessons.factories import LessonFactory


def apply(lesson, worked: bool, days_ago: float = 0, now=None):
    now = now or timezone.now()
    return Application.objects.create(
        lesson=lesson, worked=worked, applied_at=now - timedelta(days=days_ago)
    )


def scored(lesson) -> Lesson:
    lesson.refresh_from_db()
    return lesson


@pytest.mark.django_db
def test_weights_halve_every_half_life():
    now = timezone.now()
    month_old, from_the_future = LessonFactory(), LessonFactory()
    apply(month_old, True, scoring.HALF_LIFE_DAYS, now)
    apply(from_the_future, True, -3, now)  # a clock slightly ahead is not a bonus
    effectiveness_recompute(now=now)
    # One half-life old: weight 0.5, so (0.5 + 1) / (0.5 + 2) = 0.6.
    assert scored(month_old).evidence == pytest.approx(0.5)
    assert month_old.effectiveness == pytest.approx(0.6)
    assert scored(from_the_future).evidence == pytest.approx(1.0)
    assert from_the_future.effectiveness == pytest.approx(2 / 3)


@pytest.mark.django_db
def test_the_job_computes_what_the_formulas_say():
    now = timezone.now()
    lesson = LessonFactory()
    history = [(True, 0), (True, 10), (False, 20), (True, 45), (False, 90)]
    for worked, days in history:
        apply(lesson, worked, days, now)
    effectiveness_recompute(now=now)
    lesson.refresh_from_db()
    # Weights 0.5 ** (days / 30): 1, 0.7937005, 0.6299605, 0.3535534, 0.125.
    # S = 1 + 0.7937005 + 0.3535534 = 2.1472539; N = S + 0.6299605 + 0.125 = 2.9022144.
    assert lesson.evidence == pytest.approx(2.9022144, rel=1e-6)
    # (S + 1) / (N + 2) = 3.1472539 / 4.9022144
    assert lesson.effectiveness == pytest.approx(0.6420066, rel=1e-6)
    # Wilson lower bound, z = 1.96, of 3.1472539 successes in 4.9022144 tries.
    assert lesson.rank_score == pytest.approx(0.2557790, rel=1e-6)
    assert lesson.applications_count == 5 and lesson.scored_at == now
    assert lesson.effectiveness_previous == EFFECTIVENESS_PRIOR  # first scoring of the day


@pytest.mark.django_db
def test_the_prior_and_its_stored_defaults_agree():
    lesson = LessonFactory()
    default = (lesson.effectiveness, lesson.rank_score)
    effectiveness_recompute()
    # Never applied: (0 + 1) / (0 + 2), and the Wilson bound of 1 success in 2 tries, 0.0945287.
    assert scored(lesson).effectiveness == default[0] == EFFECTIVENESS_PRIOR == 0.5
    assert lesson.rank_score == pytest.approx(0.0945287, rel=1e-6)
    assert default[1] == RANK_SCORE_PRIOR == pytest.approx(lesson.rank_score, abs=1e-4)


@pytest.mark.django_db
def test_rank_score_rewards_evidence_as_well_as_rate():
    lessons = {record: LessonFactory() for record in [(9, 10), (1, 1), (0, 0), (0, 5), (7, 8)]}
    for (good, total), lesson in lessons.items():
        for n in range(total):
            apply(lesson, n < good)
    effectiveness_recompute()
    rank = {record: scored(lesson).rank_score for record, lesson in lessons.items()}
    effectiveness = {record: lesson.effectiveness for record, lesson in lessons.items()}
    assert rank[(9, 10)] > rank[(1, 1)] > rank[(0, 0)] > rank[(0, 5)]
    # By hand: 10/12 = 0.8333333 and 2/3 = 0.6666667, Wilson bounds of 10 in 12 and 2 in 3.
    assert effectiveness[(9, 10)] == pytest.approx(0.8333333, rel=1e-5)
    assert effectiveness[(1, 1)] == pytest.approx(0.6666667, rel=1e-5)
    assert rank[(9, 10)] == pytest.approx(0.5519636, rel=1e-5)
    assert rank[(1, 1)] == pytest.approx(0.2076550, rel=1e-5)
    assert rank[(0, 5)] == pytest.approx(0.0256790, rel=1e-5)
    # 7 of 8 with the prior is 8 of 10 at 95 %: the textbook lower bound is 0.490.
    assert rank[(7, 8)] == pytest.approx(0.4902, abs=1e-4)


@pytest.mark.django_db
def test_a_flag_needs_evidence_and_a_low_rate():
    too_little, works, fails = LessonFactory(), LessonFactory(), LessonFactory()
    for _ in range(2):
        apply(too_little, False)
    for n in range(4):
        apply(works, n < 3)
    for _ in range(5):
        apply(fails, False)
    effectiveness_recompute()
    assert (scored(too_little).flagged, too_little.flagged_reason) == (False, "")
    assert (scored(works).flagged, works.flagged_reason) == (False, "")
    # (0 + 1) / (5 + 2) = 0.1428571: below 0.35 with 5 applications of evidence.
    assert scored(fails).flagged and fails.flagged_reason == (
        "worked in 0.0 of 5.0 recent (decay-weighted) applications; effectiveness 0.14"
    )


@pytest.mark.django_db
def test_never_applied_lessons_keep_the_prior_and_a_lesson_can_return_to_it():
    quiet, applied = LessonFactory(), LessonFactory()
    apply(applied, True)
    effectiveness_recompute()
    quiet.refresh_from_db()
    assert (quiet.effectiveness, quiet.rank_score, quiet.applications_count) == (
        EFFECTIVENESS_PRIOR,
        pytest.approx(RANK_SCORE_PRIOR, abs=1e-4),
        0,
    )
    Application.objects.all().delete()
    effectiveness_recompute()
    applied.refresh_from_db()
    assert applied.effectiveness == EFFECTIVENESS_PRIOR and applied.applications_count == 0


@pytest.mark.django_db
def test_a_lesson_that_keeps_failing_is_flagged_and_unflagged_when_it_recovers():
    lesson = LessonFactory()
    for _ in range(5):
        apply(lesson, False)
    effectiveness_recompute()
    lesson.refresh_from_db()
    assert lesson.flagged and "of 5.0" in lesson.flagged_reason
    for _ in range(20):
        apply(lesson, True)
    effectiveness_recompute()
    lesson.refresh_from_db()
    assert not lesson.flagged and lesson.flagged_reason == ""


@pytest.mark.django_db
def test_previous_effectiveness_is_yesterdays_last_value():
    lesson = LessonFactory()
    day_one = timezone.now().replace(hour=10, minute=0) - timedelta(days=1)
    apply(lesson, True, now=day_one)
    effectiveness_recompute(now=day_one)
    effectiveness_recompute(now=day_one + timedelta(hours=1))
    lesson.refresh_from_db()
    assert lesson.effectiveness_previous == EFFECTIVENESS_PRIOR  # same day: unchanged
    yesterdays = lesson.effectiveness
    for _ in range(4):
        apply(lesson, False, now=day_one + timedelta(days=1))
    effectiveness_recompute(now=day_one + timedelta(days=1))
    lesson.refresh_from_db()
    assert lesson.effectiveness_previous == pytest.approx(yesterdays)
    assert lesson.effectiveness < lesson.effectiveness_previous


@pytest.mark.django_db
def test_recomputing_named_lessons_leaves_the_others_alone():
    named, other = LessonFactory(), LessonFactory()
    apply(named, True)
    apply(other, True)
    assert effectiveness_recompute(lesson_ids=[named.pk]) == 1
    named.refresh_from_db()
    other.refresh_from_db()
    assert named.applications_count == 1 and other.applications_count == 0
    assert other.scored_at is None


@pytest.mark.django_db
def test_the_job_is_idempotent():
    now = timezone.now()
    lesson = LessonFactory()
    apply(lesson, True, 3, now)
    effectiveness_recompute(now=now)
    first = Lesson.objects.values().get(pk=lesson.pk)
    effectiveness_recompute(now=now)
    assert Lesson.objects.values().get(pk=lesson.pk) == first


@pytest.mark.django_db
def test_check_ranks_by_measured_score():
    proven = LessonFactory(error_pattern="proven", error_type="timeout", occurrences=1)
    lucky = LessonFactory(error_pattern="lucky", error_type="timeout", occurrences=1)
    failing = LessonFactory(error_pattern="failing", error_type="timeout", occurrences=50)
    for n in range(10):
        apply(proven, n < 9)
    apply(lucky, True)
    for _ in range(6):
        apply(failing, False)
    effectiveness_recompute()
    ranked = [c.lesson.error_pattern for c in lesson_check(error_type="timeout").related]
    assert ranked == ["proven", "lucky", "failing"]


@pytest.mark.django_db
def test_recompute_command(capsys):
    from django.core.management import call_command

    lesson = LessonFactory()
    for _ in range(4):
        apply(lesson, False)
    call_command("recompute_effectiveness")
    assert "1 flagged for review" in capsys.readouterr().out
