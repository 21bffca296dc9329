"""Reads of lessons: the ranked check and the filtered, paged list."""
from dataclasses import dataclass

from django.db.models import Case, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404

from config.api.filtering import filter_or_400

from failures.selectors import pattern_of_message

from .filters import LessonFilter
from .matching import MIN_WORD_SHARE, match_score
from .models import Lesson


# How strongly a lesson matched, best first: linked to the message's pattern, its error_pattern
# matching the message text, then only the same error type (or no criteria at all).
MATCH_RANK = {"pattern": 3, "message": 2, "type": 1, "any": 0}


@dataclass(frozen=True)
class CheckedLesson:
    lesson: Lesson
    match: str  # "pattern", "message", "type" or "any": why the lesson is in the answer
    score: float  # how much of its error_pattern the message matched (1.0 for a pattern link)

    def __getattr__(self, name):
        # Serializers read the lesson's own fields straight off the entry.
        return getattr(self.lesson, name)


def lesson_check(
    *, error_type: str | None = None, skill_name: str | None = None,
    error_message: str | None = None, limit: int = 5,
) -> list[CheckedLesson]:
    """Known resolutions for an error, best first; rejected lessons never appear.

    A lesson qualifies when it is linked to the message's failure pattern, when its
    error_pattern matches the message (as a template, phrase or slug), or by its error type.
    Ranking: approved before unverified, then the strength of the match, then the skill's own
    lessons before generic ones, then effectiveness, occurrences and recency.
    """
    candidates = Lesson.objects.exclude(status=Lesson.Status.REJECTED)
    if skill_name:
        candidates = candidates.filter(Q(skill_name=skill_name) | Q(skill_name__isnull=True))
    if not error_message:
        return _by_type(candidates, error_type=error_type, skill_name=skill_name, limit=limit)
    return _by_message(candidates, error_type=error_type, error_message=error_message,
                       skill_name=skill_name, limit=limit)


def _by_type(candidates, *, error_type, skill_name, limit) -> list[CheckedLesson]:
    """Without a message the ranking is all columns, so the database sorts and limits."""
    if error_type:
        candidates = candidates.filter(error_type=error_type)
    ranked = candidates.annotate(
        approved=Case(When(status=Lesson.Status.APPROVED, then=1), default=0),
        own_skill=Case(When(skill_name=skill_name, then=1), default=0) if skill_name else Value(0),
    ).order_by("-approved", "-own_skill", "-effectiveness", "-occurrences", "-last_occurred")
    match = "type" if error_type else "any"
    return [CheckedLesson(lesson, match, 0.0) for lesson in ranked[:limit]]


# The narrow columns a message check scores and ranks on; full rows load only for the winners.
_RANK_COLUMNS = ("pk", "error_pattern", "error_type", "status", "skill_name", "effectiveness",
                 "occurrences", "last_occurred")


def _by_message(candidates, *, error_type, error_message, skill_name, limit):
    pattern = pattern_of_message(message=error_message)
    linked = set(candidates.filter(patterns=pattern).values_list("pk", flat=True)) if pattern else set()
    scored = []
    for row in candidates.values_list(*_RANK_COLUMNS):
        reason = _reason(row, linked, error_type, error_message)
        if reason is not None:
            scored.append((_rank(row, reason, skill_name), row[0], reason))
    scored.sort(key=lambda item: item[0], reverse=True)
    top = scored[:limit]
    lessons = Lesson.objects.in_bulk([pk for _, pk, _ in top])
    return [CheckedLesson(lessons[pk], *reason) for _, pk, reason in top]


def _reason(row, linked, error_type, error_message) -> tuple[str, float] | None:
    pk, error_pattern, lesson_type = row[0], row[1], row[2]
    if pk in linked:
        return "pattern", 1.0
    score = match_score(error_pattern, error_message)
    if score >= MIN_WORD_SHARE:
        return "message", score
    if error_type and lesson_type == error_type:
        return "type", score
    return None


def _rank(row, reason: tuple[str, float], skill_name: str | None) -> tuple:
    _, _, _, status, lesson_skill, effectiveness, occurrences, last_occurred = row
    match, score = reason
    return (status == Lesson.Status.APPROVED, MATCH_RANK[match], score,
            bool(skill_name) and lesson_skill == skill_name, effectiveness, occurrences,
            last_occurred)


def lesson_list(*, filters: dict) -> QuerySet[Lesson]:
    """Lessons matching ``filters`` (see LessonFilter), most recently occurred first."""
    lessons = filter_or_400(LessonFilter, filters, Lesson.objects.all())
    return lessons.order_by("-last_occurred", "id")


def lesson_get(*, lesson_id) -> Lesson:
    """One lesson by id; a missing one is a 404."""
    return get_object_or_404(Lesson, pk=lesson_id)
