"""The boot briefing: what an agent should know when it starts, in one bounded read.

The composer is the one place that reads across apps (approved lessons come from ``lessons``).
Only OPEN failures count towards skip, resume, hints, loops and retry advice: a success of a
task (``failures_resolve``) closes its open failures, so a task's open failures are exactly its
failures since its last success; abandoned ones are given up on and ignored.

Every query has a limit (see the caps below) and rides an index on Failure:

* recent failures: ``(agent, -occurred_at)``, within the window, newest RECENT_CAP;
* open failures: the partial ``(agent, -occurred_at) WHERE status='open'`` (an agent's open set stays
  small while it resolves what succeeds), newest OPEN_CAP; skip, resume, hints, loops and
  retry advice are all derived from these rows in Python;
* fleet: ``(task_type, -occurred_at)``, the newest failures per task type, shared by all
  agents through a short-lived cache (see boot_fleet).

Queries per briefing: 2 (the open failures come with their patterns joined), plus 1 for
pattern-linked lessons, at most 4 per ``lesson_check`` call (LESSON_CHECKS_CAP calls) and 1 for
the fleet (one per task type where the database cannot limit the parts of a UNION, i.e. SQLite):
8 at most on PostgreSQL, whatever the history size.
"""
from collections import Counter
from datetime import datetime, timedelta
from types import SimpleNamespace

from django.conf import settings
from django.utils import timezone

from .boot_fleet import fleet_build
from .boot_hints import LESSON_CHECKS_CAP, approved_lessons  # noqa: F401  (re-exported cap)
from .boot_hints import live as _live
from .loops import loop_detect
from .models import Failure, FailurePattern
from .selectors import retry_advice

# Defaults when neither the request nor the settings say: a day of history, and three failures
# of one task with one pattern before it is skipped (the seed's "N times with the same error").
DEFAULT_WINDOW_HOURS = 24
DEFAULT_SKIP_AFTER = 3

# Caps. A briefing is pasted into a prompt and must answer in milliseconds, so every list is short.
RECENT_CAP = 20  # recent failures listed
OPEN_CAP = 100  # newest open failures read; older open ones do not reach the briefing
OPEN_TASKS_CAP = 20  # open tasks (newest first) that get skip, resume, hints, loops and advice
HINTS_PER_TASK = 3  # distinct recovery hints per task, newest first
FLEET_TYPES_CAP = 5  # task types looked up across the fleet
ERROR_CHARS = 500  # error text in compact entries; the full text is in /failures

# skip_until = last failure + a cooldown: SKIP_COOLDOWN at the threshold, doubling with every
# further failure, at most SKIP_COOLDOWN_MAX; longer when the retry_after agents reported is.
SKIP_COOLDOWN = timedelta(minutes=30)
SKIP_COOLDOWN_MAX = timedelta(hours=24)
_MAX_DOUBLINGS = 6  # 30 min * 2**6 = 32 h, already past the cap; keeps the power small


def skip_until(*, last_failed_at: datetime, failures: int, skip_after: int,
               retry_after: int | None = None) -> datetime:
    """When a task skipped after ``failures`` failures may be tried again."""
    doublings = min(max(failures - skip_after, 0), _MAX_DOUBLINGS)
    cooldown = min(SKIP_COOLDOWN * 2 ** doublings, SKIP_COOLDOWN_MAX)
    return last_failed_at + max(cooldown, timedelta(seconds=retry_after or 0))


def boot_context_build(*, agent: str, task_type: str | None = None, scope: str = "agent",
                       window_hours: int | None = None, skip_after: int | None = None,
                       now: datetime | None = None) -> dict:
    """The briefing for ``agent``: skip, resume, hints, loops, retry advice, recent failures and,
    with ``scope="fleet"``, other agents' failures in the same task types."""
    if scope not in ("agent", "fleet"):
        raise ValueError("scope must be agent or fleet")
    now = now or timezone.now()
    window_hours = window_hours or getattr(settings, "HINDSIGHT_BOOT_WINDOW_HOURS",
                                           DEFAULT_WINDOW_HOURS)
    skip_after = skip_after or getattr(settings, "HINDSIGHT_SKIP_AFTER", DEFAULT_SKIP_AFTER)
    since = now - timedelta(hours=window_hours)
    recent = _recent(agent, task_type, since, now)
    tasks = _open_tasks(agent, task_type)
    types = [task_type] if task_type else _task_types(recent, tasks)
    fleet = fleet_build(agent=agent, task_types=types, since=since, now=now) if scope == "fleet" else None
    return {
        "agent": agent, "task_type": task_type, "scope": scope, "generated_at": now,
        "window_hours": window_hours, "skip_after": skip_after,
        "skip": _skips(tasks, skip_after, now), "resume": _resumes(tasks),
        "hints": _hints(tasks), "loops": _loops(tasks, skip_after),
        "retry_advice": _advice(tasks), "recent_failures": [_compact(f) for f in recent],
        "fleet": fleet,
    }


