"""Reads of lessons: the ranked check and the filtered, paged list."""
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from config.api.errors import InvalidInput

from .filters import LessonFilter
from .matching import MIN_WORD_SHARE, match_score
from .models import Lesson


@dataclass(frozen=True)
class CheckedLesson:
    lesson: Lesson
    match: str  # "message", "type" or "any": why the lesson is in the answer
    score: float  # how much of its pattern the message matched (0 when no message was given)

    def __getattr__(self, name):
        # Serializers read the lesson's own fields straight off the entry.
        return getattr(self.lesson, name)


def lesson_check(
    *, error_type: str | None = None, skill_name: str | None = None,
    error_message: str | None = None, limit: int = 5,
) -> list[CheckedLesson]:
    """Known resolutions for an error, best first; rejected lessons never appear.

    A lesson qualifies by its error type, or by its pattern matching the message. Ranking:
    approved before unverified, then how well the message matched, then the skill's own lessons
    before generic ones, then effectiveness, occurrences and recency.
    """
    candidates = Lesson.objects.exclude(status=Lesson.Status.REJECTED)
    if skill_name:
        candidates = candidates.filter(Q(skill_name=skill_name) | Q(skill_name__isnull=True))
    if error_type and not error_message:
        candidates = candidates.filter(error_type=error_type)
    checked = []
    for lesson in candidates:
        entry = _qualify(lesson, error_type=error_type, error_message=error_message)
        if entry is not None:
            checked.append(entry)
    checked.sort(key=lambda c: _rank(c, skill_name), reverse=True)
    return checked[:limit]


def _qualify(lesson: Lesson, *, error_type, error_message) -> CheckedLesson | None:
    if not error_message:
        return CheckedLesson(lesson, "type" if error_type else "any", 0.0)
    score = match_score(lesson.error_pattern, error_message)
    if score >= MIN_WORD_SHARE:
        return CheckedLesson(lesson, "message", score)
    if error_type and lesson.error_type == error_type:
        return CheckedLesson(lesson, "type", score)
    return None


def _rank(entry: CheckedLesson, skill_name: str | None) -> tuple:
    lesson = entry.lesson
    return (
        lesson.status == Lesson.Status.APPROVED,
        entry.match == "message",
        entry.score,
        bool(skill_name) and lesson.skill_name == skill_name,
        lesson.effectiveness,
        lesson.occurrences,
        lesson.last_occurred,
    )


def lesson_list(*, filters: dict) -> QuerySet[Lesson]:
    """Lessons matching ``filters`` (see LessonFilter), most recently occurred first."""
    filterset = LessonFilter(filters, queryset=Lesson.objects.all())
    if not filterset.is_valid():
        fields = {name: [str(m) for m in messages] for name, messages in filterset.errors.items()}
        first = next(iter(fields))
        raise InvalidInput(f"Invalid input in {', '.join(fields)}: {first}: {fields[first][0]}",
                           fields)
    return filterset.qs.order_by("-last_occurred", "id")


def lesson_get(*, lesson_id) -> Lesson:
    """One lesson by id; a missing one is a 404."""
    return get_object_or_404(Lesson, pk=lesson_id)
