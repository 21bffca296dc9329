"""Every write to the outcome ledger: record (one or a thousand at once), append, prune.

One write per event: a failed outcome with an error message creates its failure record (with its
pattern) in the same transaction, and a success closes the task's open failures.
"""
import logging
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import OperationalError, transaction
from django.utils import timezone
from psycopg.errors import DeadlockDetected

from config.api.agents import agent_refusal, refusal_message
from config.api.models import ApiKey
from failures.models import UNKNOWN_ERROR_TYPE, Failure
from failures.services import (failures_close_open_of, failures_prepare, failures_store,
                               patterns_resolved_add)
from lessons.selectors import lesson_ids_missing
from lessons.services import applications_record

from . import ledger_sql
from .cache import history_generation_bump
from .models import Outcome
from .validation import OutcomeIn, outcome_parse

logger = logging.getLogger(__name__)

# Writers take their locks in one order: the open failures their successes close, then their
# event ids (the outcomes' insert), then their patterns by id (counting and storing their
# failures, last, so that writers sharing patterns wait for each other briefly). Closing and
# merging elsewhere may still cross it; a deadlock the database breaks is tried again.
ATTEMPTS = 3


@dataclass(slots=True)
class Stored:
    """An outcome as this request stored it: its columns (named as the model's attnames), its
    id, and the failure record it made. Lighter than a model instance, which a batch of a
    thousand would pay for in construction alone."""

    event_id: uuid.UUID | None
    digest: str
    task_id: str
    agent: str
    task_type: str
    outcome: str
    context: dict
    result: dict
    duration_ms: int | None
    occurred_at: datetime
    error_type: str
    pk: int | None = None
    failure: Failure | None = None
    failure_id: int | None = None
    pattern_id: int | None = None
    resolved_failures: int = 0
    api_key_id: int | None = None

    @classmethod
    def of(cls, item: OutcomeIn, api_key_id: int | None) -> "Stored":
        return cls(item.event_id, item.digest, item.task_id, item.agent, item.task_type,
                   item.outcome, item.context, item.result,
                   item.duration_ms, item.occurred_at, item.error_type, api_key_id=api_key_id)


@dataclass
class Recorded:
    """What became of one outcome of a request: a new outcome is a Stored, a replay the stored
    Outcome."""

    status: str  # "created", "replayed", "conflict" or "forbidden"
    outcome: Stored | Outcome | None = None
    message: str = ""
    fields: dict | None = None  # a forbidden item's refusal, by field


def outcomes_parse(raw_items: list) -> list[tuple[OutcomeIn | None, dict]]:
    """Check each raw outcome (one clock for the batch); ``(OutcomeIn, {})`` or ``(None,
    errors by field)`` per item. Naming a lesson that does not exist is an error of
    ``applied_lesson``."""
    now = timezone.now()
    parsed = [outcome_parse(raw, now=now) for raw in raw_items]
    missing = lesson_ids_missing(item.applied_lesson for item, _ in parsed if item)
    return [(None, {"applied_lesson": [f"No lesson with id {item.applied_lesson}."]})
            if item and item.applied_lesson in missing else (item, errors)
            for item, errors in parsed]


class _EventsTaken(Exception):
    """Some of a request's event ids were stored by another request first: what this attempt
    wrote is undone, and the next attempt answers those events as replays. A replay thus costs
    a rolled-back attempt (and psycopg forgets the statements it prepared on the connection at
    any rollback); replays are rare, the lost answer of a stored event, so new events pay
    nothing for them."""


def outcomes_record(items: list[OutcomeIn], *, api_key: ApiKey | None = None) -> list[Recorded]:
    """Record checked outcomes in one transaction, as written by ``api_key``; answer one
    Recorded per item, in order. An item for an agent the key is not bound to is not stored:
    it is answered "forbidden", with the refusal (config.api.agents) as its fields."""
    refusals = [agent_refusal(api_key, item.agent) for item in items]
    allowed = [item for item, refusal in zip(items, refusals) if refusal is None]
    stored = iter(_record_retried(allowed, api_key_id=api_key and api_key.pk) if allowed else ())
    return [Recorded("forbidden", message=refusal_message(refusal), fields=refusal)
            if refusal else next(stored) for refusal in refusals]


