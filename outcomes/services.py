"""Every write to the outcome ledger: record (one or a thousand at once), append, prune.

One write per event: a failed outcome with an error message creates its failure record (with its
pattern) in the same transaction, and a success closes the task's open failures.
"""

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from psycopg.errors import DeadlockDetected

from config.errors import Forbidden
from config.writers import ANYONE, Writer, agent_refusal
from failures.models import UNKNOWN_ERROR_TYPE, Failure
from failures.records.services import (
    failures_close_open_of,
    failures_count,
    failures_insert,
    failures_prepare,
)
from lessons.selectors import lesson_ids_missing
from lessons.services import applications_record

from . import queries
from .cache import history_generation_bump
from .models import Outcome
from .validation import OutcomeIn, outcome_parse

logger = logging.getLogger(__name__)

# Writers take their locks in one order: the open failures their successes close, then their
# event ids (in event-id order), then their patterns (in id order), which are held from there
# to the commit. Closing and merging elsewhere may still cross it; a deadlock the database
# breaks is tried again.
ATTEMPTS = 3


@dataclass
class Recorded:
    """What became of one outcome of a request: the Outcome it created, or the stored one it
    replayed."""

    status: str  # "created", "replayed", "conflict" or "forbidden"
    outcome: Outcome | None = None
    message: str = ""
    fields: dict | None = None  # a forbidden item's refusal, by field


def outcomes_parse(*, raw_items: list) -> list[tuple[OutcomeIn | None, dict]]:
    """Check each raw outcome (one clock for the batch); ``(OutcomeIn, {})`` or ``(None,
    errors by field)`` per item. Naming a lesson that does not exist is an error of
    ``applied_lesson``."""
    now = timezone.now()
    parsed = [outcome_parse(raw, now=now) for raw in raw_items]
    missing = lesson_ids_missing(item.applied_lesson for item, _ in parsed if item)
    return [
        (None, {"applied_lesson": [f"No lesson with id {item.applied_lesson}."]})
        if item and item.applied_lesson in missing
        else (item, errors)
        for item, errors in parsed
    ]


class _EventsTaken(Exception):
    """Some of a request's event ids were stored by another request first: what this attempt
    wrote is undone, and the next attempt answers those events as replays."""


def outcomes_record(*, items: list[OutcomeIn], writer: Writer = ANYONE) -> list[Recorded]:
    """Record checked outcomes in one transaction, as written by ``writer``; answer one
    Recorded per item, in order. An item for an agent the key is not bound to is not stored:
    it is answered "forbidden", with the refusal (config.writers) as its fields."""
    refusals = [agent_refusal(writer, item.agent) for item in items]
    allowed = [item for item, refusal in zip(items, refusals, strict=True) if refusal is None]
    stored = iter(_record_retried(allowed, api_key_id=writer.key_id) if allowed else ())
    return [
        Recorded("forbidden", message=Forbidden.message_of(refusal), fields=refusal)
        if refusal
        else next(stored)
        for refusal in refusals
    ]


def _record_retried(items: list[OutcomeIn], *, api_key_id: int | None) -> list[Recorded]:
    read_stored, deadlocks, taken = False, 0, 0
    while True:
        try:
            with transaction.atomic():
                recorded = _record(items, read_stored=read_stored, api_key_id=api_key_id)
                history_generation_bump(
                    {
                        r.outcome.agent
                        for r in recorded
                        if r.status == "created" and r.outcome is not None
                    }
                )
                return recorded
        except _EventsTaken:
            # Each time this happens another of the request's events is stored, so it cannot
            # happen more often than the request has events.
            taken += 1
            if taken > len(items):
                raise AssertionError("events taken more often than there are events") from None
            read_stored = True
        except OperationalError as exc:
            deadlocks += 1
            if deadlocks == ATTEMPTS or not isinstance(exc.__cause__, DeadlockDetected):
                raise
            logger.info("deadlock broken by the database; recording again (%s)", exc)


