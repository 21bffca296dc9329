"""Every write to failures: record (each under its message's pattern, failures.store.patterns)
and count into their patterns, resolve."""

from collections import Counter
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from config.writers import ANYONE, Writer, agent_check
from failures import queries
from failures.live import live_pattern
from failures.models import UNKNOWN_ERROR_TYPE, Failure, FailurePattern
from failures.store.patterns import MAX_LOCK_TRIES, patterns_for


def failure_record(*, agent: str, task: str, error: str, **fields) -> Failure:
    """Store one failure under its pattern and count it; ``api_key_id``, if given, is recorded
    as its writer. Its text comes scrubbed of secrets (config.api.fields and outcomes.validation
    scrub what agents send). Caller owns the transaction (see
    answers.services.failure_report, which adds idempotency and checks the key's
    agents)."""
    return failures_record_many(entries=[dict(agent=agent, task=task, error=error, **fields)])[0]


def failures_record_many(*, entries: list[dict]) -> list[Failure]:
    """Store failures (each a dict of failure_record's arguments) in a few queries, whatever
    their number: patterns looked up once per distinct template, counted in one statement."""
    return failures_store(rows=failures_prepare(entries=entries))


def failures_prepare(*, entries: list[dict]) -> list[Failure]:
    """Failure rows of these entries (failure_record's arguments, already scrubbed), each with
    its message's live pattern (created the first time): neither stored nor counted yet, and
    nothing locked (see failures_count)."""
    now = timezone.now()
    rows = [_failure_row(entry, now) for entry in entries]
    patterns = patterns_for([(row.error, row.error_type) for row in rows])
    for row in rows:
        row.pattern = patterns[row.error]
    return rows


def failures_store(*, rows: list[Failure], resolved: Counter | None = None) -> list[Failure]:
    """Store prepared rows (failures_prepare) and count them into their patterns: failures_insert
    then failures_count, whose docstrings say what each holds."""
    with transaction.atomic(savepoint=False):  # the caller's, if it has one
        failures_insert(rows=rows)
        failures_count(rows=rows, resolved=resolved)
    return rows


def failures_insert(*, rows: list[Failure]) -> list[Failure]:
    """Store prepared rows (failures_prepare), setting their ids; not counted yet
    (failures_count). No pattern is locked here: the foreign key to the pattern is checked at
    commit (it is deferred), when failures_count holds the pattern."""
    if rows:
        _recorded_now(rows)
        Failure.objects.bulk_create(rows)
    return rows


def failures_count(*, rows: list[Failure], resolved: Counter | None = None) -> None:
    """Count stored rows (failures_insert) into their patterns, and add ``resolved`` (``{pattern
    id: failures closed}``) to the patterns' retry history. Every pattern touched is locked
    here, in id order, until the transaction ends, so a writer counts last to hold them
    briefly. A row whose pattern was merged meanwhile moves to the surviving pattern; its
    ``pattern_id`` then says so. A row already closed (``status``) counts as a resolution of
    its pattern too."""
    resolved = Counter(resolved or ())
    if not rows and not resolved:
        return
    with transaction.atomic(savepoint=False):  # the caller's, if it has one
        _failures_move(_patterns_lock(rows, set(resolved)))
        by_pattern: dict[int, list[Failure]] = {}
        for row in rows:
            by_pattern.setdefault(row.pattern.pk, []).append(row)
        if rows:
            queries.patterns_count(
                [_pattern_counts(pk, group) for pk, group in by_pattern.items()],
                agents={(row.pattern.pk, row.agent) for row in rows},
                tasks={(row.pattern.pk, row.task) for row in rows},
                own=[row.pk for row in rows],
            )
        resolved.update(row.pattern_id for row in rows if row.status == Failure.Status.RESOLVED)
        _patterns_resolved_add(+resolved)


def _failures_move(moved: list[Failure]) -> None:
    """Store the new pattern of stored rows that moved (to the pattern theirs was merged into)."""
    by_pattern: dict[int, list[int]] = {}
    for row in moved:
        by_pattern.setdefault(row.pattern_id, []).append(row.pk)
    for pattern_id, ids in by_pattern.items():
        Failure.objects.filter(pk__in=ids).update(pattern_id=pattern_id)


def _recorded_now(rows: list[Failure]) -> None:
    """One clock for the batch, set here rather than left to the database's default, so that
    the batch is inserted as one array per column (Django does so only when no value is a
    default). The watermarks read it with minutes of margin (failures.store.jobstate.SETTLE)."""
    now = timezone.now()
    for row in rows:
        row.recorded_at = now


