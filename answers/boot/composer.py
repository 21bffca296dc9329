"""The boot briefing: what an agent should know when it starts, in one bounded read.

Like the failure answer beside it, the composer reads across apps (approved lessons come from
``lessons``).
Only OPEN failures count towards skip, resume, hints, loops and retry advice: a success of a
task (``failures_resolve``) closes its open failures, so a task's open failures are exactly its
failures since its last success; abandoned ones are given up on and ignored.

Every query has a limit (see the caps below) and rides an index on Failure:

* recent failures: ``(agent, -occurred_at)``, within the window, newest RECENT_CAP, leaving out
  those of patterns a curator muted (failures.store.triage: one primary-key probe per row read);
* open failures: the partial ``(agent, -occurred_at) WHERE status='open'`` (an agent's open set
  stays small while it resolves what succeeds), newest OPEN_CAP; skip, resume, hints, loops and
  retry advice are all derived from these rows in Python;
* with a task type, the same two reads ride ``(agent, task_type, -occurred_at, -id)`` and its
  open-only twin, so a type an agent rarely fails at costs no more than one it often does;
* fleet: ``(task_type, -occurred_at)``, the newest failures per task type, shared by all
  agents through a short-lived cache (see answers.boot.fleet).

Queries per briefing: 1 for the recent and open failures (one UNION ALL, live patterns
joined: answers.queries), 1 for pattern-linked lessons, 2 per message check (matched and
related lessons; LESSON_CHECKS_CAP, answers reused for a while, see answers.boot.hints) and 1 for
the fleet when its cached view expired: 5 at most, whatever the history size; 1 more while an
open task's pattern is in an open root-cause group (failures.analysis.rootcause_notes).
"""

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from django.conf import settings
from django.utils import timezone

from answers import queries
from answers.boot.fleet import fleet_build
from answers.boot.hints import LESSON_CHECKS_CAP, hints_build  # noqa: F401  (re-exported cap)
from failures.analysis.loops import loop_detect
from failures.analysis.rootcause_notes import root_cause_note, root_causes_of
from failures.models import pattern_ref
from failures.records.selectors import retry_advice
from failures.releases.selectors import new_in_release

# Defaults when neither the request nor the settings say: a day of history, and three failures
# of one task with one pattern before it is skipped (the seed's "N times with the same error").
DEFAULT_WINDOW_HOURS = 24
DEFAULT_SKIP_AFTER = 3

# Caps. A briefing is pasted into a prompt and must answer in milliseconds, so every list is short.
RECENT_CAP = 20  # recent failures listed
OPEN_CAP = 100  # newest open failures read; older open ones do not reach the briefing
OPEN_TASKS_CAP = 20  # open tasks (newest first) that get skip, resume, hints, loops and advice
FLEET_TYPES_CAP = 5  # task types looked up across the fleet
ERROR_CHARS = 500  # error text in compact entries; the full text is in /failures

# skip_until = last failure + a cooldown: SKIP_COOLDOWN at the threshold, doubling with every
# further failure, at most SKIP_COOLDOWN_MAX; longer when the retry_after agents reported is.
SKIP_COOLDOWN = timedelta(minutes=30)
SKIP_COOLDOWN_MAX = timedelta(hours=24)
_MAX_DOUBLINGS = 6  # 30 min * 2**6 = 32 h, already past the cap; keeps the power small


def skip_until(
    *, last_failed_at: datetime, failures: int, skip_after: int, retry_after: int | None = None
) -> datetime:
    """When a task skipped after ``failures`` failures may be tried again."""
    doublings = min(max(failures - skip_after, 0), _MAX_DOUBLINGS)
    cooldown = min(SKIP_COOLDOWN * 2**doublings, SKIP_COOLDOWN_MAX)
    try:
        return last_failed_at + max(cooldown, timedelta(seconds=retry_after or 0))
    except OverflowError:  # a failure stored as of the last day of year 9999: skip it for good
        return datetime.max.replace(tzinfo=UTC)


