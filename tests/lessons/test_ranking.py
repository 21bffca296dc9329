"""One ranking (lessons.ranking): its Python sort key and its SQL ordering agree, and the five
answers that rank lessons (the check, the failure answer, boot hints, history and insights) put
one set of lessons in the same order."""

import random
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from lessons.models import Lesson, PatternLink
from lessons.ranking import lessons_ranked, rank_key
from lessons.selectors import CheckedLesson, lesson_check
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

MESSAGE = "billing sync stalled on shard 7 after 120 retries"
NOW = timezone.now()


@pytest.mark.parametrize("skill_name", [None, "fetch"])
def test_the_sort_key_and_the_sql_ordering_agree(skill_name):
    rng = random.Random(11)
    for n in range(60):
        LessonFactory(
            error_pattern=f"p{n}",
            status=rng.choice(["approved", "unverified"]),
            skill_name=rng.choice([None, "fetch", "email"]),
            rank_score=rng.choice([0.1, 0.5]),
            occurrences=rng.choice([1, 2]),
            last_occurred=NOW - timedelta(minutes=rng.choice([0, 5])),
        )
    in_python = sorted(
        (
            CheckedLesson(
                lesson, "type", 0.0, own_skill=bool(skill_name) and lesson.skill_name == skill_name
            )
            for lesson in Lesson.objects.all()
        ),
        key=rank_key,
    )
    in_sql = lessons_ranked(Lesson.objects.all(), skill_name=skill_name)
    assert [entry.lesson.pk for entry in in_python] == [lesson.pk for lesson in in_sql]


def test_the_sort_key_and_the_sql_ordering_agree_on_linked_rows(api):
    """Rows of Lesson.patterns, as history and insights rank them: an unverified lesson linked
    by its writer's own wording comes after the other unverified ones; approved ones are never
    held back by it."""
    pattern_id = api.post(
        "/api/v1/failures", {"agent": "a1", "task": "sync-1", "error": MESSAGE}, format="json"
    ).json()["pattern"]["id"]
    rng = random.Random(5)
    sampled = set()
    for n in range(40):
        lesson = LessonFactory(
            error_pattern=f"p{n}",
            rank_score=rng.choice([0.1, 0.5]),
            status=rng.choice(["approved", "unverified"]),
            occurrences=rng.choice([1, 2]),
        )
        lesson.patterns.add(pattern_id)
        if rng.random() < 0.5:
            PatternLink.objects.create(lesson=lesson, pattern_id=pattern_id, state="sampled")
            sampled.add(lesson.pk)
    in_python = sorted(
        (
            CheckedLesson(
                lesson,
                "pattern",
                1.0,
                own_words=lesson.pk in sampled and lesson.status == "unverified",
            )
            for lesson in Lesson.objects.all()
        ),
        key=rank_key,
    )
    in_sql = lessons_ranked(
        Lesson.patterns.through.objects.filter(failurepattern_id=pattern_id),
        prefix="lesson__",
        pattern_field="failurepattern_id",
    )
    assert [entry.lesson.pk for entry in in_python] == [row.lesson_id for row in in_sql]
    assert any(entry.own_words for entry in in_python)
    statuses = [entry.lesson.status for entry in in_python]
    assert statuses == sorted(statuses)  # "approved" < "unverified": approved all first


def test_a_writers_own_pattern_never_ranks_its_unverified_lesson_above_an_approved_one():
    lesson = LessonFactory(status="approved", rank_score=0.0)
    other = LessonFactory(status="unverified", rank_score=1.0)
    ranked = sorted(
        [
            CheckedLesson(other, "template", 1.0, 9.0, own_words=True),
            CheckedLesson(lesson, "words", 0.5, 1.0),
        ],
        key=rank_key,
    )
    assert [entry.lesson.pk for entry in ranked] == [lesson.pk, other.pk]


def test_the_fit_keys_come_before_approval_once_the_fleet_confirmed_a_link():
    lesson = LessonFactory(status="approved", rank_score=1.0)
    other = LessonFactory(status="unverified", rank_score=0.0)
    ranked = sorted(
        [CheckedLesson(lesson, "words", 1.0, 9.0), CheckedLesson(other, "pattern", 1.0)],
        key=rank_key,
    )
    assert [entry.lesson.pk for entry in ranked] == [other.pk, lesson.pk]


