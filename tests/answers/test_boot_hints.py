"""Boot hints found by message answer exactly what lesson_check(approved_only=True) answers."""

from datetime import timedelta

import pytest
from django.utils import timezone

from answers.boot import hints as boot_hints
from answers.boot.composer import boot_context_build
from failures.models import FailurePattern
from failures.records.services import failure_record
from lessons.models import Lesson, MatchIndexVersion
from lessons.selectors import lesson_check
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()
MESSAGE = "Upstream gateway timeout after 30 seconds while syncing invoices"
APPROVED = Lesson.Status.APPROVED


def approved(error_pattern, **fields):
    return LessonFactory(error_pattern=error_pattern, status=APPROVED, **fields)


def many_message_matches():
    """More message matches than fit, of different scores, beside unreviewed and rejected ones."""
    approved("gateway timeout syncing", rank_score=0.2)
    approved("upstream gateway timeout", rank_score=0.9, occurrences=4)
    approved("gateway timeout invoices", rank_score=0.9, occurrences=2)
    approved("upstream gateway timeout after <*> seconds", rank_score=0.1)
    approved("gateway timeout retry later billing", rank_score=1.0)  # too few words shared
    LessonFactory(error_pattern="upstream gateway timeout syncing", rank_score=1.0)
    LessonFactory(error_pattern="gateway timeout invoices syncing", status="rejected")
    approved("generic timeout advice", error_type="timeout", rank_score=1.0)


def few_message_matches_and_types():
    """One message match; the rest of the answer comes from the type, best first."""
    approved("gateway timeout syncing invoices")
    approved("raise the limit", error_type="timeout", rank_score=0.3)
    approved("retry with backoff", error_type="timeout", rank_score=0.8)
    approved("check the proxy", error_type="timeout", rank_score=0.8, occurrences=5)
    approved("only for a skill", error_type="timeout", rank_score=1.0, skill_name="other")
    LessonFactory(error_pattern="unreviewed", error_type="timeout", rank_score=1.0)


def skill_lessons():
    """Lessons of the failure's skill, of another skill and of none."""
    approved("gateway timeout syncing", skill_name="billing_api", rank_score=0.1)
    approved("gateway timeout invoices", skill_name="mail_api", rank_score=1.0)
    approved("upstream gateway timeout", rank_score=0.5)
    approved("type of the skill", error_type="timeout", skill_name="billing_api", rank_score=0.1)
    approved("type of none", error_type="timeout", rank_score=0.9)


def type_and_message():
    """A lesson both matching the message and of the type is matched, not related."""
    approved("gateway timeout syncing invoices", error_type="timeout", rank_score=0.4)
    approved("type only", error_type="timeout", rank_score=0.9)


@pytest.mark.parametrize("skill_name", ["", "billing_api"])
@pytest.mark.parametrize(
    "lessons",
    [many_message_matches, few_message_matches_and_types, skill_lessons, type_and_message],
)
def test_hints_by_message_are_lesson_checks_answer(lessons, skill_name):
    lessons()
    failure = record(skill_name=skill_name)
    expected = check(failure)
    assert len(expected[0]) + len(expected[1]) >= 2  # each case must rank something
    assert hint_lessons() == expected


def test_a_lesson_linked_to_the_live_pattern_ranks_first(monkeypatch):
    """With the links cut off by their cap, the message check still finds the pattern's link."""
    failure = record()
    many_message_matches()
    linked = approved("linked advice", error_type="other", rank_score=0.0)
    linked.patterns.add(failure.pattern)
    monkeypatch.setattr(boot_hints, "LINKED_LESSONS_CAP", 0)
    expected = check(failure)
    assert (expected[0][0]["id"], expected[0][0]["match"]) == (str(linked.pk), "pattern")
    assert hint_lessons() == expected


def test_hints_are_reused_until_a_lesson_is_written_in_any_process(django_assert_num_queries):
    few_message_matches_and_types()
    record()
    first = hint_lessons()
    with django_assert_num_queries(2):  # the failures (with the index's token) and the links
        assert hint_lessons() == first  # the message check's answer is reused
    # Another process approves a lesson and gives the index a new token.
    Lesson.objects.bulk_create(
        [
            Lesson(
                error_pattern="upstream gateway timeout after <*> seconds",
                error_type="timeout",
                resolution="Raise the timeout.",
                status=APPROVED,
                rank_score=1.0,
            )
        ]
    )
    MatchIndexVersion.objects.update(token="written-elsewhere")
    now = hint_lessons()
    assert (
        now[0][0]["error_pattern"]
        == "upstream gateway timeout after <*> seconds"
        != first[0][0]["error_pattern"]
    )


def record(**fields):
    return failure_record(
        agent="a1",
        task="sync",
        error=MESSAGE,
        error_type="timeout",
        task_type="sync",
        occurred_at=NOW - timedelta(minutes=5),
        **fields,
    )


def hint_lessons() -> tuple[list[dict], list[dict]]:
    [entry] = boot_context_build(agent="a1", now=NOW)["hints"]
    return entry["lessons"], entry["related"]


def check(failure) -> tuple[list[dict], list[dict]]:
    found = lesson_check(
        error_type=failure.error_type,
        skill_name=failure.skill_name or None,
        error_message=failure.error,
        limit=boot_hints.LESSONS_PER_TASK,
        approved_only=True,
        pattern=FailurePattern(pk=failure.pattern_id),
    )
    return tuple(
        [
            {
                "id": str(entry.lesson.pk),
                "error_pattern": entry.lesson.error_pattern,
                "resolution": entry.lesson.resolution,
                "effectiveness": entry.lesson.effectiveness,
                "match": entry.match,
            }
            for entry in part
        ]
        for part in (found.lessons, found.related)
    )
