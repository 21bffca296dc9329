"""Reads of lessons: the ranked check and the filtered, paged list."""
from dataclasses import dataclass

from django.db import connection
from django.db.models import Case, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404

from config.api.filtering import filter_or_400

from failures.patterns import fingerprint_of, template_of
from failures.selectors import live_pattern_of_template_sql, template_known_sql
from failures.services import pattern_covering

from .check_sql import (MATCH_RANK, WHOLE, Ranked, lesson_of, pattern_lessons, ranking_rows,
                        type_best)
from .filters import LessonFilter
from .match_index import match_index_held, match_index_of
from .models import Lesson


# Most message matches loaded for the final ranking (see MatchIndex.best_matches). A generic
# message can match hundreds of short slugs; loading every one would cost a row decode each.
MESSAGE_CANDIDATES = 100


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
    error_message: str | None = None, limit: int = 5, approved_only: bool = False,
    pattern=None,
) -> list[CheckedLesson]:
    """Known resolutions for an error, best first; rejected lessons never appear.

    A lesson qualifies when it is linked to the message's failure pattern, when its
    error_pattern matches the message (as a template, phrase or slug), or by its error type.
    Ranking: approved before unverified, then the strength of the match, then the skill's own
    lessons before generic ones, then the ranking score (measured effectiveness weighed by its
    evidence, see lessons.scoring), occurrences and recency.
    ``approved_only`` leaves unverified lessons out (for prompts that must not carry them);
    ``pattern``, when the caller already knows the message's FailurePattern, saves looking it up.
    """
    if error_message:
        return _by_message(error_type=error_type, error_message=error_message,
                           skill_name=skill_name, limit=limit, approved_only=approved_only,
                           pattern=pattern)
    candidates = Lesson.objects.exclude(status=Lesson.Status.REJECTED)
    if approved_only:
        candidates = candidates.filter(status=Lesson.Status.APPROVED)
    if skill_name:
        candidates = candidates.filter(Q(skill_name=skill_name) | Q(skill_name__isnull=True))
    return _by_type(candidates, error_type=error_type, skill_name=skill_name, limit=limit,
                    approved_only=approved_only)


def _by_type(candidates, *, error_type, skill_name, limit, approved_only) -> list[CheckedLesson]:
    """Without a message the ranking is all columns, so the database sorts and limits."""
    if not error_type:
        ranked = candidates.annotate(
            approved=Case(When(status=Lesson.Status.APPROVED, then=1), default=0),
            own_skill=Case(When(skill_name=skill_name, then=1), default=0) if skill_name
            else Value(0),
        ).order_by("-approved", "-own_skill", "-rank_score", "-occurrences", "-last_occurred")
        return [CheckedLesson(lesson, "any", 0.0) for lesson in ranked[:limit]]
    return [CheckedLesson(lesson, "type", 0.0) for lesson in _type_ranked(
        error_type, skill_name=skill_name, limit=limit, approved_only=approved_only)]


def _type_ranked(error_type: str, *, skill_name, limit: int, approved_only: bool) -> list:
    """The best ``limit`` lessons of an error type, ranked as lesson_check ranks them (see
    check_sql.type_best)."""
    columns = ", ".join(connection.ops.quote_name(field.column)
                        for field in Lesson._meta.concrete_fields)
    sql, params = type_best(error_type, skill_name=skill_name, limit=limit,
                            approved_only=approved_only, columns=columns)
    return list(Lesson.objects.raw(sql, params))


def _by_message(*, error_type, error_message, skill_name, limit, approved_only, pattern):
    """The best ``limit`` candidates (see message_ranked). The ranking statement reads every
    candidate whole (a few dozen rows): cheaper than a second round trip for the winners."""
    best = message_ranked(error_type=error_type, error_message=error_message,
                          skill_name=skill_name, limit=limit, approved_only=approved_only,
                          pattern=pattern, extra=WHOLE)
    return [CheckedLesson(lesson_of(row), row.match, score) for row, score in best]