def _record_retried(items: list[OutcomeIn], *, api_key_id: int | None) -> list[Recorded]:
    read_stored, deadlocks, taken = False, 0, 0
    while True:
        try:
            with transaction.atomic():
                recorded = _record(items, read_stored=read_stored, api_key_id=api_key_id)
                history_generation_bump({r.outcome.agent for r in recorded
                                         if r.status == "created"})
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


def _record(items: list[OutcomeIn], *, read_stored: bool,
            api_key_id: int | None) -> list[Recorded]:
    """Derive failures and resolutions of the new events, store their outcomes whole (links
    included, no second write), then count and store the failures. The outcomes' insert skips
    an event id stored meanwhile (waiting for a concurrent writer of it to finish), and then
    everything this attempt wrote is undone (_EventsTaken), so a concurrent request with the
    same events never doubles them.

    A request of new events reads nothing before it writes; only an attempt after one that met
    stored events (``read_stored``) first reads which of its events are stored."""
    first = _first_of_each_event(items)
    events = {items[i].event_id for i in set(first) if items[i].event_id is not None}
    # Replays are answered from ids and counters: the JSON columns stay unread.
    stored = ({o.event_id: o for o in Outcome.objects.filter(event_id__in=events).defer(
        "context", "result")} if read_stored and events else {})
    fresh = {i: items[i] for i in range(len(items))
             if first[i] == i and items[i].event_id not in stored}
    failures = _failures_for(fresh, api_key_id)
    resolved, closed_patterns, closed = _resolve(fresh, failures)
    rows = {i: Stored.of(item, api_key_id) for i, item in fresh.items()}
    _link(rows, failures)
    for i, count in resolved.items():
        rows[i].resolved_failures = count
    # The outcomes go first (their new failures' ids allocated with them) and the failures
    # last: the patterns those lock are then held only for counting and storing them.
    ledger_sql.outcomes_insert(list(rows.values()), [item.files for item in fresh.values()])
    if any(row.pk is None for row in rows.values()):  # an event id stored meanwhile
        raise _EventsTaken
    failures_store(list(failures.values()))
    ledger_sql.outcomes_repoint({rows[i].pk: f.pattern_id for i, f in failures.items()
                                 if f.pattern_id != rows[i].pattern_id})
    _link(rows, failures)
    patterns_resolved_add(closed_patterns)
    _applications_for(fresh, failures, closed, api_key_id)
    recorded = []
    for i, item in enumerate(items):
        if item.event_id in stored:  # stored before this request, or by another meanwhile
            answer = _replay_or_conflict(item, stored[item.event_id].digest)
            if answer.status == "replayed":
                answer.outcome = stored[item.event_id]
        elif first[i] == i:
            answer = Recorded("created", rows[i])
        else:  # a repeat of an event this request created
            answer = _replay_or_conflict(item, items[first[i]].digest)
            if answer.status == "replayed":
                answer.outcome = rows[first[i]]
        recorded.append(answer)
    return recorded


def _link(rows: dict[int, Stored], failures: dict[int, Failure]) -> None:
    """Point each failed outcome at its failure and that failure's pattern, as they are now."""
    for i, failure in failures.items():
        rows[i].failure, rows[i].failure_id, rows[i].pattern_id = (
            failure, failure.pk, failure.pattern_id)


def _first_of_each_event(items: list[OutcomeIn]) -> list[int]:
    """For each item, the index of the first item of the request with its event id (itself for
    the first, and for an item without an event id)."""
    seen: dict = {}
    return [seen.setdefault(item.event_id, i) if item.event_id else i
            for i, item in enumerate(items)]


def _replay_or_conflict(item: OutcomeIn, digest: str) -> Recorded:
    if digest == item.digest:
        return Recorded("replayed")
    return Recorded("conflict", message=(
        f"event_id {item.event_id} was already used for a different outcome; "
        "send a new event_id for a new event."))


