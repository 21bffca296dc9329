"""The message check against a reference that fits every lesson one by one and sorts by the
documented ranking, and the check endpoint's JSON against CheckedLessonOutputSerializer."""

import itertools
import json
import random
import uuid
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Q
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from failures.models import FailurePattern
from failures.records.selectors import pattern_of_message
from failures.store.patterns import pattern_for_message
from lessons.matching import (
    TEMPLATE,
    WORDS,
    compile_pattern,
    fit,
    names_apply,
    names_held,
    prepare_message,
)
from lessons.models import Lesson
from lessons.selectors import CheckedLesson, lesson_check
from lessons.serializers import CheckedLessonOutputSerializer, checked_lessons_json
from tests.lessons.factories import LessonFactory
from tests.lessons.oracles import told_apart

pytestmark = pytest.mark.django_db

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=dt_timezone.utc)
MESSAGES = [
    "litellm timeout after 600 seconds calling model",
    "HTTP 429 rate limit reached for api.openai.com",
    "connection refused to db host 10.0.0.7 port 5432",
    "timeout",
    "nothing known looks like this message",
]
PATTERNS = [
    "litellm timeout after <*> seconds",
    "litellm timeout",
    "timeout calling model",
    "model timeout",
    "api_429_rate_limit",
    "rate limit reached",
    "http 429",
    "connection refused",
    "db host connection refused",
    "refused port 5432",
    "timeout",
    "calling model failed",
    "openai rate limit",
    "seconds timeout après délai",
    "验证 timeout",
]
FIT_ORDER = {"pattern": 3, "template": 2, "words": 1}


def reference_check(
    *, error_type=None, skill_name=None, error_message, limit=5, approved_only=False
):
    """The check as documented, lesson by lesson: linked to the message's pattern (the names of
    its error_pattern in the message), or fitting it (across error classes only by a template
    with a distinctive word or three words). Unverified lessons found by their own error_pattern
    come last; then ranked by fit, score and size, then approval, the skill's own, ranking
    score, occurrences, recency and primary key; then the lessons of the type that do not
    match, ranked the same way from approval on."""
    candidates = Lesson.objects.exclude(status=Lesson.Status.REJECTED)
    if approved_only:
        candidates = candidates.filter(status=Lesson.Status.APPROVED)
    if skill_name:
        candidates = candidates.filter(Q(skill_name=skill_name) | Q(skill_name__isnull=True))
    everyone = list(Lesson.objects.exclude(status=Lesson.Status.REJECTED))
    pattern = pattern_of_message(message=error_message)
    linked = (
        set(candidates.filter(patterns=pattern).values_list("pk", flat=True)) if pattern else set()
    )
    matched, typed = [], []
    message = prepare_message(error_message)
    for lesson in candidates:
        compiled = compile_pattern(lesson.error_pattern)
        fitted = fit(compiled, message)
        same = (
            not error_type
            or not lesson.error_type
            or (lesson.error_type.split(".")[-1].lower() == error_type.split(".")[-1].lower())
        )
        # a slug is its writer's words: across types only through a carrier type
        strong = not compiled.slug and (compiled.sequence or len(compiled.words) >= 3)
        if fitted and not same and not (fitted.kind == TEMPLATE and strong):
            fitted = None
        if (
            fitted
            and fitted.kind == WORDS
            and fitted.score < 1
            and told_apart(
                lesson.error_pattern,
                [other.error_pattern for other in everyone if other.pk != lesson.pk],
                error_message,
            )
        ):
            fitted = None
        if lesson.pk in linked and (
            names_held(compiled, message) or not names_apply(compiled, pattern.template)
        ):
            matched.append(CheckedLesson(lesson, "pattern", 1.0))
        elif fitted:
            matched.append(
                CheckedLesson(
                    lesson,
                    fitted.kind,
                    fitted.score,
                    fitted.size,
                    own_words=lesson.status != Lesson.Status.APPROVED,
                )
            )
        elif error_type and lesson.error_type == error_type:
            typed.append(CheckedLesson(lesson, "type", 0.0))

    def rank(c):
        return (
            c.lesson.status == Lesson.Status.APPROVED,
            bool(skill_name) and c.lesson.skill_name == skill_name,
            c.lesson.rank_score,
            c.lesson.occurrences,
            c.lesson.last_occurred,
        )

    for found in (matched, typed):
        found.sort(key=lambda c: c.lesson.pk)
        found.sort(key=rank, reverse=True)
    matched.sort(
        key=lambda c: (not c.own_words, FIT_ORDER[c.match], c.score, c.fit_size), reverse=True
    )
    return matched[:limit], typed[:limit]