@pytest.fixture
def ranked_lessons(api):
    """A failure's pattern and lessons linked to it, in their expected order: approval, then
    ranking score, occurrences, recency and primary key, whatever their effectiveness; last,
    an unverified lesson linked only by its writer's own wording, however high its scores."""
    body = api.post(
        "/api/v1/failures",
        {
            "agent": "a1",
            "task": "sync-1",
            "task_type": "sync",
            "error": MESSAGE,
            "error_type": "sync",
        },
        format="json",
    ).json()
    pattern_id = body["pattern"]["id"]
    low, high = sorted(uuid.uuid4() for _ in range(2))
    rows = [  # (fields), in the expected order
        dict(status="approved", rank_score=0.9, occurrences=1, effectiveness=0.2),
        dict(status="approved", rank_score=0.5, occurrences=9, effectiveness=0.99),
        dict(
            status="approved", rank_score=0.5, occurrences=3, effectiveness=0.7, last_occurred=NOW
        ),
        dict(
            id=low,
            status="approved",
            rank_score=0.5,
            occurrences=3,
            effectiveness=0.8,
            last_occurred=NOW - timedelta(hours=1),
        ),
        dict(
            id=high,
            status="approved",
            rank_score=0.5,
            occurrences=3,
            effectiveness=0.9,
            last_occurred=NOW - timedelta(hours=1),
        ),
        dict(status="unverified", rank_score=1.0, occurrences=50, effectiveness=1.0),
        dict(status="unverified", rank_score=1.0, occurrences=99, effectiveness=1.0, sampled=True),
    ]
    lessons = []
    for n, fields in enumerate(reversed(rows)):  # written in the other order
        fields.setdefault("last_occurred", NOW - timedelta(days=1))
        sampled = fields.pop("sampled", False)
        lesson = LessonFactory(
            error_pattern=f"fix {n}",
            error_type="sync",
            resolution=f"resolution {len(rows) - 1 - n}",
            **fields,
        )
        lesson.patterns.add(pattern_id)
        if sampled:
            PatternLink.objects.create(lesson=lesson, pattern_id=pattern_id, state="sampled")
        lessons.append(lesson)
    LessonFactory(error_pattern="rejected fix", status="rejected", rank_score=1.0).patterns.add(
        pattern_id
    )
    return [str(lesson.pk) for lesson in reversed(lessons)]


def test_every_answer_ranks_one_set_of_lessons_alike(api, ranked_lessons):
    order = ranked_lessons
    approved = order[:5]

    checked = lesson_check(error_message=MESSAGE, error_type="sync", limit=10)
    assert [str(entry.lesson.pk) for entry in checked.lessons] == order

    answer = api.post(
        "/api/v1/failures",
        {
            "agent": "a1",
            "task": "sync-2",
            "task_type": "sync",
            "error": MESSAGE,
            "error_type": "sync",
        },
        format="json",
    ).json()
    assert [lesson["id"] for lesson in answer["lessons"]] == order[:5]

    hints = api.get("/api/v1/boot", {"agent": "a1"}).json()["hints"]
    assert {entry["task"] for entry in hints} == {"sync-1", "sync-2"}
    for entry in hints:
        assert [lesson["id"] for lesson in entry["lessons"]] == approved[:3]

    api.post(
        "/api/v1/outcomes",
        {
            "agent": "a1",
            "task_id": "sync-3",
            "task_type": "sync",
            "outcome": "failure",
            "context": {"error_message": MESSAGE},
        },
        format="json",
    )
    best = Lesson.objects.get(pk=order[0]).resolution
    history = api.get("/api/v1/outcomes/history", {"agent": "a1"}).json()["historyContext"]
    assert f"Known fix (approved lesson): {best}" in history
    assert "resolution 1" not in history

    insights = api.get("/api/v1/outcomes/insights", {"agent": "a1"}).json()
    fixes = [line for line in insights["recommendations"] if line.startswith("Known fix")]
    assert fixes and all(line.endswith(f"(approved lesson): {best}") for line in fixes)


def test_the_fits_a_check_loads_are_the_ones_the_ranking_puts_first():
    """The check loads only the best fits (selectors._reaching), ranked by what a fit alone
    tells: that must be the ranking's own order, not a second spelling of it. Lessons equal in
    every other key come out of the full ranking in the order the fits were loaded."""
    from lessons.match_index import Found
    from lessons.matching import Fit
    from lessons.selectors import _reaching

    rng = random.Random(35)
    kinds = ["template", "words"]
    fits = {
        uuid.UUID(int=n): Found(
            Fit(rng.choice(kinds), rng.choice([0.6, 0.75, 1.0]), rng.choice([2.0, 3.5])),
            "timeout",
            rng.random() < 0.5,
        )
        for n in range(60)
    }
    loaded = _reaching(fits, 60)
    lesson = Lesson(rank_score=0.5, occurrences=1, last_occurred=timezone.now())

    def entry(pk):
        found = fits[pk]
        lesson_of = Lesson(
            pk=pk,
            status=Lesson.Status.APPROVED if found.approved else Lesson.Status.UNVERIFIED,
            rank_score=lesson.rank_score,
            occurrences=lesson.occurrences,
            last_occurred=lesson.last_occurred,
        )
        return CheckedLesson(
            lesson_of,
            found.fit.kind,
            found.fit.score,
            found.fit.size,
            own_words=not found.approved,
        )

    assert loaded == sorted(fits, key=lambda pk: rank_key(entry(pk)))
