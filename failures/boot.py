"""The boot briefing: what an agent should know when it starts, in one bounded read.

The composer is the one place that reads across apps (approved lessons come from ``lessons``).
Only OPEN failures count towards skip, resume, hints, loops and retry advice: a success of a
task (``failures_resolve``) closes its open failures, so a task's open failures are exactly its
failures since its last success; abandoned ones are given up on and ignored.

Every query has a limit (see the caps below) and rides an index on Failure:

* recent failures: ``(agent, -occurred_at)``, within the window, newest RECENT_CAP, leaving out
  those of patterns a curator muted (failures.triage: one primary-key probe per row read);
* open failures: the partial ``(agent, -occurred_at) WHERE status='open'`` (an agent's open set stays
  small while it resolves what succeeds), newest OPEN_CAP; skip, resume, hints, loops and
  retry advice are all derived from these rows in Python;
* with a task type, the same two reads ride ``(agent, task_type, -occurred_at, -id)`` and its
  open-only twin, so a type an agent rarely fails at costs no more than one it often does;
* fleet: ``(task_type, -occurred_at)``, the newest failures per task type, shared by all
  agents through a short-lived cache (see boot_fleet).

Queries per briefing: 1 for the recent and open failures (one UNION ALL, patterns
joined), 1 for pattern-linked lessons, 2 per message check (matched and related lessons;
LESSON_CHECKS_CAP, answers reused for a while, see boot_hints) and 1 for the fleet when its
cached view expired: 5 at most, whatever the history size; 1 more while an open task's pattern
is in an open root-cause group (failures.rootcause_notes).
"""
import json
from collections import Counter
from datetime import datetime, timedelta, timezone as dt_timezone
from types import SimpleNamespace

from django.conf import settings
from django.utils import timezone

from config.sql_prepared import prepared_cursor
from lessons.match_index import match_index_version_sql

from .boot_fleet import fleet_build
from .boot_hints import LESSON_CHECKS_CAP, hints_build  # noqa: F401  (re-exported cap)
from .boot_hints import live as _live
from .loops import loop_detect
from .models import Failure, FailurePattern
from .rootcause_notes import root_cause_note, root_causes_of
from .selectors import retry_advice
from .triage import muted_sql

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


def skip_until(*, last_failed_at: datetime, failures: int, skip_after: int,
               retry_after: int | None = None) -> datetime:
    """When a task skipped after ``failures`` failures may be tried again."""
    doublings = min(max(failures - skip_after, 0), _MAX_DOUBLINGS)
    cooldown = min(SKIP_COOLDOWN * 2 ** doublings, SKIP_COOLDOWN_MAX)
    try:
        return last_failed_at + max(cooldown, timedelta(seconds=retry_after or 0))
    except OverflowError:  # a failure stored as of the last day of year 9999: skip it for good
        return datetime.max.replace(tzinfo=dt_timezone.utc)


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
    recent, open_failures = _failures(agent, task_type, since, now)
    tasks = _open_tasks(open_failures)
    types = [task_type] if task_type else _task_types(recent, tasks)
    fleet = fleet_build(agent=agent, task_types=types, since=since, now=now) if scope == "fleet" else None
    return {
        "agent": agent, "task_type": task_type, "scope": scope, "generated_at": now,
        "window_hours": window_hours, "skip_after": skip_after,
        "skip": _skips(tasks, skip_after, now), "resume": _resumes(tasks),
        "hints": hints_build(tasks), "loops": _loops(tasks, skip_after),
        "retry_advice": _advice(tasks), "root_causes": _root_causes(tasks),
        "recent_failures": [_compact(f) for f in recent], "fleet": fleet,
    }


def _ref(pattern: FailurePattern) -> dict:
    return {"id": pattern.pk, "fingerprint": pattern.fingerprint, "template": pattern.template}


class _Row(SimpleNamespace):
    """A failure as boot reads it: plain attributes, no model instance (too slow by the hundred)."""


class _Pattern(SimpleNamespace):
    """A pattern as boot reads it (see _PATTERN_COLUMNS), joined to its failures' rows."""


# What the recent list, and skip, resume, hints, loops and retry advice read; the rest of a row
# stays in the database.
_SHARED_COLUMNS = ("occurred_at", "task", "task_type", "error", "error_type", "retry_safe",
                   "retry_after", "attempt_count", "pattern_id")