def boot_context_build(
    *,
    agent: str,
    task_type: str | None = None,
    scope: str = "agent",
    window_hours: int | None = None,
    skip_after: int | None = None,
    release: str = "",
    now: datetime | None = None,
) -> dict:
    """The briefing for ``agent``: skip, resume, hints, loops, retry advice, recent failures,
    the patterns new in its ``release`` and, with ``scope="fleet"``, other agents' failures in
    the same task types."""
    if scope not in ("agent", "fleet"):
        raise ValueError("scope must be agent or fleet")
    now = now or timezone.now()
    if not window_hours:
        window_hours = getattr(settings, "HINDSIGHT_BOOT_WINDOW_HOURS", DEFAULT_WINDOW_HOURS)
    skip_after = skip_after or getattr(settings, "HINDSIGHT_SKIP_AFTER", DEFAULT_SKIP_AFTER)
    since = now - timedelta(hours=window_hours)
    recent, open_failures = _failures(agent, task_type, since, now)
    tasks = _open_tasks(open_failures)
    types = [task_type] if task_type else _task_types(recent, tasks)
    fleet = (
        fleet_build(agent=agent, task_types=types, since=since, now=now)
        if scope == "fleet"
        else None
    )
    return {
        "agent": agent,
        "task_type": task_type,
        "scope": scope,
        "generated_at": now,
        "window_hours": window_hours,
        "skip_after": skip_after,
        "skip": _skips(tasks, skip_after, now),
        "resume": _resumes(tasks),
        "hints": hints_build(tasks),
        "loops": _loops(tasks, skip_after),
        "retry_advice": _advice(tasks),
        "root_causes": _root_causes(tasks),
        "recent_failures": [_compact(f) for f in recent],
        "release": release,
        "new_in_release": new_in_release(release) if release else [],
        "fleet": fleet,
    }


class _Row(SimpleNamespace):
    """A failure as boot reads it: plain attributes, no model instance (slow by the hundred)."""


class _Pattern(SimpleNamespace):
    """A live pattern as boot reads it (see answers.queries.LIVE)."""


def _failures(agent, task_type, since, now) -> tuple[list[_Row], list[_Row]]:
    """The agent's recent failures (newest RECENT_CAP in the window, muted patterns left out)
    and its newest OPEN_CAP open failures with their live patterns and the match index's token
    (for their hints' message check: answers.boot.hints), each newest first."""
    rows = queries.boot_failures(
        agent=agent,
        task_type=task_type,
        since=since,
        now=now,
        recent_cap=RECENT_CAP,
        open_cap=OPEN_CAP,
    )
    shared, recent_end = len(queries.SHARED), len(queries.SHARED) + len(queries.RECENT)
    # A recent row goes on with the open columns (NULL in it): zip stops at the recent ones.
    recent = [
        _Row(pk=pk, **dict(zip(queries.SHARED + queries.RECENT, values, strict=False)))
        for is_open, pk, *values in rows
        if not is_open
    ]
    return recent, _open_rows(
        [(pk, *values[:shared], *values[recent_end:]) for is_open, pk, *values in rows if is_open]
    )


def _open_rows(rows) -> list[_Row]:
    """Open failures from ``(id, *SHARED, *OPEN, *LIVE, index token)`` rows, each distinct live
    pattern built once: an agent's open failures share a few."""
    columns = queries.SHARED + queries.OPEN
    patterns: dict[int, _Pattern] = {}
    failures = []
    for pk, *values, token in rows:
        # The row goes on with its live pattern's columns, read below: zip stops before them.
        failure = _Row(pk=pk, index_token=token, **dict(zip(columns, values, strict=False)))
        # A plain cursor reads jsonb as text; most rows have no side effects and no checkpoint.
        failure.side_effects = (
            [] if failure.side_effects == "[]" else json.loads(failure.side_effects)
        )
        if failure.checkpoint is not None:
            failure.checkpoint = json.loads(failure.checkpoint)
        live_id, *live = values[len(columns) :]
        failure.live = patterns.get(live_id) or patterns.setdefault(
            live_id, _Pattern(pk=live_id, **dict(zip(queries.LIVE[1:], live, strict=True)))
        )
        failures.append(failure)
    return failures


def _open_tasks(failures: list[_Row]) -> dict[str, list[_Row]]:
    """Open failures grouped by task (the newest OPEN_TASKS_CAP tasks), newest first."""
    tasks: dict[str, list[_Row]] = {}
    for failure in failures:
        if failure.task in tasks or len(tasks) < OPEN_TASKS_CAP:
            tasks.setdefault(failure.task, []).append(failure)
    return tasks


