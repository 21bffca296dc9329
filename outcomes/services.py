"""Every write to the outcome ledger: record (one or a thousand at once), append, prune.

One write per event: a failed outcome with an error message creates its failure record (with its
pattern) in the same transaction, and a success closes the task's open failures.
"""
import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.db import OperationalError, connection, transaction
from django.utils import timezone
from psycopg.errors import DeadlockDetected

from failures.models import Failure
from failures.scrubbing import scrub_value
from failures.services import failures_close, failures_open_of, failures_record_many
from lessons.services import applications_record

from .cache import history_invalidate
from .models import Outcome, OutcomeFile
from .validation import OutcomeIn

logger = logging.getLogger(__name__)

# Writers take their locks in a fixed order (event ids, then patterns by id, then failures by
# id), so a deadlock should not happen; if the database still breaks one, we try again.
ATTEMPTS = 3


@dataclass
class Recorded:
    """What became of one outcome of a request."""

    status: str  # "created", "replayed" or "conflict"
    outcome: Outcome | None = None
    message: str = ""


def outcomes_record(items: list[OutcomeIn]) -> list[Recorded]:
    """Record checked outcomes in one transaction; answer one Recorded per item, in order."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            with transaction.atomic():
                recorded = _record(items)
                agents = {r.outcome.agent for r in recorded if r.status == "created"}
                transaction.on_commit(lambda: history_invalidate(agents))
                return recorded
        except OperationalError as exc:
            if attempt == ATTEMPTS or not isinstance(exc.__cause__, DeadlockDetected):
                raise
            logger.info("deadlock broken by the database; recording again (%s)", exc)
    raise AssertionError("unreachable")


def _record(items: list[OutcomeIn]) -> list[Recorded]:
    """Claim the new events first (their outcome rows), then derive failures and resolutions
    for the claimed ones only, so a concurrent request with the same events never doubles them."""
    recorded = _replays(items)
    rows = {i: _outcome_row(items[i]) for i, answer in enumerate(recorded) if answer is None}
    _insert_new(list(rows.values()))
    late = [i for i, row in rows.items() if row.pk is None]  # stored meanwhile by another request
    for i, answer in zip(late, _replays([items[i] for i in late])):
        recorded[i] = answer
    fresh = {i: items[i] for i, row in rows.items() if row.pk is not None}
    failures = _failures_for(fresh)
    _link(rows, failures, _resolve(fresh, failures))
    _applications_for(fresh, failures)
    OutcomeFile.objects.bulk_create([
        OutcomeFile(outcome=rows[i], path=path, occurred_at=rows[i].occurred_at)
        for i, item in fresh.items() for path in item.files])
    for i in fresh:
        recorded[i] = Recorded("created", rows[i])
    return _link_batch_replays(items, recorded)


# Every column an insert sets; id and recorded_at come from the database.
_INSERTED = [field for field in Outcome._meta.concrete_fields
             if not field.primary_key and field.name != "recorded_at"]


def _insert_new(rows: list[Outcome]) -> None:
    """INSERT the rows, skipping any whose event id is stored (a concurrent writer of the same
    id is waited for, then skipped); set the ids of those inserted.

    Rows go in event-id order so that two requests with the same events in another order queue
    on the first shared one instead of deadlocking; rows come back in the order they went in.
    """
    if not rows:
        return
    rows = sorted(rows, key=lambda row: (row.event_id is None, str(row.event_id or "")))
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _INSERTED)
    if connection.vendor == "postgresql":
        # One array per column: a handful of parameters for any batch, not one per value.
        source = "SELECT * FROM unnest({})".format(", ".join(
            f"%s::{field.db_type(connection)}[]" for field in _INSERTED))
        params = [[field.get_db_prep_save(getattr(row, field.attname), connection)
                   for row in rows] for field in _INSERTED]
    else:
        placeholders = "(" + ", ".join(["%s"] * len(_INSERTED)) + ")"
        source = "VALUES " + ", ".join([placeholders] * len(rows))
        params = [field.get_db_prep_save(getattr(row, field.attname), connection)
                  for row in rows for field in _INSERTED]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(Outcome._meta.db_table)} ({columns}) {source} "
            f"ON CONFLICT ({quote('event_id')}) DO NOTHING RETURNING {quote('id')}, "
            f"{quote('event_id')}", params)
        returned = cursor.fetchall()
    stored = {uuid.UUID(str(event_id)) for _, event_id in returned if event_id is not None}
    ids = iter(pk for pk, _ in returned)
    for row in rows:
        if row.event_id is None or row.event_id in stored:
            row.pk = next(ids)


def _link(rows: dict[int, Outcome], failures: dict[int, Failure], resolved: dict[int, int]):
    """Point outcomes at their failure records and note how many failures a success closed."""
    changed = []
    for i, failure in failures.items():
        rows[i].failure, rows[i].pattern_id = failure, failure.pattern_id
        changed.append(rows[i])
    for i, count in resolved.items():
        rows[i].resolved_failures = count
        changed.append(rows[i])
    if not changed:
        return
    if connection.vendor == "postgresql":
        rows_by_pk = {row.pk: row for row in changed}
        with connection.cursor() as cursor:
            cursor.execute(_LINK, [list(rows_by_pk),
                                   [row.failure_id for row in rows_by_pk.values()],
                                   [row.pattern_id for row in rows_by_pk.values()],
                                   [row.resolved_failures for row in rows_by_pk.values()]])
        return
    Outcome.objects.bulk_update(changed, ["failure", "pattern", "resolved_failures"])


# One statement for the whole batch (bulk_update's CASE per row costs far more).
_LINK = """
UPDATE outcomes_outcome AS outcome SET failure_id = link.failure_id,
    pattern_id = link.pattern_id, resolved_failures = link.resolved
FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::int[])
     AS link(id, failure_id, pattern_id, resolved)
WHERE outcome.id = link.id
"""


def _replays(items: list[OutcomeIn]) -> list[Recorded | None]:
    """A Recorded for each item whose event id is already stored (or used earlier in this
    request), None for the rest."""
    ids = {item.event_id for item in items if item.event_id}
    # Replays are answered from ids and counters: the JSON columns stay unread.
    stored = ({o.event_id: o for o in Outcome.objects.filter(event_id__in=ids).defer(
        "context", "result")} if ids else {})
    first_in_batch: dict = {}
    answers: list[Recorded | None] = []
    for index, item in enumerate(items):
        earlier = stored.get(item.event_id) or first_in_batch.get(item.event_id)
        if item.event_id and earlier is not None:
            digest = earlier.digest if isinstance(earlier, Outcome) else earlier[1]
            answers.append(_replay_or_conflict(item, digest))
        else:
            if item.event_id:
                first_in_batch[item.event_id] = (index, item.digest)
            answers.append(None)
    for index, answer in enumerate(answers):
        if answer is not None and answer.status == "replayed" and items[index].event_id in stored:
            answer.outcome = stored[items[index].event_id]
    return answers


def _replay_or_conflict(item: OutcomeIn, digest: str) -> Recorded:
    if digest == item.digest:
        return Recorded("replayed")
    return Recorded("conflict", message=(
        f"event_id {item.event_id} was already used for a different outcome; "
        "send a new event_id for a new event."))


def _link_batch_replays(items: list[OutcomeIn], recorded: list[Recorded]) -> list[Recorded]:
    """A replay of an event first sent earlier in the same request answers with that row."""
    created = {r.outcome.event_id: r.outcome for r in recorded
               if r.status == "created" and r.outcome.event_id}
    for item, answer in zip(items, recorded):
        if answer.status == "replayed" and answer.outcome is None:
            answer.outcome = created[item.event_id]
    return recorded


def _failures_for(items: dict[int, OutcomeIn]) -> dict[int, Failure]:
    """The failure record of each failed outcome that carries an error message."""
    failing = {i: item for i, item in items.items() if item.outcome == "failure" and item.error}
    if not failing:
        return {}
    entries = [dict(agent=item.agent, task=item.task_id, task_type=item.task_type,
                    error=item.error, error_type=item.error_type or "unknown",
                    occurred_at=item.occurred_at, **item.failure_extras)
               for item in failing.values()]
    return dict(zip(failing, failures_record_many(entries)))


def _applications_for(items: dict[int, OutcomeIn], failures: dict[int, Failure]) -> None:
    """An outcome naming the lesson it applied reports whether that lesson worked."""
    applications_record([
        dict(lesson_id=item.applied_lesson, worked=item.outcome == "success", agent=item.agent,
             task_id=item.task_id, failure=failures.get(i), applied_at=item.occurred_at)
        for i, item in items.items() if item.applied_lesson])


def _resolve(items: dict[int, OutcomeIn], created: dict[int, Failure]) -> dict[int, int]:
    """Close the open failures each success follows; answer how many each success closed.

    A failure sent earlier in the same request is closed by a later success of its task, not by
    an earlier one; failures stored before the request are closed by the task's first success.
    """
    successes: dict[tuple[str, str], list[int]] = {}
    for index, item in items.items():
        if item.outcome == "success":
            successes.setdefault((item.agent, item.task_id), []).append(index)
    if not successes:
        return {}
    position = {failure.pk: index for index, failure in created.items()}
    closing, closed_by = [], {}
    for row in failures_open_of(set(successes)):
        after = position.get(row[0], -1)
        closer = next((i for i in successes[(row[2], row[3])] if i > after), None)
        if closer is not None:
            closing.append(row)
            closed_by[closer] = closed_by.get(closer, 0) + 1
    failures_close(closing)
    return closed_by


def _outcome_row(item: OutcomeIn) -> Outcome:
    return Outcome(
        event_id=item.event_id, digest=item.digest, task_id=item.task_id, agent=item.agent,
        task_type=item.task_type, outcome=item.outcome, context=scrub_value(item.context),
        result=scrub_value(item.result), duration_ms=item.duration_ms,
        occurred_at=item.occurred_at, error_type=item.error_type,
    )


def outcome_append_for_failure(failure: Failure) -> Outcome:
    """The failed outcome of a failure posted directly, so the ledger misses no event. Caller
    owns the transaction."""
    outcome = Outcome.objects.create(
        task_id=failure.task, agent=failure.agent, task_type=failure.task_type,
        outcome=Outcome.Result.FAILURE, context={
            "error_type": failure.error_type, "error_message": failure.error,
            **({"skill_name": failure.skill_name} if failure.skill_name else {})},
        occurred_at=failure.occurred_at, error_type=failure.error_type, failure=failure,
        pattern_id=failure.pattern_id,
    )
    transaction.on_commit(lambda: history_invalidate({failure.agent}))
    return outcome


def outcomes_prune(*, older_than_days: int, batch_size: int = 5000) -> int:
    """Delete outcomes that happened more than ``older_than_days`` ago, ``batch_size`` rows per
    short transaction, so no lock is held for long. Failures and pattern counts are untouched."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(Outcome.objects.filter(occurred_at__lt=cutoff).order_by(
                "occurred_at").values_list("pk", flat=True)[:batch_size])
            if not ids:
                return deleted
            Outcome.objects.filter(pk__in=ids).delete()  # its files go with it (cascade)
            deleted += len(ids)
