"""A recorded failure's answer, combining failures with lessons: its pattern, retry advice, the
lessons that match, its root cause and the release it is new in, so an agent needs one round
trip (the write itself: answers.services)."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from failures.analysis.rootcause_notes import root_cause_answer
from failures.models import Failure, Version, pattern_ref
from failures.records.selectors import retry_advice
from failures.records.serializers import PatternRefSerializer, root_cause_fields
from failures.releases.selectors import new_in_answer
from lessons.selectors import lesson_check
from lessons.serializers import check_answer_fields, check_answer_json

# Lessons returned with a failure; the same default as the check endpoint.
LESSONS_PER_ANSWER = 5


def _new_in_fields():
    return inline_serializer(
        "NewIn",
        many=True,
        fields={
            "kind": serializers.ChoiceField(choices=Version.Kind.choices),
            "name": serializers.CharField(),
            "previous": serializers.CharField(help_text="The one it followed."),
            "tasks_before": serializers.IntegerField(
                help_text="Tasks of the pattern's task types the previous one ran, never "
                "meeting it."
            ),
            "note": serializers.CharField(),
        },
        help_text="The release, model or prompt version of this failure in which its pattern "
        "is new: seen in no earlier one, though the previous one ran enough of the same task "
        "types to have met it. Empty when none.",
    )


FailureAnswer = inline_serializer(
    "FailureRecorded",
    {
        "id": serializers.IntegerField(),
        "status": serializers.CharField(),
        "pattern": PatternRefSerializer(),
        "retry_advice": inline_serializer(
            "RetryAdvice",
            {
                "retryable": serializers.BooleanField(allow_null=True),
                "after_seconds": serializers.IntegerField(allow_null=True),
                "reason": serializers.CharField(),
            },
        ),
        **check_answer_fields(),
        "root_cause": inline_serializer(
            "FailureRootCause",
            allow_null=True,
            fields={
                **root_cause_fields(),
                "with": PatternRefSerializer(
                    many=True, help_text="The other symptoms of the cause."
                ),
            },
            help_text="The open root-cause group of this failure's pattern: its symptoms started "
            "and stopped together across agents. Null when it belongs to none.",
        ),
        "new_in": _new_in_fields(),
    },
)


def failure_answer(failure: Failure) -> dict:
    """The answer to a recorded failure: id, pattern, retry advice, the lessons that match it
    and, apart, those that share only its type, and the open root-cause group of its pattern
    (the other symptoms of one cause), if any, and whether the pattern is new in the release,
    model or prompt version the agent ran (its own change, not the world's)."""
    pattern = failure.pattern  # its message's live pattern: the check need not look it up
    checked = lesson_check(
        error_type=failure.error_type,
        skill_name=failure.skill_name or None,
        error_message=failure.error,
        limit=LESSONS_PER_ANSWER,
        pattern=pattern,
    )
    return {
        "id": failure.pk,
        "status": failure.status,
        "pattern": pattern_ref(pattern),
        "retry_advice": retry_advice(pattern=pattern, failure=failure),
        **check_answer_json(checked),
        "root_cause": root_cause_answer(
            pattern_id=pattern.pk, group_id=pattern.root_cause_group_id
        ),
        "new_in": new_in_answer(
            pattern_id=pattern.pk,
            release=failure.release,
            model=failure.model,
            prompt_version=failure.prompt_version,
        ),
    }