def answer(found):
    if isinstance(found, tuple):
        return tuple(answer(part) for part in found)
    if not isinstance(found, list):
        return answer((found.lessons, found.related))
    return [(entry.lesson.pk, entry.match, entry.score) for entry in found]


@pytest.fixture
def varied():
    """Lessons of two types, three skills (or none), every status, a few ranking scores and
    occurrences (so ranks tie on early keys), distinct recency; some linked to the pattern of a
    message, one to a pattern merged into another."""
    draw = random.Random(7)
    lessons = []
    for i, text in enumerate(PATTERNS * 3):
        lessons.append(
            LessonFactory(
                error_pattern=f"{text} {i // len(PATTERNS)}" if i >= len(PATTERNS) else text,
                error_type=draw.choice(["timeout", "rate_limit"]),
                skill_name=draw.choice([None, None, "alpha", "beta"]),
                status=draw.choice(["unverified", "unverified", "approved", "rejected"]),
                rank_score=draw.choice([0.1, 0.5, 0.9]),
                occurrences=draw.choice([1, 3]),
                last_occurred=BASE + timedelta(minutes=i),
            )
        )
    timeout = pattern_for_message(message=MESSAGES[0])
    refused = pattern_for_message(message=MESSAGES[2])
    rate = pattern_for_message(message=MESSAGES[1])
    survivor = pattern_for_message(message="rate limited by upstream gateway")
    FailurePattern.objects.filter(pk=rate.pk).update(merged_into=survivor)
    for lesson in lessons[::4]:
        lesson.patterns.add(timeout)
    for lesson in lessons[1::5]:
        lesson.patterns.add(refused)
    for lesson in lessons[2::6]:
        lesson.patterns.add(survivor)
    for lesson in lessons[3::7]:
        lesson.patterns.add(rate)  # the merged alias: no longer the message's pattern
    return lessons


@pytest.mark.parametrize("message", MESSAGES)
def test_message_check_answers_as_the_reference(varied, message):
    combos = itertools.product(
        [None, "timeout", "rate_limit"], [None, "alpha"], [False, True], [1, 3, 5, 50]
    )
    for error_type, skill_name, approved_only, limit in combos:
        asked = dict(
            error_type=error_type,
            skill_name=skill_name,
            error_message=message,
            limit=limit,
            approved_only=approved_only,
        )
        assert answer(lesson_check(**asked)) == answer(reference_check(**asked)), asked


def test_varied_answers_hold_every_kind_of_match(varied):
    kinds = set()
    for message in MESSAGES:
        found = lesson_check(error_type="timeout", error_message=message, limit=50)
        kinds |= {entry.match for entry in found.lessons + found.related}
    assert kinds == {"pattern", "template", "words", "type"}


def test_a_lesson_found_every_way_keeps_the_pattern_link_and_its_score():
    pattern = pattern_for_message(message="litellm timeout after 600 seconds")
    both = LessonFactory(
        error_pattern="litellm timeout after <*> seconds", error_type="timeout", rank_score=0.1
    )
    both.patterns.add(pattern)
    matched = LessonFactory(error_pattern="litellm timeout", error_type="timeout", rank_score=0.9)
    typed = LessonFactory(error_pattern="disk full", error_type="timeout", rank_score=0.95)
    found = lesson_check(error_type="timeout", error_message="litellm timeout after 600 seconds")
    assert [(entry.lesson.pk, entry.match) for entry in found.lessons] == [
        (both.pk, "pattern"),
        (matched.pk, "template"),
    ]
    assert [(entry.lesson.pk, entry.match) for entry in found.related] == [(typed.pk, "type")]
    assert found.lessons[0].score == 1.0


def descending_ids(n: int) -> list[uuid.UUID]:
    """Primary keys that sort the other way round from the order the rows are written in."""
    return [uuid.UUID(int=(n - i) << 64) for i in range(n)]


SAME = dict(error_type="timeout", rank_score=0.5, occurrences=2, last_occurred=BASE)


