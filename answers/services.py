"""The failure report: a failure recorded with its failed outcome and, when it names the lesson
it applied, that lesson reported as not having worked, in one transaction across the apps."""

from django.db import transaction

from config.errors import InvalidInput
from config.writers import ANYONE, Writer, agent_check
from failures.models import Failure
from failures.records.services import failure_record
from lessons.selectors import lesson_ids_missing
from lessons.services import applications_record
from outcomes.services import outcome_append_for_failure


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