def _failure_row(entry: dict, now: datetime) -> Failure:
    return Failure(
        occurred_at=entry.get("occurred_at") or now,
        agent=entry["agent"],
        task=entry["task"],
        task_description=entry.get("task_description") or "",
        task_type=entry.get("task_type", ""),
        skill_name=entry.get("skill_name", ""),
        release=entry.get("release", ""),
        model=entry.get("model", ""),
        prompt_version=entry.get("prompt_version", ""),
        title=entry.get("title") or "",
        error=entry["error"],
        error_type=entry.get("error_type") or UNKNOWN_ERROR_TYPE,
        retry_safe=entry.get("retry_safe"),
        retry_after=entry.get("retry_after"),
        side_effects=entry.get("side_effects") or [],
        recovery_hint=entry.get("recovery_hint") or "",
        attempt_count=entry.get("attempt_count") or 1,
        checkpoint=entry.get("checkpoint"),
        api_key_id=entry.get("api_key_id"),
        trace_id=entry.get("trace_id", ""),
        span_id=entry.get("span_id", ""),
        fault=entry.get("fault", ""),
        lineage=list(entry["lineage"]) if "lineage" in entry else None,
        agent_span=entry.get("agent_span", ""),
    )


def _patterns_lock(rows: list[Failure], also: set[int]) -> list[Failure]:
    """Lock the rows' patterns and ``also`` in id order (so that writers sharing patterns queue
    instead of deadlocking); answer the rows that moved. A merge that committed while this
    waited has re-pointed every failure it could see, but not these rows (not committed yet):
    they move to the surviving pattern here."""
    moved: dict[int, Failure] = {}
    for _ in range(MAX_LOCK_TRIES):
        ids = {row.pattern.pk for row in rows} | also
        locked = FailurePattern.objects.select_for_update(no_key=True).filter(pk__in=ids)
        lives = dict(locked.order_by("pk").values_list("pk", live_pattern()))
        moving = [row for row in rows if lives[row.pattern.pk] != row.pattern.pk]
        if not moving:
            break
        found = FailurePattern.objects.in_bulk({lives[row.pattern.pk] for row in moving})
        for row in moving:
            row.pattern = found[lives[row.pattern.pk]]
            moved[id(row)] = row
    return list(moved.values())


def _pattern_counts(pk: int, group: list[Failure]) -> tuple:
    """What new failures add to their pattern: ``(id, events, unsafe, earliest, latest,
    retry_after)`` (queries.patterns_count adds its new agents and tasks)."""
    retry_after = [r.retry_after for r in group if r.retry_after is not None]
    return (
        pk,
        len(group),
        sum(r.retry_safe is False for r in group),
        min(r.occurred_at for r in group),
        max(r.occurred_at for r in group),
        retry_after[-1] if retry_after else None,
    )


def _patterns_resolved_add(per_pattern: Counter) -> None:
    """Add ``{pattern id: failures resolved}`` to locked patterns' retry history: one UPDATE per
    distinct number added, not one CASE over every pattern, whose compilation cost a bulk
    record about 19 ms of CPU (in process, bench_small)."""
    by_number: dict[int, list[int]] = {}
    for pk, number in per_pattern.items():
        by_number.setdefault(number, []).append(pk)
    for number, pks in sorted(by_number.items()):
        FailurePattern.objects.filter(pk__in=pks).update(
            resolved_count=F("resolved_count") + number
        )


def failures_resolve(
    *, agent: str, task: str, status: str = Failure.Status.RESOLVED, writer: Writer = ANYONE
) -> int:
    """Close the open failures of an agent's task (fixed, or given up), now; return how many.
    A key bound to other agents may not (Forbidden)."""
    agent_check(writer, agent)
    with transaction.atomic():
        return len(
            failures_close_open_of(
                closings=[(agent, task, timezone.now())], status=status, any_time=True
            )
        )


def failures_close_open_of(
    *,
    closings: list[tuple[str, str, datetime]],
    status: str = Failure.Status.RESOLVED,
    count: bool = True,
    any_time: bool = False,
) -> list[tuple]:
    """Close the open failures of these (agent, task, at) closings' tasks that happened by
    ``at`` (all of them with ``any_time``), each as of the earliest closing after it; answer
    ``(id, pattern_id, agent, task, at)`` of each closed. ``count=False`` leaves counting the
    resolutions into their patterns to the caller (failures_count), who then locks no pattern
    yet."""
    if not closings:
        return []
    _closing_status_check(status)
    with transaction.atomic(savepoint=False):  # the caller's, if it has one
        closed = queries.open_failures_close(closings, status=status, any_time=any_time)
        if closed and status == Failure.Status.RESOLVED and count:
            failures_count(rows=[], resolved=Counter(row[1] for row in closed))
    return closed


def _closing_status_check(status: str) -> None:
    if status not in (Failure.Status.RESOLVED, Failure.Status.ABANDONED):
        raise ValueError("status must be resolved or abandoned")