def message_ranked(*, error_type, error_message, skill_name, limit, approved_only, pattern,
                   extra: tuple[str, ...] = ()) -> list[tuple[Ranked, float]]:
    """The best ``limit`` candidates of a message check as ``(row, score)``, best first:
    from the pattern link, the match index and the type, ranked on their ranking columns in
    one statement (check_sql.ranking_rows; no model instances, ``extra`` names more fields to
    read with them). The statement also reads the match index's token: when this process's
    index was not current, it is rebuilt and the statement runs again. Without ``pattern`` the
    statement joins on the message's stored template itself; only a message of a template not
    stored yet looks further (a pattern covering it, rare). Lessons that rank equal on every
    key come in primary key order."""
    filters = dict(skill_name=skill_name, limit=limit, approved_only=approved_only, extra=extra)
    template = template_of(error_message) if pattern is None else None
    linked = (live_pattern_of_template_sql(fingerprint_of(template)) if pattern is None
              else ("%s", [pattern.pk]))
    known = template_known_sql(fingerprint_of(template)) if pattern is None else None
    index = match_index_held()
    for again in (True, False):
        scores = {entry.pk: score for entry, score in index.best_matches(
            error_message, skill_name=skill_name, limit=limit, approved_only=approved_only,
            most=MESSAGE_CANDIDATES)}
        rows, state = ranking_rows(error_type=error_type, scores=scores, linked=linked,
                                   known=known, **filters)
        # Current, or (the second time) built from a token read a moment ago: lessons written
        # since are for the next check, so that constant writes cannot hold a check here.
        if not again or (state.version is not None and state.version == index.version):
            break
        index = match_index_of(state.version)
    best = {row.pk: (row, scores[row.pk] if row.match == "message" else _MATCH_SCORE[row.match])
            for row in rows}
    if pattern is None and not state.known:
        covering = pattern_covering(template)
        if covering is not None:
            # The best of these and of the first statement's are the best of both: a lesson
            # in both only ranks higher by its link.
            best.update((row.pk, (row, 1.0)) for row in ranking_rows(
                error_type=None, scores={}, linked=("%s", [covering.pk]), **filters)[0])
    ranked = sorted(best.values(), key=lambda found: found[0].pk)  # equal ranks: by key
    ranked.sort(key=lambda found: _rank(*found, skill_name), reverse=True)
    return ranked[:limit]


# The score of a candidate found by its pattern or its type (a message match has its own).
_MATCH_SCORE = {"pattern": 1.0, "type": 0.0}


def _rank(row: Ranked, score: float, skill_name: str | None) -> tuple:
    return (row.status == Lesson.Status.APPROVED, MATCH_RANK[row.match], score,
            bool(skill_name) and row.skill_name == skill_name, row.rank_score,
            row.occurrences, row.last_occurred)


def lesson_list(*, filters: dict) -> QuerySet[Lesson]:
    """Lessons matching ``filters`` (see LessonFilter), most recently occurred first."""
    lessons = filter_or_400(LessonFilter, filters, Lesson.objects.all())
    return lessons.order_by("-last_occurred", "id")


def lesson_get(*, lesson_id) -> Lesson:
    """One lesson by id; a missing one is a 404."""
    return get_object_or_404(Lesson, pk=lesson_id)


def lessons_best_by_pattern(pattern_ids) -> dict[int, tuple[str, bool]]:
    """For each pattern, the resolution of its best linked lesson and whether it is approved:
    approved first, then the ranking score, occurrences and recency, equal ranks by primary key
    (as lesson_check ranks them, so the same rows always give the same answer); rejected
    lessons never."""
    best: dict[int, tuple] = {}
    for pattern_id, resolution, status, rank_score, occurrences, last_occurred, pk in \
            pattern_lessons(sorted(set(pattern_ids))):
        approved = status == Lesson.Status.APPROVED
        rank = (approved, rank_score, occurrences, last_occurred)
        held = best.get(pattern_id)
        if held is None or rank > held[0] or (rank == held[0] and pk < held[1]):
            best[pattern_id] = (rank, pk, (resolution, approved))
    return {pattern_id: fix for pattern_id, (_, _, fix) in best.items()}


def lesson_ids_missing(ids) -> set:
    """Which of these lesson ids name no lesson (for requests that refer to lessons)."""
    wanted = {pk for pk in ids if pk is not None}
    if not wanted:
        return set()
    return wanted - set(Lesson.objects.filter(pk__in=wanted).values_list("pk", flat=True))