def _compact(failure: _Row) -> dict:
    return {
        "id": failure.pk,
        "occurred_at": failure.occurred_at,
        "task": failure.task,
        "task_type": failure.task_type,
        "title": failure.title,
        "error_type": failure.error_type,
        "error": failure.error[:ERROR_CHARS],
        "status": failure.status,
        "pattern_id": failure.pattern_id,
        "retry_safe": failure.retry_safe,
        "retry_after": failure.retry_after,
        "attempt_count": failure.attempt_count,
    }


def _skips(tasks, skip_after, now) -> list[dict]:
    """Tasks with ``skip_after`` or more open failures of one pattern, still cooling down."""
    entries = []
    for task, failures in tasks.items():
        # Ties go to the newest pattern: Counter keeps first-seen order and rows are newest first.
        pattern_id, count = Counter(f.live.pk for f in failures).most_common(1)[0]
        if count < skip_after:
            continue
        last = next(f for f in failures if f.live.pk == pattern_id)
        pattern = last.live
        until = skip_until(
            last_failed_at=last.occurred_at,
            failures=count,
            skip_after=skip_after,
            retry_after=max(pattern.retry_after or 0, last.retry_after or 0),
        )
        if until <= now:  # cooled down: one more try is allowed; its failure brings it back
            continue
        entries.append(
            {
                "task": task,
                "task_type": last.task_type,
                "pattern": pattern_ref(pattern),
                "failures": count,
                "last_failed_at": last.occurred_at,
                "skip_until": until,
                "why": (
                    f'this task failed {count} times with "{pattern.template[:120]}" and no '
                    "success since"
                ),
            }
        )
    return entries


def _resumes(tasks) -> list[dict]:
    """Per task, the newest open failure that left a checkpoint to resume from."""
    entries = []
    for task, failures in tasks.items():
        failure = next((f for f in failures if f.checkpoint), None)
        if failure is not None:
            entries.append(
                {
                    "task": task,
                    "failure_id": failure.pk,
                    "occurred_at": failure.occurred_at,
                    "checkpoint": failure.checkpoint,
                    "side_effects": failure.side_effects,
                    "error": failure.error[:ERROR_CHARS],
                    "attempt_count": failure.attempt_count,
                }
            )
    return entries


def _loops(tasks, skip_after) -> list[dict]:
    """Tasks whose failures since their last success end in a loop (failures.analysis.loops)."""
    entries = []
    for task, failures in tasks.items():
        chronological = failures[::-1]
        loop = loop_detect([f.live.pk for f in chronological], min_repeat=skip_after)
        if loop is not None:
            patterns = {f.live.pk: f.live for f in chronological}
            entries.append(
                {
                    "task": task,
                    "kind": loop.kind,
                    "length": loop.length,
                    "patterns": [pattern_ref(patterns[pk]) for pk in loop.patterns],
                    "since": chronological[loop.start].occurred_at,
                }
            )
    return entries


def _advice(tasks) -> list[dict]:
    """Retry advice for each open task, from its newest failure, how often the task failed with
    that pattern since its last success, and that pattern's history."""
    entries = []
    for task, failures in tasks.items():
        pattern = failures[0].live
        repeats = sum(f.live.pk == pattern.pk for f in failures)
        entries.append(
            {
                "task": task,
                "failure_id": failures[0].pk,
                "pattern": pattern_ref(pattern),
                **retry_advice(pattern=pattern, failure=failures[0], task_failures=repeats),
            }
        )
    return entries


def _root_causes(tasks) -> list[dict]:
    """The open root-cause groups of the open tasks' patterns, each with this agent's tasks it
    touches: their failures are symptoms of one cause, not each a fault to retry."""
    touched: dict[int, list[str]] = {}
    for task, failures in tasks.items():
        for group_id in dict.fromkeys(f.live.root_cause_group_id for f in failures):
            if group_id is not None:
                touched.setdefault(group_id, []).append(task)
    if not touched:  # the common case costs no query
        return []
    groups = root_causes_of(touched)
    return [
        {
            **group,
            "tasks": touched[pk],
            "note": root_cause_note(
                group["patterns"],
                agents=group["agents"],
                since=group["since"],
                lead="Probably one cause behind",
            ),
        }
        for pk, group in sorted(groups.items(), key=lambda item: item[0], reverse=True)
    ]


def _task_types(recent, tasks) -> list[str]:
    """This agent's task types, most recently failed first."""
    failures = [*recent, *(f for failures in tasks.values() for f in failures)]
    types = dict.fromkeys(f.task_type for f in failures if f.task_type)
    return list(types)[:FLEET_TYPES_CAP]
