"""Approved lessons for the boot briefing's hints: linked to a task's patterns, or found by its
newest failure's message (reused per pattern for a short while, see CHECKED_SECONDS)."""

import time

from lessons.match_index import match_index_of
from lessons.models import Lesson
from lessons.ranking import lessons_ranked, rank_key
from lessons.selectors import CheckedLesson, lesson_check

HINTS_PER_TASK = 3  # distinct recovery hints per task, newest first
LESSONS_PER_TASK = 3  # approved lessons per task, best first
LINKED_LESSONS_CAP = 200  # pattern-lesson links read, best ranked first
# A message check costs a few queries, so it runs for
# the newest open task that no approved lesson is linked to, and no other.
LESSON_CHECKS_CAP = 1


def _lesson(entry: CheckedLesson) -> dict:
    lesson = entry.lesson
    return {
        "id": str(lesson.pk),
        "error_pattern": lesson.error_pattern,
        "resolution": lesson.resolution,
        "effectiveness": lesson.effectiveness,
        "match": entry.match,
    }


def hints_build(tasks) -> list[dict]:
    """Per open task: its distinct recovery hints, newest first, approved lessons that match
    its failures and, apart, approved lessons that share only their type."""
    found = approved_lessons(tasks)
    entries = []
    for task, failures in tasks.items():
        hints = list(
            dict.fromkeys(f.recovery_hint.strip() for f in failures if f.recovery_hint.strip())
        )[:HINTS_PER_TASK]
        lessons, related = found[task]
        if hints or lessons or related:
            entries.append(
                {"task": task, "recovery_hints": hints, "lessons": lessons, "related": related}
            )
    return entries


def approved_lessons(tasks) -> dict[str, tuple[list[dict], list[dict]]]:
    """``(lessons, related)`` per task, approved only, each ranked as lessons.ranking ranks
    them: lessons linked to its patterns (one query for all tasks); for the newest task(s) with
    none linked, what ``lesson_check`` finds for its newest failure."""
    patterns_of = {
        task: {pk for f in failures for pk in (f.pattern_id, f.live.pk)}
        for task, failures in tasks.items()
    }
    linked = _linked_lessons(set().union(*patterns_of.values())) if tasks else {}
    checked: dict[tuple, tuple] = {}  # the same type, skill and pattern answer the same lessons
    found = {}
    for task, failures in tasks.items():
        latest = failures[0]
        skill_name = latest.skill_name or None
        mine = {lesson.pk: lesson for pk in patterns_of[task] for lesson in linked.get(pk, [])}
        ranked = sorted(
            (
                CheckedLesson(
                    lesson,
                    "pattern",
                    1.0,
                    own_skill=bool(skill_name) and lesson.skill_name == skill_name,
                )
                for lesson in mine.values()
            ),
            key=rank_key,
        )
        lessons, related = [_lesson(entry) for entry in ranked[:LESSONS_PER_TASK]], []
        key = (latest.error_type, latest.skill_name, latest.live.pk)
        if not lessons and (key in checked or len(checked) < LESSON_CHECKS_CAP):
            if key not in checked:
                checked[key] = _lessons_for(latest)
            lessons, related = checked[key]
        found[task] = (lessons, related)
    return found


# Lessons found by message for one pattern change only when lessons do: each process reuses the
# answer for CHECKED_SECONDS, and drops it at once when the lesson match index changes (any lesson
# added, removed or reclassified), so only scores and counts may lag by that much.
CHECKED_SECONDS = 30
CHECKED_SIZE = 4096  # entries kept per process before starting afresh
_checked: dict = {}


def _lessons_for(failure) -> tuple[list[dict], list[dict]]:
    """Approved ``(lessons, related)`` for a failure by its message (as _lesson entries), reused
    across briefings (see above). The match index is the one of the token read with the
    failure."""
    index = match_index_of(failure.index_token)
    key = (index.version, failure.error_type, failure.skill_name, failure.live.pk)
    hit = _checked.get(key)
    if hit is not None and hit[0] > time.monotonic() and index.version is not None:
        return hit[1]
    answer = lesson_check(
        error_type=failure.error_type,
        skill_name=failure.skill_name or None,
        error_message=failure.error or None,
        limit=LESSONS_PER_TASK,
        approved_only=True,
        pattern=failure.live,
        index=index,
    )
    found = (
        [_lesson(entry) for entry in answer.lessons],
        [_lesson(entry) for entry in answer.related],
    )
    if len(_checked) >= CHECKED_SIZE:
        _checked.clear()
    _checked[key] = (time.monotonic() + CHECKED_SECONDS, found)
    return found


def _linked_lessons(pattern_ids: set[int]) -> dict[int, list[Lesson]]:
    """Approved lessons linked to each of these patterns, the best ranked first."""
    links = lessons_ranked(
        Lesson.patterns.through.objects.filter(
            failurepattern_id__in=pattern_ids,
            lesson__status=Lesson.Status.APPROVED,
        ).select_related("lesson"),
        prefix="lesson__",
    )[:LINKED_LESSONS_CAP]
    linked: dict[int, list[Lesson]] = {}
    for link in links:
        linked.setdefault(link.failurepattern_id, []).append(link.lesson)
    return linked