def _record(
    items: list[OutcomeIn], *, read_stored: bool, api_key_id: int | None
) -> list[Recorded]:
    """Close what the new events' successes close, store their failures, then their outcomes
    whole, and only then lock the patterns to count the failures into them (failures_count), so
    that the patterns every batch shares are held from there to the commit only. Locks are
    taken in this order: the failures closed, the event ids, the patterns in id order.

    An event id stored meanwhile (a concurrent writer of it is waited for) undoes everything
    this attempt wrote (_EventsTaken), so a concurrent request with the same events never
    doubles them. A request of new events reads nothing before it writes; only an attempt after
    one that met stored events (``read_stored``) first reads which of its events are stored."""
    first = _first_of_each_event(items)
    events = {items[i].event_id for i in set(first) if items[i].event_id is not None}
    # Replays are answered from ids and counters: the JSON columns stay unread.
    stored = (
        {
            o.event_id: o
            for o in Outcome.objects.filter(event_id__in=events).defer("context", "result")
        }
        if read_stored and events
        else {}
    )
    fresh = {
        i: items[i] for i in range(len(items)) if first[i] == i and items[i].event_id not in stored
    }
    failures = _failures_for(fresh, api_key_id)
    resolved, closed_patterns, closed = _resolve(fresh, failures)
    failures_insert(rows=list(failures.values()))
    now = timezone.now()
    rows = {
        i: outcome_row(
            item=item,
            api_key_id=api_key_id,
            failure=failures.get(i),
            recorded_at=now,
            resolved_failures=resolved.get(i, 0),
        )
        for i, item in fresh.items()
    }
    outcomes_insert(rows=rows, files={i: item.files for i, item in fresh.items()})
    failures_count(rows=list(failures.values()), resolved=closed_patterns)
    _outcomes_follow(rows, failures)
    _applications_for(fresh, failures, closed, api_key_id)
    return [_answer(i, item, first, stored, rows) for i, item in enumerate(items)]


def _outcomes_follow(rows: dict[int, Outcome], failures: dict[int, Failure]) -> None:
    """Give each failed outcome its failure's pattern where that moved while counting (a merge
    that committed meanwhile)."""
    moved: dict[int, list[Outcome]] = {}
    for i, failure in failures.items():
        if rows[i].pattern_id != failure.pattern_id:
            moved.setdefault(failure.pattern_id, []).append(rows[i])
    for pattern_id, outcomes in moved.items():
        Outcome.objects.filter(pk__in=[o.pk for o in outcomes]).update(pattern_id=pattern_id)
        for outcome in outcomes:
            outcome.pattern_id = pattern_id


def _answer(
    i: int, item: OutcomeIn, first: list[int], stored: dict, rows: dict[int, Outcome]
) -> Recorded:
    """Item ``i`` created, or a replay (or a conflict) of its event stored or met earlier."""
    if item.event_id in stored:  # stored before this request, or by another meanwhile
        earlier = stored[item.event_id]
    elif first[i] == i:
        return Recorded("created", rows[i])
    else:  # a repeat of an event this request created
        earlier = rows[first[i]]
    answer = _replay_or_conflict(item, earlier.digest)
    if answer.status == "replayed":
        answer.outcome = earlier
    return answer


def outcome_row(
    *,
    item: OutcomeIn,
    api_key_id: int | None,
    failure: Failure | None = None,
    recorded_at: datetime | None = None,
    resolved_failures: int = 0,
) -> Outcome:
    """The Outcome of a checked item, not stored yet, linked to its stored failure if any.
    ``recorded_at`` is the app's clock, one for a batch, so that the instance holds what is
    stored."""
    return Outcome(
        event_id=item.event_id,
        digest=item.digest,
        task_id=item.task_id,
        agent=item.agent,
        task_type=item.task_type,
        outcome=item.outcome,
        context=item.context,
        result=item.result,
        duration_ms=item.duration_ms,
        occurred_at=item.occurred_at,
        recorded_at=recorded_at or timezone.now(),
        error_type=item.error_type,
        release=item.release,
        model=item.model,
        prompt_version=item.prompt_version,
        failure=failure,
        pattern_id=failure.pattern_id if failure else None,
        resolved_failures=resolved_failures,
        api_key_id=api_key_id,
    )