def _failures_for(items: dict[int, OutcomeIn], api_key_id: int | None) -> dict[int, Failure]:
    """The failure record of each failed outcome that carries an error message, prepared with
    its pattern (failures_prepare): stored by _record."""
    failing = {i: item for i, item in items.items() if item.outcome == "failure" and item.error}
    if not failing:
        return {}
    entries = [dict(agent=item.agent, task=item.task_id, task_type=item.task_type,
                    error=item.error, error_type=item.error_type or UNKNOWN_ERROR_TYPE,
                    occurred_at=item.occurred_at, api_key_id=api_key_id, **item.failure_extras)
               for item in failing.values()]
    return dict(zip(failing, failures_prepare(entries)))


def _applications_for(items: dict[int, OutcomeIn], failures: dict[int, Failure],
                      closed: dict[int, list], api_key_id: int | None) -> None:
    """An outcome naming the lesson it applied reports whether that lesson worked; a success
    worked for the failures it closed (their patterns are the evidence of lessons.links)."""
    applications_record([
        dict(lesson_id=item.applied_lesson, worked=item.outcome == "success", agent=item.agent,
             task_id=item.task_id, failure=failures.get(i), applied_at=item.occurred_at,
             api_key_id=api_key_id, pattern_ids=_patterns_of(closed.get(i, ())))
        for i, item in items.items() if item.applied_lesson])


def _patterns_of(closed: list) -> list[int]:
    """The patterns of what a success closed: stored failures as pattern ids, the request's own
    as failures, whose pattern is read now that they are stored."""
    return sorted({each.pattern_id if isinstance(each, Failure) else each for each in closed})


def _resolve(items: dict[int, OutcomeIn], created: dict[int, Failure],
             ) -> tuple[dict[int, int], Counter, dict[int, list]]:
    """Close the open failures each success follows; answer how many each success closed, the
    stored failures closed per pattern (counted into the patterns by the caller, after
    failures_store, so that no pattern is locked before), and what each success closed (the
    pattern ids of stored failures, the request's own failures as they are).

    A failure sent earlier in the same request is closed by a later success of its task, not by
    an earlier one: it is stored closed. Failures stored before the request are closed by the
    task's first success (the request's own are not stored yet, so that cannot close them).
    """
    successes: dict[tuple[str, str], list[int]] = {}
    for index, item in items.items():
        if item.outcome == "success":
            successes.setdefault((item.agent, item.task_id), []).append(index)
    if not successes:
        return {}, Counter(), {}
    closed: dict[int, list] = {}
    stored = failures_close_open_of(set(successes), count=False)
    for _, pattern_id, agent, task in stored:
        closed.setdefault(successes[(agent, task)][0], []).append(pattern_id)
    now = timezone.now()
    for index, failure in created.items():
        pair = (failure.agent, failure.task)
        closer = next((i for i in successes.get(pair, ()) if i > index), None)
        if closer is not None:
            failure.status, failure.resolved_at = Failure.Status.RESOLVED, now
            closed.setdefault(closer, []).append(failure)
    closed_by = {index: len(each) for index, each in closed.items()}
    return closed_by, Counter(pattern_id for _, pattern_id, _, _ in stored), closed


def outcome_append_for_failure(failure: Failure) -> Outcome:
    """The failed outcome of a failure posted directly, so the ledger misses no event. Caller
    owns the transaction."""
    outcome = Outcome.objects.create(
        task_id=failure.task, agent=failure.agent, task_type=failure.task_type,
        outcome=Outcome.Result.FAILURE, context={
            "error_type": failure.error_type, "error_message": failure.error,
            **({"skill_name": failure.skill_name} if failure.skill_name else {})},
        occurred_at=failure.occurred_at, error_type=failure.error_type, failure=failure,
        pattern_id=failure.pattern_id, api_key_id=failure.api_key_id,
    )
    history_generation_bump({failure.agent})
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
