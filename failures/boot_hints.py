"""Approved lessons for the boot briefing's hints: linked to a task's patterns, or found by its
newest failure's message (reused per pattern for a short while, see CHECKED_SECONDS)."""
import time
from datetime import datetime
from typing import NamedTuple

from django.db import connection

from lessons.match_index import match_index
from lessons.models import Lesson
from lessons.selectors import MATCH_RANK, MESSAGE_CANDIDATES, lesson_check

from .models import FailurePattern

HINTS_PER_TASK = 3  # distinct recovery hints per task, newest first
LESSONS_PER_TASK = 3  # approved lessons per task, best first
LINKED_LESSONS_CAP = 200  # pattern-lesson links read, most effective first
# A message check costs a query (several on databases other than PostgreSQL), so it runs for
# the newest open task that no approved lesson is linked to, and no other.
LESSON_CHECKS_CAP = 1


def live(failure) -> FailurePattern:
    """The failure's pattern, or what it was merged into (one hop, already joined)."""
    return failure.pattern.merged_into or failure.pattern


def _lesson(lesson, match: str) -> dict:
    return {"id": str(lesson.pk), "error_pattern": lesson.error_pattern,
            "resolution": lesson.resolution, "effectiveness": lesson.effectiveness,
            "match": match}


def hints_build(tasks) -> list[dict]:
    """Per open task: its distinct recovery hints, newest first, and approved lessons."""
    lessons = approved_lessons(tasks)
    entries = []
    for task, failures in tasks.items():
        hints = list(dict.fromkeys(f.recovery_hint.strip() for f in failures
                                   if f.recovery_hint.strip()))[:HINTS_PER_TASK]
        if hints or lessons[task]:
            entries.append({"task": task, "recovery_hints": hints, "lessons": lessons[task]})
    return entries


def approved_lessons(tasks) -> dict[str, list[dict]]:
    """Approved lessons per task: linked to its patterns (one query for all tasks); for the
    newest task(s) with none linked, what ``lesson_check`` finds for its newest failure."""
    patterns_of = {task: {pk for f in failures for pk in (f.pattern_id, live(f).pk)}
                   for task, failures in tasks.items()}
    linked = _linked_lessons(set().union(*patterns_of.values())) if tasks else {}
    checked: dict[tuple, list] = {}  # the same type, skill and pattern answer the same lessons
    found = {}
    for task, failures in tasks.items():
        lessons = {lesson["id"]: {**lesson} for pk in patterns_of[task]
                   for lesson in linked.get(pk, [])}
        latest = failures[0]
        key = (latest.error_type, latest.skill_name, live(latest).pk)
        if not lessons and (key in checked or len(checked) < LESSON_CHECKS_CAP):
            if key not in checked:
                checked[key] = _lessons_for(latest)
            for lesson in checked[key]:
                lessons.setdefault(lesson["id"], {**lesson})
        found[task] = list(lessons.values())[:LESSONS_PER_TASK]
    return found


# Lessons found by message for one pattern change only when lessons do: each process reuses the
# answer for CHECKED_SECONDS, and drops it at once when the lesson match index changes (any lesson
# added, removed or reclassified), so only scores and counts may lag by that much.
CHECKED_SECONDS = 30
CHECKED_SIZE = 4096  # entries kept per process before starting afresh
_checked: dict = {}


def _lessons_for(failure) -> list[dict]:
    """Approved lessons for a failure by its message (as _lesson entries), reused across
    briefings (see above)."""
    index = match_index()
    key = (index.version, failure.error_type, failure.skill_name, live(failure).pk)
    hit = _checked.get(key)
    if hit is not None and hit[0] > time.monotonic() and index.version is not None:
        return hit[1]
    if connection.vendor == "postgresql" and failure.error:
        found = _checked_postgresql(index, failure)
    else:
        found = [_lesson(entry.lesson, entry.match) for entry in lesson_check(
            error_type=failure.error_type, skill_name=failure.skill_name or None,
            error_message=failure.error, limit=LESSONS_PER_TASK, approved_only=True,
            pattern=FailurePattern(pk=live(failure).pk))]  # only its id is used
    if len(_checked) >= CHECKED_SIZE:
        _checked.clear()
    _checked[key] = (time.monotonic() + CHECKED_SECONDS, found)
    return found


class _Candidate(NamedTuple):
    """A lesson as a message check weighs it, and how it was found."""

    match: str  # "pattern", "message" or "type", as in lesson_check
    pk: object
    error_pattern: str
    resolution: str
    effectiveness: float
    skill_name: str | None
    rank_score: float
    occurrences: int
    last_occurred: datetime