def outcomes_insert(*, rows: dict[int, Outcome], files: dict[int, Sequence[str]]) -> None:
    """INSERT the outcomes, in event-id order (two requests with the same events in another
    order queue on the first shared one instead of deadlocking), setting their ids; then their
    files. An event id stored meanwhile raises _EventsTaken."""
    ordered = sorted(
        rows.values(), key=lambda row: (row.event_id is None, str(row.event_id or ""))
    )
    try:
        ids = queries.outcome_rows_insert(
            [{name: getattr(row, name) for name in queries.STORED} for row in ordered]
        )
    except IntegrityError as exc:
        if not _event_id_taken(exc):
            raise
        raise _EventsTaken from exc
    for row, pk in zip(ordered, ids, strict=True):  # one id per row inserted
        row.pk = pk
    queries.outcome_files_insert(
        [(rows[i].pk, path, rows[i].occurred_at) for i, paths in files.items() for path in paths]
    )


def _event_id_taken(exc: IntegrityError) -> bool:
    """Whether the error is the event id's unique constraint (whatever name it was given)."""
    diag = getattr(exc.__cause__, "diag", None)
    return "event_id" in str(getattr(diag, "constraint_name", None) or "")


def _first_of_each_event(items: list[OutcomeIn]) -> list[int]:
    """For each item, the index of the first item of the request with its event id (itself for
    the first, and for an item without an event id)."""
    seen: dict = {}
    return [
        seen.setdefault(item.event_id, i) if item.event_id else i for i, item in enumerate(items)
    ]


def _replay_or_conflict(item: OutcomeIn, digest: str) -> Recorded:
    if digest == item.digest:
        return Recorded("replayed")
    return Recorded(
        "conflict",
        message=(
            f"event_id {item.event_id} was already used for a different outcome; "
            "send a new event_id for a new event."
        ),
    )


def _failures_for(items: dict[int, OutcomeIn], api_key_id: int | None) -> dict[int, Failure]:
    """The failure record of each failed outcome that carries an error message, prepared with
    its pattern (failures_prepare): stored by _record."""
    failing = {i: item for i, item in items.items() if item.outcome == "failure" and item.error}
    if not failing:
        return {}
    entries = [
        dict(
            agent=item.agent,
            task=item.task_id,
            task_type=item.task_type,
            error=item.error,
            error_type=item.error_type or UNKNOWN_ERROR_TYPE,
            occurred_at=item.occurred_at,
            api_key_id=api_key_id,
            release=item.release,
            model=item.model,
            prompt_version=item.prompt_version,
            **item.failure_extras,
        )
        for item in failing.values()
    ]
    return dict(zip(failing, failures_prepare(entries=entries), strict=True))


def _applications_for(
    items: dict[int, OutcomeIn],
    failures: dict[int, Failure],
    closed: dict[int, list],
    api_key_id: int | None,
) -> None:
    """An outcome naming the lesson it applied reports whether that lesson worked; a success
    worked for the failures it closed (their patterns are the evidence of lessons.links)."""
    applications_record(
        entries=[
            {
                "lesson_id": item.applied_lesson,
                "worked": item.outcome == "success",
                "agent": item.agent,
                "task_id": item.task_id,
                "failure": failures.get(i),
                "applied_at": item.occurred_at,
                "api_key_id": api_key_id,
                "pattern_ids": _patterns_of(closed.get(i, [])),
            }
            for i, item in items.items()
            if item.applied_lesson
        ]
    )


def _patterns_of(closed: list) -> list[int]:
    """The patterns of what a success closed: stored failures as pattern ids, the request's own
    as failures, whose pattern is read now that they are stored."""
    return sorted({each.pattern_id if isinstance(each, Failure) else each for each in closed})