def test_full_ties_come_in_primary_key_order():
    tied = [
        LessonFactory(id=pk, error_pattern=f"queue stalled <*> {word}", **SAME)
        for pk, word in zip(descending_ids(4), ("alpha", "beta", "gamma", "delta"))
    ]
    message = "queue stalled on alpha beta gamma delta"
    found = lesson_check(error_message=message, limit=3)
    assert answer(found) == answer(reference_check(error_message=message, limit=3))
    assert [entry.lesson.pk for entry in found.lessons] == sorted(l.pk for l in tied)[:3]


def test_type_ties_beyond_the_limit_stay_out_as_the_type_ranking_leaves_them():
    LessonFactory(error_pattern="queue stalled", **SAME)
    for pk in descending_ids(6):
        LessonFactory(id=pk, **SAME)
    for limit in (2, 3, 5):
        asked = dict(error_type="timeout", error_message="queue stalled", limit=limit)
        assert answer(lesson_check(**asked)) == answer(reference_check(**asked))


def test_skill_filter_and_approved_only_apply_to_every_source():
    pattern = pattern_for_message(message="worker crashed with signal 9")
    kept = LessonFactory(error_pattern="worker crashed", skill_name="alpha", status="approved")
    other = LessonFactory(
        error_pattern="worker crashed with signal", skill_name="beta", status="approved"
    )
    unverified = LessonFactory(error_pattern="crashed with signal", status="unverified")
    rejected = LessonFactory(error_pattern="signal 9 crash", status="rejected")
    for lesson in (kept, other, unverified, rejected):
        lesson.patterns.add(pattern)
    LessonFactory(
        error_pattern="worker crashed with signal <*>", skill_name="beta", status="approved"
    )
    found = lesson_check(
        error_type="timeout",
        skill_name="alpha",
        approved_only=True,
        error_message="worker crashed with signal 9",
        limit=10,
    )
    assert [entry.lesson.pk for entry in found.lessons] == [kept.pk] and found.related == []


def test_stale_index_entries_are_left_out():
    gone = LessonFactory(error_pattern="cache miss storm")
    kept = LessonFactory(error_pattern="cache miss storm again")
    assert len(lesson_check(error_message="cache miss storm again").lessons) == 2
    Lesson.objects.filter(pk=gone.pk).update(status="rejected")  # the index still holds it
    found = lesson_check(error_message="cache miss storm again")
    assert [entry.lesson.pk for entry in found.lessons] == [kept.pk]


def test_a_message_check_reads_few_statements_and_whole_lessons(django_assert_max_num_queries):
    message = "litellm timeout after 600 seconds calling model"
    pattern = pattern_for_message(message=message)
    for i in range(30):
        lesson = LessonFactory(
            error_pattern=f"litellm timeout {i}",
            error_type="timeout",
            rank_score=i / 30,
            context={"n": i},
        )
        if i % 3 == 0:
            lesson.patterns.add(pattern)
    lesson_check(error_type="timeout", error_message=message)  # builds the match index
    # The index's token, the message's pattern, the matched lessons, the related ones.
    with django_assert_max_num_queries(4):
        found = lesson_check(error_type="timeout", error_message=message)
    assert {entry.match for entry in found.lessons} == {"pattern"} and len(found.lessons) == 5
    for entry in found.lessons:  # whole, as the ORM reads them
        stored = Lesson.objects.get(pk=entry.lesson.pk)
        assert {
            f.attname: getattr(entry.lesson, f.attname) for f in Lesson._meta.concrete_fields
        } == {f.attname: getattr(stored, f.attname) for f in Lesson._meta.concrete_fields}


def test_no_candidate_answers_nothing():
    LessonFactory(error_pattern="disk full")
    answer = lesson_check(error_message="nothing at all is known of this")
    assert answer.lessons == [] and answer.related == [] and not answer.has_resolution


def test_a_message_of_a_template_not_stored_finds_the_lessons_of_a_pattern_covering_it():
    from failures.store.mining import patterns_merge

    first = pattern_for_message(message="quota exceeded for project alpha")
    second = pattern_for_message(message="quota exceeded for project beta")
    survivor, _ = patterns_merge(
        pattern_ids={first.pk, second.pk}, template="quota exceeded for project <*>"
    )
    lesson = LessonFactory(error_pattern="no words in common here", error_type="quota")
    lesson.patterns.add(survivor)
    assert pattern_of_message(message="quota exceeded for project gamma").pk == survivor.pk
    found = lesson_check(error_message="quota exceeded for project gamma")
    assert [(entry.lesson.pk, entry.match) for entry in found.lessons] == [(lesson.pk, "pattern")]