def _checked_postgresql(index, failure) -> list[dict]:
    """What ``lesson_check(approved_only=True)`` answers for the failure's message, type, skill
    and live pattern, as _lesson entries: the candidates it would weigh (message matches from
    the index, the pattern's links, the best by type) read in one query and ranked its way."""
    skill = failure.skill_name or None
    scores = {entry.pk: score for entry, score in index.best_matches(
        failure.error, skill_name=skill, limit=LESSONS_PER_TASK, approved_only=True,
        most=MESSAGE_CANDIDATES)}
    strongest = {}  # a lesson found more than one way counts by its strongest match
    for candidate in sorted(map(_Candidate._make, _candidate_rows(failure, skill, list(scores))),
                            key=lambda candidate: MATCH_RANK[candidate.match]):
        strongest[candidate.pk] = candidate

    def rank(c: _Candidate) -> tuple:
        score = scores[c.pk] if c.match == "message" else float(c.match == "pattern")
        return (MATCH_RANK[c.match], score, bool(skill) and c.skill_name == skill,
                c.rank_score, c.occurrences, c.last_occurred)

    best = sorted(strongest.values(), key=rank, reverse=True)[:LESSONS_PER_TASK]
    return [_lesson(candidate, candidate.match) for candidate in best]


def _candidate_rows(failure, skill: str | None, message_pks: list) -> list[tuple]:
    """_Candidate rows of approved lessons (of the skill or none): linked to the failure's live
    pattern, matched by its message, and the best LESSONS_PER_TASK of its error type."""
    lessons, links = Lesson._meta.db_table, Lesson.patterns.through._meta.db_table
    columns = ("l.id, l.error_pattern, l.resolution, l.effectiveness, l.skill_name,"
               " l.rank_score, l.occurrences, l.last_occurred")
    where, approved = "l.status = %s", [Lesson.Status.APPROVED.value]
    if skill:
        where += " AND (l.skill_name = %s OR l.skill_name IS NULL)"
        approved.append(skill)
    sql = (f"SELECT 'pattern', {columns} FROM {lessons} l WHERE {where} AND l.id IN"
           f" (SELECT lesson_id FROM {links} WHERE failurepattern_id = %s)"
           f" UNION ALL SELECT 'message', {columns} FROM {lessons} l"
           f" WHERE {where} AND l.id = ANY(%s::uuid[])")
    params = [*approved, live(failure).pk, *approved, message_pks]
    if failure.error_type:  # lesson_check's order for type matches, in SQL
        own = "CASE WHEN l.skill_name = %s THEN 1 ELSE 0 END DESC, " if skill else ""
        sql += (f" UNION ALL (SELECT 'type', {columns} FROM {lessons} l WHERE {where}"
                f" AND l.error_type = %s ORDER BY {own}l.rank_score DESC, l.occurrences DESC,"
                f" l.last_occurred DESC LIMIT %s)")
        params += [*approved, failure.error_type, *approved[1:], LESSONS_PER_TASK]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _linked_lessons(pattern_ids: set[int]) -> dict[int, list[dict]]:
    """Approved lessons linked to each of these patterns, most effective first (as _lesson
    entries with match "pattern": plain values, no model instances)."""
    if connection.vendor == "postgresql":
        rows = _linked_rows_postgresql(pattern_ids)
    else:
        rows = Lesson.patterns.through.objects.filter(
            failurepattern_id__in=pattern_ids, lesson__status=Lesson.Status.APPROVED,
        ).values_list(
            "failurepattern_id", "lesson_id", "lesson__error_pattern", "lesson__resolution",
            "lesson__effectiveness",
        ).order_by("-lesson__effectiveness", "-lesson__occurrences")[:LINKED_LESSONS_CAP]
    linked: dict[int, list[dict]] = {}
    for pattern_id, pk, error_pattern, resolution, effectiveness in rows:
        linked.setdefault(pattern_id, []).append(
            {"id": str(pk), "error_pattern": error_pattern, "resolution": resolution,
             "effectiveness": effectiveness, "match": "pattern"})
    return linked


def _linked_rows_postgresql(pattern_ids: set[int]) -> list[tuple]:
    """The ORM query above in SQL: the ids as one array parameter instead of a hundred (planning
    and compiling those cost more than running it), and each link's lesson read by primary key
    (the planner otherwise hashes a scan of every approved lesson: ~1 ms instead of ~0.1 ms)."""
    links, lessons = Lesson.patterns.through._meta.db_table, Lesson._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT link.failurepattern_id, lesson.id, lesson.error_pattern, lesson.resolution,"
            f" lesson.effectiveness FROM {links} link CROSS JOIN LATERAL"
            f" (SELECT * FROM {lessons} WHERE {lessons}.id = link.lesson_id OFFSET 0) lesson"
            f" WHERE link.failurepattern_id = ANY(%s) AND lesson.status = %s"
            f" ORDER BY lesson.effectiveness DESC, lesson.occurrences DESC LIMIT %s",
            [sorted(pattern_ids), Lesson.Status.APPROVED.value, LINKED_LESSONS_CAP])
        return cursor.fetchall()
