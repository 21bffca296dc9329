"""manage.py retemplate_patterns: patterns stored by an older engine, which kept a project's id
literal, are brought up to the current engine: the patterns it joins are merged with their
failures, lesson links, triage and counts; a second run changes nothing."""

import io

import pytest
from django.core.management import call_command

from failures.models import Failure, FailurePattern, FailureTemplate
from failures.patterns import fingerprint_of, template_of
from failures.patterns.tokens import split
from failures.store.patterns import pattern_head
from lessons.models import PatternLink
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

MESSAGES = [
    "quota exceeded for project alpha-7f3e9b2c",
    "quota exceeded for project beta-1a2b3c4d",
]


def old_engine_pattern(message: str, *, failures: int) -> FailurePattern:
    """A pattern as an engine that masked nothing stored it: the message is its template."""
    pattern = FailurePattern.objects.create(
        fingerprint=fingerprint_of(message),
        template=message,
        error_type="QuotaError",
        token_count=len(split(message)),
        head=pattern_head(split(message)),
        event_count=failures,
        agent_count=1,
        task_count=failures,
    )
    FailureTemplate.objects.create(
        fingerprint=fingerprint_of(message), template=message, pattern=pattern
    )
    for n in range(failures):
        Failure.objects.create(
            agent="a1",
            task=f"{message[-4:]}-{n}",
            error=message,
            error_type="QuotaError",
            pattern=pattern,
            occurred_at="2026-11-20T10:00:00Z",
        )
    return pattern


def run() -> str:
    out = io.StringIO()
    call_command("retemplate_patterns", stdout=out)
    return out.getvalue()


def test_patterns_an_older_engine_kept_apart_are_merged_with_what_hangs_on_them():
    big = old_engine_pattern(MESSAGES[0], failures=3)
    small = old_engine_pattern(MESSAGES[1], failures=2)
    assert template_of(MESSAGES[0]) == template_of(MESSAGES[1])  # the current engine joins them
    FailurePattern.objects.filter(pk=big.pk).update(status="ignored")
    linked = LessonFactory(error_pattern="quota exceeded", error_type="QuotaError")
    linked.patterns.add(small)
    candidate = LessonFactory(error_pattern="raise the project quota", error_type="QuotaError")
    PatternLink.objects.create(lesson=candidate, pattern=small, state="candidate")

    printed = run()
    assert "2 distinct message(s) templated again" in printed
    live = FailurePattern.objects.filter(merged_into__isnull=True)
    assert list(live) == [big]
    big.refresh_from_db()
    assert (big.event_count, big.task_count, big.status) == (5, 5, "ignored")
    assert big.template == template_of(MESSAGES[0])
    assert set(Failure.objects.values_list("pattern_id", flat=True)) == {big.pk}
    assert FailurePattern.objects.get(pk=small.pk).merged_into_id == big.pk
    assert big in linked.patterns.all()
    assert PatternLink.objects.get(lesson=candidate).pattern_id == big.pk
    # A new message of the shape finds the pattern by the current engine's template.
    fingerprint = fingerprint_of(template_of("quota exceeded for project gamma-99aa88bb"))
    assert FailureTemplate.objects.get(fingerprint=fingerprint).pattern_id == big.pk

    snapshot = (
        list(FailurePattern.objects.order_by("pk").values()),
        list(FailureTemplate.objects.order_by("pk").values()),
        list(Failure.objects.order_by("pk").values("pk", "pattern_id")),
    )
    printed = run()
    assert "0 new shape(s) filed, 0 pattern(s) merged" in printed
    assert snapshot == (
        list(FailurePattern.objects.order_by("pk").values()),
        list(FailureTemplate.objects.order_by("pk").values()),
        list(Failure.objects.order_by("pk").values("pk", "pattern_id")),
    )


def test_patterns_the_current_engine_keeps_apart_stay_apart():
    first = old_engine_pattern("No module named 'cv2'", failures=1)
    second = old_engine_pattern("No module named 'yaml'", failures=1)
    run()
    assert set(FailurePattern.objects.filter(merged_into__isnull=True)) == {first, second}