def _ref(pattern: FailurePattern) -> dict:
    return {"id": pattern.pk, "fingerprint": pattern.fingerprint, "template": pattern.template}


class _Row(SimpleNamespace):
    """A failure as boot reads it: plain attributes from ``values()``, no model instance (building
    a hundred of those was a measurable share of a briefing)."""


def _rows(failures, columns, cap) -> list[_Row]:
    values = failures.values("id", *columns).order_by("-occurred_at", "-id")[:cap]
    return [_Row(pk=row.pop("id"), **row) for row in values]


_RECENT_COLUMNS = ("occurred_at", "task", "task_type", "title", "error_type", "error", "status",
                   "pattern_id", "retry_safe", "retry_after", "attempt_count")


def _recent(agent, task_type, since, now) -> list[_Row]:
    failures = Failure.objects.filter(agent=agent, occurred_at__gte=since, occurred_at__lte=now)
    if task_type:
        failures = failures.filter(task_type=task_type)
    return _rows(failures, _RECENT_COLUMNS, RECENT_CAP)


# What skip, resume, hints, loops and retry advice read; the rest of a row stays in the database.
_OPEN_COLUMNS = ("occurred_at", "task", "task_type", "error", "error_type", "skill_name",
                 "retry_safe", "retry_after", "side_effects", "recovery_hint", "attempt_count",
                 "checkpoint", "pattern_id")
_PATTERN_COLUMNS = ("fingerprint", "template", "event_count", "resolved_count", "unsafe_count",
                    "retry_after", "merged_into")


def _open_tasks(agent, task_type) -> dict[str, list[_Row]]:
    """The agent's newest open failures grouped by task, tasks and failures newest first."""
    failures = Failure.objects.filter(agent=agent, status=Failure.Status.OPEN)
    if task_type:
        failures = failures.filter(task_type=task_type)
    # The patterns (and what they were merged into) come in the same query, joined: one round
    # trip instead of two, and no model instances.
    rows = _rows(failures, (*_OPEN_COLUMNS, *_JOINED_PATTERN_COLUMNS), OPEN_CAP)
    _attach_patterns(rows)
    tasks: dict[str, list[_Row]] = {}
    for failure in rows:
        if failure.task in tasks or len(tasks) < OPEN_TASKS_CAP:
            tasks.setdefault(failure.task, []).append(failure)
    return tasks


class _Pattern(SimpleNamespace):
    """A pattern as boot reads it (see _PATTERN_COLUMNS), joined to its failures' rows."""


_JOINED_PATTERN_COLUMNS = (*(f"pattern__{name}" for name in _PATTERN_COLUMNS if name != "merged_into"),
                           "pattern__merged_into_id",
                           *(f"pattern__merged_into__{name}" for name in _PATTERN_COLUMNS
                             if name != "merged_into"))


def _attach_patterns(failures: list[_Row]) -> None:
    """Build each distinct pattern (and what it was merged into) once from the joined columns:
    an agent's open failures share a handful of patterns."""
    patterns: dict[int, _Pattern] = {}
    names = [name for name in _PATTERN_COLUMNS if name != "merged_into"]
    for failure in failures:
        values = failure.__dict__
        pattern = patterns.get(failure.pattern_id)
        if pattern is None:
            merged_id = values["pattern__merged_into_id"]
            merged = None
            if merged_id is not None:
                merged = patterns.get(merged_id) or _Pattern(
                    pk=merged_id, merged_into=None,
                    **{name: values[f"pattern__merged_into__{name}"] for name in names})
            pattern = patterns[failure.pattern_id] = _Pattern(
                pk=failure.pattern_id, merged_into=merged,
                **{name: values[f"pattern__{name}"] for name in names})
        failure.pattern = pattern
        for name in _JOINED_PATTERN_COLUMNS:
            del values[name]