def test_the_check_follows_a_template_to_the_pattern_it_was_merged_into():
    message = "replica lag over 30 seconds on node-4"
    alias = pattern_for_message(message=message)
    survivor = pattern_for_message(message="an entirely different failure text")
    FailurePattern.objects.filter(pk=alias.pk).update(merged_into=survivor)
    lesson = LessonFactory(error_pattern="no words in common here")
    lesson.patterns.add(survivor)
    found = lesson_check(error_message=message)
    assert [(entry.lesson.pk, entry.match) for entry in found.lessons] == [(lesson.pk, "pattern")]


# --- the check endpoint's JSON ---------------------------------------------------------------


def unsaved(**fields):
    """A lesson as a model instance with any values, saved or not."""
    values = dict(
        id=uuid.uuid4(),
        error_pattern="p",
        error_type="t",
        skill_name=None,
        context={},
        resolution="r",
        resolution_code=None,
        occurrences=1,
        last_occurred=BASE,
        effectiveness=0.5,
        created_at=BASE,
        status="unverified",
        source="agent",
        rank_score=0.0945,
        applications_count=0,
        flagged=False,
    )
    values.update(fields)
    return Lesson(**values)


VARIED_LESSONS = [
    unsaved(),
    unsaved(
        skill_name="alpha",
        status=Lesson.Status.APPROVED,
        source=Lesson.Source.HUMAN,
        effectiveness=1,
        rank_score=0.75,
        occurrences=12,
        applications_count=7,
        flagged=True,
        resolution_code="retry()\n",
        context={"nested": {"list": [1, 2.5, None]}},
    ),
    unsaved(
        error_pattern="délai dépassé 验证 ⚠",
        resolution="Réessayer — 再试",
        context={"clé": "valeur ✓"},
        effectiveness=None,
        last_occurred=None,
    ),
    unsaved(
        last_occurred=datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt_timezone.utc),
        created_at=datetime(2026, 6, 1, 8, 0, tzinfo=ZoneInfo("America/New_York")),
    ),
    unsaved(last_occurred=datetime(2026, 1, 2, 3, 4, 5), status="odd", source=""),
    unsaved(
        id="not-a-uuid-text",
        occurrences="4",
        rank_score="0.25",
        flagged=0,
        context=None,
        last_occurred="2026-01-01T00:00:00Z",
    ),
]


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris"])
def test_fast_json_equals_the_serializer(zone):
    matches = ["pattern", "template", "type", "words", "words", "template"]
    scores = [1.0, 0.6666666666666666, 0.0, 0, 1, None]
    found = [
        CheckedLesson(lesson, match, score)
        for lesson, match, score in zip(VARIED_LESSONS, matches, scores)
    ]
    with timezone.override(zone):
        expected = CheckedLessonOutputSerializer(found, many=True).data
        fast = checked_lessons_json(found)
    assert fast == expected
    assert [list(entry) for entry in fast] == [list(entry) for entry in expected]
    for mine, theirs in zip(fast, expected):
        assert [type(value) for value in mine.values()] == [type(v) for v in theirs.values()]
    assert JSONRenderer().render(fast) == JSONRenderer().render(expected)


def test_fast_json_of_stored_lessons_equals_the_serializer(varied):
    checked = lesson_check(error_type="timeout", error_message=MESSAGES[0], limit=50)
    found = checked.lessons + checked.related
    assert len(checked.lessons) > 3 and len(checked.related) > 3
    assert checked_lessons_json(found) == CheckedLessonOutputSerializer(found, many=True).data


def test_check_endpoint_answers_the_serializer_json(api, varied):
    query = {"error_type": "timeout", "error_message": MESSAGES[0], "limit": 50}
    body = json.loads(api.get("/api/v1/lessons/check", query).content)
    found = lesson_check(error_type="timeout", error_message=MESSAGES[0], limit=50)
    for part in ("lessons", "related"):
        expected = json.loads(
            JSONRenderer().render(
                CheckedLessonOutputSerializer(getattr(found, part), many=True).data
            )
        )
        assert body[part] == expected and expected
