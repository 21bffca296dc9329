"""Measured effectiveness: the formulas, the set-based job, and check ranking by its score."""
from datetime import timedelta

import pytest
from django.utils import timezone

from lessons import scoring
from lessons.effectiveness import effectiveness_recompute
from lessons.models import EFFECTIVENESS_PRIOR, RANK_SCORE_PRIOR, Application, Lesson
from lessons.selectors import lesson_check
from tests.factories import LessonFactory


def test_weights_halve_every_half_life():
    assert scoring.weight(0) == 1.0
    assert scoring.weight(scoring.HALF_LIFE_DAYS) == pytest.approx(0.5)
    assert scoring.weight(-3) == 1.0  # a clock slightly ahead is not a bonus


def test_the_prior_and_its_stored_defaults_agree():
    assert scoring.effectiveness(0, 0) == EFFECTIVENESS_PRIOR
    assert scoring.rank_score(0, 0) == pytest.approx(RANK_SCORE_PRIOR, abs=1e-4)


def test_rank_score_rewards_evidence_as_well_as_rate():
    nine_of_ten, one_of_one = scoring.rank_score(9, 10), scoring.rank_score(1, 1)
    never, none_of_five = scoring.rank_score(0, 0), scoring.rank_score(0, 5)
    assert nine_of_ten > one_of_one > never > none_of_five
    assert scoring.effectiveness(1, 1) > scoring.effectiveness(9, 10) * 0.75


def test_wilson_bound_known_value():
    # 8 of 10 at 95 %: the textbook lower bound is 0.490.
    assert scoring.wilson_lower_bound(8, 10) == pytest.approx(0.4902, abs=1e-4)
    assert scoring.wilson_lower_bound(0, 0) == 0.0


def test_flag_reason_needs_evidence_and_a_low_rate():
    assert scoring.flag_reason(0, 2) == ""  # too little evidence
    assert scoring.flag_reason(3, 4) == ""  # works
    assert "0.0 of 5.0" in scoring.flag_reason(0, 5)


def apply(lesson, worked: bool, days_ago: float = 0, now=None):
    now = now or timezone.now()
    return Application.objects.create(lesson=lesson, worked=worked,
                                      applied_at=now - timedelta(days=days_ago))


@pytest.mark.django_db
def test_the_job_computes_what_the_formulas_say():
    now = timezone.now()
    lesson = LessonFactory()
    history = [(True, 0), (True, 10), (False, 20), (True, 45), (False, 90)]
    for worked, days in history:
        apply(lesson, worked, days, now)
    effectiveness_recompute(now=now)
    lesson.refresh_from_db()
    good = sum(scoring.weight(d) for worked, d in history if worked)
    total = sum(scoring.weight(d) for _, d in history)
    assert lesson.effectiveness == pytest.approx(scoring.effectiveness(good, total), rel=1e-6)
    assert lesson.rank_score == pytest.approx(scoring.rank_score(good, total), rel=1e-6)
    assert lesson.evidence == pytest.approx(total, rel=1e-6)
    assert lesson.applications_count == 5 and lesson.scored_at == now
    assert lesson.effectiveness_previous == EFFECTIVENESS_PRIOR  # first scoring of the day


@pytest.mark.django_db
def test_never_applied_lessons_keep_the_prior_and_a_lesson_can_return_to_it():
    quiet, applied = LessonFactory(), LessonFactory()
    apply(applied, True)
    effectiveness_recompute()
    quiet.refresh_from_db()
    assert (quiet.effectiveness, quiet.rank_score, quiet.applications_count) == (
        EFFECTIVENESS_PRIOR, pytest.approx(RANK_SCORE_PRIOR, abs=1e-4), 0)
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