def _resolve(
    items: dict[int, OutcomeIn],
    created: dict[int, Failure],
) -> tuple[dict[int, int], Counter, dict[int, list]]:
    """Close the open failures each success follows; answer how many each success closed, the
    stored failures closed per pattern (counted into the patterns by failures_count, so that
    patterns are locked only there), and what each success closed (the
    pattern ids of stored failures, the request's own failures as they are).

    A success closes the failures of its task that happened before it, as of its own
    ``occurred_at``: one that arrives late (from a spool, or a span exported after others)
    leaves open what failed after it. Each failure is closed by the earliest success after it;
    between the request's own items of one moment, by the request's order.
    """
    successes: dict[tuple[str, str], list[int]] = {}
    for index, item in items.items():
        if item.outcome == "success":
            successes.setdefault((item.agent, item.task_id), []).append(index)
    if not successes:
        return {}, Counter(), {}
    closed: dict[int, list] = {}
    stored = failures_close_open_of(
        closings=[
            (agent, task, items[i].occurred_at)
            for (agent, task), each in successes.items()
            for i in each
        ],
        count=False,
    )
    for _, pattern_id, agent, task, at in stored:
        closer = next(
            (i for i in successes[(agent, task)] if items[i].occurred_at == at),
            successes[(agent, task)][0],
        )
        closed.setdefault(closer, []).append(pattern_id)
    for index, failure in created.items():
        after = [
            i
            for i in successes.get((failure.agent, failure.task), ())
            if (items[i].occurred_at, i) > (failure.occurred_at, index)
        ]
        if after:
            closer = min(after, key=lambda i: (items[i].occurred_at, i))
            failure.status, failure.resolved_at = (
                Failure.Status.RESOLVED,
                items[closer].occurred_at,
            )
            closed.setdefault(closer, []).append(failure)
    closed_by = {index: len(each) for index, each in closed.items()}
    return closed_by, Counter(row[1] for row in stored), closed


def outcome_append_for_failure(*, failure: Failure) -> Outcome:
    """The failed outcome of a failure posted directly, so the ledger misses no event; stored as
    every outcome is (outcomes_insert). Caller owns the transaction."""
    outcome = Outcome(
        task_id=failure.task,
        agent=failure.agent,
        task_type=failure.task_type,
        outcome=Outcome.Result.FAILURE,
        context={
            "error_type": failure.error_type,
            "error_message": failure.error,
            **({"skill_name": failure.skill_name} if failure.skill_name else {}),
        },
        occurred_at=failure.occurred_at,
        recorded_at=timezone.now(),
        error_type=failure.error_type,
        release=failure.release,
        model=failure.model,
        prompt_version=failure.prompt_version,
        failure=failure,
        pattern_id=failure.pattern_id,
        api_key_id=failure.api_key_id,
    )
    outcomes_insert(rows={0: outcome}, files={})
    history_generation_bump({failure.agent})
    return outcome


def outcomes_follow_merge(*, merged: list[int], survivor: int, **_signal) -> None:
    """Point the ledger's failed outcomes at the pattern theirs was merged into, in the merge's
    transaction (failures.signals.patterns_merged): history relates tasks by it."""
    Outcome.objects.filter(pattern_id__in=merged).update(pattern_id=survivor)


def outcomes_prune(*, older_than_days: int, batch_size: int = 5000) -> int:
    """Delete outcomes that happened more than ``older_than_days`` ago, ``batch_size`` rows per
    short transaction, so no lock is held for long. Failures and pattern counts are untouched."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                Outcome.objects.filter(occurred_at__lt=cutoff)
                .order_by("occurred_at")
                .values_list("pk", flat=True)[:batch_size]
            )
            if not ids:
                return deleted
            Outcome.objects.filter(pk__in=ids).delete()  # its files go with it (cascade)
            deleted += len(ids)