def _compact(failure: _Row) -> dict:
    return {
        "id": failure.pk, "occurred_at": failure.occurred_at, "task": failure.task,
        "task_type": failure.task_type, "title": failure.title, "error_type": failure.error_type,
        "error": failure.error[:ERROR_CHARS], "status": failure.status,
        "pattern_id": failure.pattern_id, "retry_safe": failure.retry_safe,
        "retry_after": failure.retry_after, "attempt_count": failure.attempt_count,
    }


def _skips(tasks, skip_after, now) -> list[dict]:
    """Tasks with ``skip_after`` or more open failures of one pattern, still cooling down."""
    entries = []
    for task, failures in tasks.items():
        # Ties go to the newest pattern: Counter keeps first-seen order and rows are newest first.
        pattern_id, count = Counter(_live(f).pk for f in failures).most_common(1)[0]
        if count < skip_after:
            continue
        last = next(f for f in failures if _live(f).pk == pattern_id)
        pattern = _live(last)
        until = skip_until(last_failed_at=last.occurred_at, failures=count, skip_after=skip_after,
                           retry_after=max(pattern.retry_after or 0, last.retry_after or 0))
        if until <= now:  # cooled down: one more try is allowed; its failure brings it back
            continue
        entries.append({
            "task": task, "task_type": last.task_type, "pattern": _ref(pattern),
            "failures": count, "last_failed_at": last.occurred_at, "skip_until": until,
            "why": f'failed {count} times with "{pattern.template[:120]}" and no success since',
        })
    return entries


def _resumes(tasks) -> list[dict]:
    """Per task, the newest open failure that left a checkpoint to resume from."""
    entries = []
    for task, failures in tasks.items():
        failure = next((f for f in failures if f.checkpoint), None)
        if failure is not None:
            entries.append({
                "task": task, "failure_id": failure.pk, "occurred_at": failure.occurred_at,
                "checkpoint": failure.checkpoint, "side_effects": failure.side_effects,
                "error": failure.error[:ERROR_CHARS], "attempt_count": failure.attempt_count,
            })
    return entries


def _loops(tasks, skip_after) -> list[dict]:
    """Tasks whose failures since their last success end in a loop (see failures.loops)."""
    entries = []
    for task, failures in tasks.items():
        chronological = failures[::-1]
        loop = loop_detect([_live(f).pk for f in chronological], min_repeat=skip_after)
        if loop is not None:
            patterns = {_live(f).pk: _live(f) for f in chronological}
            entries.append({
                "task": task, "kind": loop.kind, "length": loop.length,
                "patterns": [_ref(patterns[pk]) for pk in loop.patterns],
                "since": chronological[loop.start].occurred_at,
            })
    return entries


def _advice(tasks) -> list[dict]:
    """Retry advice for each open task, from its newest failure and that pattern's history."""
    return [{"task": task, "failure_id": failures[0].pk, "pattern": _ref(_live(failures[0])),
             **retry_advice(pattern=_live(failures[0]), failure=failures[0])}
            for task, failures in tasks.items()]


def _hints(tasks) -> list[dict]:
    """Per open task: its distinct recovery hints, newest first, and approved lessons."""
    lessons = approved_lessons(tasks)
    entries = []
    for task, failures in tasks.items():
        hints = list(dict.fromkeys(f.recovery_hint.strip() for f in failures
                                   if f.recovery_hint.strip()))[:HINTS_PER_TASK]
        if hints or lessons[task]:
            entries.append({"task": task, "recovery_hints": hints, "lessons": lessons[task]})
    return entries


def _task_types(recent, tasks) -> list[str]:
    """This agent's task types, most recently failed first."""
    failures = [*recent, *(f for failures in tasks.values() for f in failures)]
    types = dict.fromkeys(f.task_type for f in failures if f.task_type)
    return list(types)[:FLEET_TYPES_CAP]
