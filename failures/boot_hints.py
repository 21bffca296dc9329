"""Approved lessons for the boot briefing's hints: linked to a task's patterns, or found by its
newest failure's message (reused per pattern for a short while, see CHECKED_SECONDS)."""
import time

from django.db import connection

from config.sql_prepared import prepared_cursor
from lessons.match_index import match_index_of
from lessons.models import Lesson
from lessons.selectors import lesson_check, message_ranked

from .models import FailurePattern

HINTS_PER_TASK = 3  # distinct recovery hints per task, newest first
LESSONS_PER_TASK = 3  # approved lessons per task, best first
LINKED_LESSONS_CAP = 200  # pattern-lesson links read, most effective first
# A message check costs a query, so it runs for
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
    briefings (see above). The match index is the one of the token read with the failure."""
    index = match_index_of(failure.index_token)
    key = (index.version, failure.error_type, failure.skill_name, live(failure).pk)
    hit = _checked.get(key)
    if hit is not None and hit[0] > time.monotonic() and index.version is not None:
        return hit[1]
    if failure.error:
        # lesson_check's ranking, reading the fields shown here with the candidates: one query.
        found = [{"id": str(row.pk), "error_pattern": row.extra[0], "resolution": row.extra[1],
                  "effectiveness": row.extra[2], "match": row.match}
                 for row, _score in message_ranked(
                     error_type=failure.error_type, skill_name=failure.skill_name or None,
                     error_message=failure.error, limit=LESSONS_PER_TASK, approved_only=True,
                     pattern=FailurePattern(pk=live(failure).pk),  # only its id is used
                     extra=("error_pattern", "resolution", "effectiveness"))]
    else:
        found = [_lesson(entry.lesson, entry.match) for entry in lesson_check(
            error_type=failure.error_type, skill_name=failure.skill_name or None,
            limit=LESSONS_PER_TASK, approved_only=True)]
    if len(_checked) >= CHECKED_SIZE:
        _checked.clear()
    _checked[key] = (time.monotonic() + CHECKED_SECONDS, found)
    return found


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
    with prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT link.failurepattern_id, lesson.id, lesson.error_pattern, lesson.resolution,"
            f" lesson.effectiveness FROM {links} link CROSS JOIN LATERAL"
            f" (SELECT * FROM {lessons} WHERE {lessons}.id = link.lesson_id OFFSET 0) lesson"
            f" WHERE link.failurepattern_id = ANY(%s) AND lesson.status = %s"
            f" ORDER BY lesson.effectiveness DESC, lesson.occurrences DESC LIMIT %s",
            [sorted(pattern_ids), Lesson.Status.APPROVED.value, LINKED_LESSONS_CAP])
        return cursor.fetchall()
