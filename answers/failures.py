"""A recorded failure's answer, combining failures with lessons and outcomes. Recording a failure
answers with its pattern, retry advice and the lessons that match, so an agent needs one round
trip; it also appends the failed outcome and, when the failure names the lesson it applied,
reports that lesson as not having worked."""

from django.db import transaction
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from config.errors import InvalidInput
from config.writers import ANYONE, Writer, agent_check
from failures.analysis.rootcause_notes import root_cause_answer
from failures.models import Failure, Version
from failures.records.selectors import retry_advice
from failures.records.serializers import PatternRefSerializer, root_cause_fields
from failures.records.services import failure_record
from failures.releases.selectors import new_in_answer
from lessons.selectors import lesson_check, lesson_ids_missing
from lessons.serializers import check_answer_fields, check_answer_json
from lessons.services import applications_record
from outcomes.services import outcome_append_for_failure

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
        "pattern": {
            "id": pattern.pk,
            "fingerprint": pattern.fingerprint,
            "template": pattern.template,
        },
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


def failure_report_check(*, agent: str, applied_lesson=None, writer: Writer = ANYONE) -> None:
    """Refuse a failure before anything is written or replayed: Forbidden when ``writer``
    is bound to other agents, InvalidInput when ``applied_lesson`` names no lesson."""
    agent_check(writer, agent)
    if applied_lesson in lesson_ids_missing([applied_lesson]):
        raise InvalidInput.from_fields(
            {"applied_lesson": [f"No lesson with id {applied_lesson}."]}
        )


def failure_report(
    *, agent: str, applied_lesson=None, writer: Writer = ANYONE, **fields
) -> Failure:
    """Record a failure as written by ``writer``, with its failed outcome and, when it names
    the lesson it applied (checked by failure_report_check), that lesson as not having worked.
    A key bound to other agents may not (Forbidden)."""
    agent_check(writer, agent)
    with transaction.atomic(savepoint=False):  # inside a view's idempotent answer: no savepoint
        failure = failure_record(agent=agent, **fields, api_key_id=writer.key_id)
        outcome_append_for_failure(failure=failure)  # the ledger misses no event
        if applied_lesson:
            applications_record(
                entries=[
                    {
                        "lesson_id": applied_lesson,
                        "worked": False,
                        "agent": failure.agent,
                        "task_id": failure.task,
                        "failure": failure,
                        "applied_at": failure.occurred_at,
                        "api_key_id": failure.api_key_id,
                    }
                ]
            )
        failure.pattern.refresh_from_db()  # counters were bumped by an UPDATE
    return failure
