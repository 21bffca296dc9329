"""The answer to a recorded outcome: what was stored, and for a failure what is known about it."""

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from answers.failures import FailureAnswer, failure_answer
from outcomes.models import Outcome

OutcomeAnswer = inline_serializer(
    "OutcomeRecorded",
    {
        "id": serializers.IntegerField(),
        "event_id": serializers.UUIDField(allow_null=True),
        "task_id": serializers.CharField(),
        "agent": serializers.CharField(),
        "task_type": serializers.CharField(),
        "release": serializers.CharField(),
        "model": serializers.CharField(),
        "prompt_version": serializers.CharField(),
        "outcome": serializers.ChoiceField(["success", "failure"]),
        "occurred_at": serializers.DateTimeField(),
        "resolved_failures": serializers.IntegerField(),
        # The same component, nullable: only a failed outcome with error details has a failure.
        "failure": type(FailureAnswer)(allow_null=True),
    },
)


def outcome_answer(outcome: Outcome) -> dict:
    """The stored outcome; a failed one with its failure's pattern, retry advice and lessons."""
    failure = outcome.failure  # None, read without a query, when it has no failure_id
    return {
        "id": outcome.pk,
        "event_id": outcome.event_id,
        "task_id": outcome.task_id,
        "agent": outcome.agent,
        "task_type": outcome.task_type,
        "release": outcome.release,
        "model": outcome.model,
        "prompt_version": outcome.prompt_version,
        "outcome": outcome.outcome,
        "occurred_at": outcome.occurred_at,
        "resolved_failures": outcome.resolved_failures,
        "failure": failure_answer(failure) if failure is not None else None,
    }