_RECENT_COLUMNS = (*_SHARED_COLUMNS, "title", "status")
_OPEN_COLUMNS = (*_SHARED_COLUMNS, "skill_name", "side_effects", "recovery_hint", "checkpoint")
_PATTERN_COLUMNS = ("fingerprint", "template", "event_count", "resolved_count", "unsafe_count",
                    "retry_after", "root_cause_group_id")
# The patterns (and what they were merged into) come joined to the open failures.
_JOINED_PATTERN_COLUMNS = (*(f"pattern__{name}" for name in _PATTERN_COLUMNS),
                           "pattern__merged_into_id",
                           *(f"pattern__merged_into__{name}" for name in _PATTERN_COLUMNS))


def _failures_sql(task_type: bool) -> str:
    """Both reads of _failures as one UNION ALL: true, the open rows and their patterns; then
    false and the recent rows. Columns: id, _SHARED_COLUMNS, the rest of _RECENT_COLUMNS, the
    rest of _OPEN_COLUMNS, the patterns', then the match index's token (NULL where a part does
    not read them)."""
    failures, patterns = Failure._meta.db_table, FailurePattern._meta.db_table
    shared = ", ".join(f"f.{name}" for name in _SHARED_COLUMNS)
    recent = ", ".join(f"f.{name}" for name in _RECENT_COLUMNS[len(_SHARED_COLUMNS):])
    opened = ", ".join(f"f.{name}" for name in _OPEN_COLUMNS[len(_SHARED_COLUMNS):])
    joined = ", ".join([*(f"p.{name}" for name in _PATTERN_COLUMNS), "p.merged_into_id",
                        *(f"m.{name}" for name in _PATTERN_COLUMNS)])
    null = lambda columns: ", ".join(["NULL"] * len(columns))  # noqa: E731
    newest = "ORDER BY f.occurred_at DESC, f.id DESC"
    typed = " AND f.task_type = %(task_type)s" if task_type else ""
    # The status as a literal: the plan kept for the prepared read can then use the open-only
    # indexes, which a parameter would not prove it may.
    is_open = f"f.status = '{Failure.Status.OPEN.value}'"
    open_rows = (f"SELECT f.id, {shared}, {opened} FROM {failures} f WHERE f.agent = %(agent)s"
                 f" AND {is_open}{typed} {newest} LIMIT {OPEN_CAP}")
    return (  # the patterns are joined to the newest OPEN_CAP rows only
        f"(SELECT true, f.id, {shared}, {null(_RECENT_COLUMNS[len(_SHARED_COLUMNS):])},"
        f" {opened}, {joined}, {match_index_version_sql()} FROM ({open_rows}) f"
        f" JOIN {patterns} p ON p.id = f.pattern_id"
        f" LEFT JOIN {patterns} m ON m.id = p.merged_into_id {newest})"
        f" UNION ALL (SELECT false, f.id, {shared}, {recent},"
        f" {null(_OPEN_COLUMNS[len(_SHARED_COLUMNS):] + _JOINED_PATTERN_COLUMNS)}, NULL"
        f" FROM {failures} f WHERE f.agent = %(agent)s AND f.occurred_at >= %(since)s"
        f" AND f.occurred_at <= %(now)s{typed} AND NOT EXISTS (SELECT 1 FROM {patterns} mp"
        f" WHERE mp.id = f.pattern_id AND {muted_sql(alias='mp', now='now')})"
        f" {newest} LIMIT {RECENT_CAP})")


_FAILURES_SQL = {typed: _failures_sql(typed) for typed in (False, True)}


def _failures(agent, task_type, since, now) -> tuple[list[_Row], list[_Row]]:
    """The agent's recent failures (newest RECENT_CAP in the window) and its newest OPEN_CAP open
    failures with their patterns, each newest first: one round trip of plain SQL (compiling,
    planning and sending two ORM queries cost more than running them)."""
    with prepared_cursor() as cursor:
        cursor.execute(_FAILURES_SQL[bool(task_type)], {
            "agent": agent, "task_type": task_type, "since": since, "now": now})
        found = cursor.fetchall()
    shared, recent_end = len(_SHARED_COLUMNS), len(_RECENT_COLUMNS)
    recent = [_Row(pk=pk, **dict(zip(_RECENT_COLUMNS, values)))
              for is_open, pk, *values in found if not is_open]
    open_ = [(pk, *values[:shared], *values[recent_end:])
             for is_open, pk, *values in found if is_open]
    return recent, _open_rows(open_)


def _open_rows(rows) -> list[_Row]:
    """Open failures from (id, *_OPEN_COLUMNS, *_JOINED_PATTERN_COLUMNS, index token) rows,
    each distinct pattern (and what it was merged into) built once: an agent's open failures
    share a few. Each keeps the match index's token read with it (for its hints' message
    check: failures.boot_hints)."""
    patterns: dict[int, _Pattern] = {}
    failures = []
    for pk, *values, token in rows:
        failure = _Row(pk=pk, index_token=token, **dict(zip(_OPEN_COLUMNS, values)))
        # A plain cursor reads jsonb as text. Most rows have no side effects and no checkpoint;
        # decoding costs ~3 us a value.
        failure.side_effects = [] if failure.side_effects == "[]" else \
            json.loads(failure.side_effects)
        if failure.checkpoint is not None:
            failure.checkpoint = json.loads(failure.checkpoint)
        failure.pattern = patterns.get(failure.pattern_id) or _pattern(
            failure.pattern_id, values[len(_OPEN_COLUMNS):], patterns)
        failures.append(failure)
    return failures


def _pattern(pk: int, values: list, patterns: dict) -> _Pattern:
    """The pattern of these joined values (see _JOINED_PATTERN_COLUMNS), kept in ``patterns``."""
    size = len(_PATTERN_COLUMNS)
    own, merged_id, merged = values[:size], values[size], values[size + 1:]
    merged_into = None if merged_id is None else patterns.get(merged_id) or _Pattern(
        pk=merged_id, merged_into=None, **dict(zip(_PATTERN_COLUMNS, merged)))
    patterns[pk] = _Pattern(pk=pk, merged_into=merged_into, **dict(zip(_PATTERN_COLUMNS, own)))
    return patterns[pk]


def _open_tasks(failures: list[_Row]) -> dict[str, list[_Row]]:
    """Open failures grouped by task (the newest OPEN_TASKS_CAP tasks), newest first."""
    tasks: dict[str, list[_Row]] = {}
    for failure in failures:
        if failure.task in tasks or len(tasks) < OPEN_TASKS_CAP:
            tasks.setdefault(failure.task, []).append(failure)
    return tasks


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
            "why": (f'this task failed {count} times with "{pattern.template[:120]}" and no '
                    "success since"),
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
    """Retry advice for each open task, from its newest failure, how often the task failed with
    that pattern since its last success, and that pattern's history."""
    entries = []
    for task, failures in tasks.items():
        pattern = _live(failures[0])
        repeats = sum(_live(f).pk == pattern.pk for f in failures)
        entries.append({"task": task, "failure_id": failures[0].pk, "pattern": _ref(pattern),
                        **retry_advice(pattern=pattern, failure=failures[0],
                                       task_failures=repeats)})
    return entries


def _root_causes(tasks) -> list[dict]:
    """The open root-cause groups of the open tasks' patterns, each with this agent's tasks it
    touches: their failures are symptoms of one cause, not each a fault to retry."""
    touched: dict[int, list[str]] = {}
    for task, failures in tasks.items():
        for group_id in dict.fromkeys(_live(f).root_cause_group_id for f in failures):
            if group_id is not None:
                touched.setdefault(group_id, []).append(task)
    if not touched:  # the common case costs no query
        return []
    groups = root_causes_of(touched)
    return [{**group, "tasks": touched[pk],
             "note": root_cause_note(group["patterns"], agents=group["agents"],
                                     since=group["since"], lead="Probably one cause behind")}
            for pk, group in sorted(groups.items(), key=lambda item: item[0], reverse=True)]


def _task_types(recent, tasks) -> list[str]:
    """This agent's task types, most recently failed first."""
    failures = [*recent, *(f for failures in tasks.values() for f in failures)]
    types = dict.fromkeys(f.task_type for f in failures if f.task_type)
    return list(types)[:FLEET_TYPES_CAP]
