"""Reads of lessons: the ranked check and the filtered, paged list."""
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection
from django.db.models import Case, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404

from config.api.filtering import filter_or_400

from failures.patterns import fingerprint_of, template_of
from failures.selectors import live_pattern_of_template_sql, template_known_sql
from failures.services import pattern_covering

from .filters import LessonFilter
from .match_index import match_index
from .models import Lesson


# How strongly a lesson matched, best first: linked to the message's pattern, its error_pattern
# matching the message text, then only the same error type (or no criteria at all).
MATCH_RANK = {"pattern": 3, "message": 2, "type": 1, "any": 0}
# Most message matches loaded for the final ranking (see _best_matches). A generic message can
# match hundreds of short slugs; loading every one would cost a row decode each.
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


# One part of the type ranking: the lessons of one status (and skill, or none) in the order of
# lesson_type_rank_idx / lesson_type_skill_rank_idx, so each part is a short index walk.
_TYPE_PART = ("SELECT {outer} FROM (SELECT {columns} FROM {table}"
              " WHERE error_type = %s AND status = %s{skill}"
              " ORDER BY rank_score DESC, occurrences DESC, last_occurred DESC LIMIT %s)"
              " AS part{n}")


def _type_parts(error_type: str, *, skill_name, limit: int, approved_only: bool,
                columns: str, outer: str = "*") -> tuple[list[str], list]:
    """The SQL parts of the type ranking (see _TYPE_PART), one per status and skill, and their
    parameters: each reads ``columns`` and answers ``outer`` of them."""
    statuses = [Lesson.Status.APPROVED] + ([] if approved_only else [Lesson.Status.UNVERIFIED])
    skills = ([(" AND skill_name = %s", [skill_name]), (" AND skill_name IS NULL", [])]
              if skill_name else [("", [])])
    table = connection.ops.quote_name(Lesson._meta.db_table)
    parts, params = [], []
    for status in statuses:
        for clause, values in skills:
            parts.append(_TYPE_PART.format(outer=outer, columns=columns, table=table,
                                           skill=clause, n=len(parts)))
            params += [error_type, status.value, *values, limit]
    return parts, params


def _type_order(skill_name):
    """The key _type_ranked merges its parts by (best last): approved first, the skill's own
    before generic ones, then ranking score, occurrences and recency."""
    return lambda lesson: (
        lesson.status == Lesson.Status.APPROVED,
        bool(skill_name) and lesson.skill_name == skill_name,
        lesson.rank_score, lesson.occurrences, lesson.last_occurred)


def _type_ranked(error_type: str, *, skill_name, limit: int, approved_only: bool) -> list:
    """The best ``limit`` lessons of an error type, ranked as lesson_check ranks them:
    approved first, the skill's own before generic ones (other skills' never), then ranking
    score, occurrences and recency. Each (status, skill) part is read up to ``limit`` rows in
    index order and the parts are merged here, instead of sorting every lesson of the type."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in Lesson._meta.concrete_fields)
    parts, params = _type_parts(error_type, skill_name=skill_name, limit=limit,
                                approved_only=approved_only, columns=columns)
    lessons = list(Lesson.objects.raw(" UNION ALL ".join(parts), params))
    lessons.sort(key=_type_order(skill_name), reverse=True)
    return lessons[:limit]


class _Ranked(NamedTuple):
    """A candidate of a message check as far as ranking needs it, and how it was found."""

    match: str  # "pattern", "message" or "type", as in CheckedLesson
    pk: object
    status: str
    skill_name: str | None
    rank_score: float
    occurrences: int
    last_occurred: object


# The columns of _Ranked after ``match``, as read by _ranking_rows.
_RANKED_FIELDS = ("id", "status", "skill_name", "rank_score", "occurrences", "last_occurred")


def _by_message(*, error_type, error_message, skill_name, limit, approved_only, pattern):
    """Candidates from the pattern link, the match index and the type, ranked on their ranking
    columns (read in one statement, no model instances); only the winners are then read whole.
    Without ``pattern`` the statement joins on the message's stored template itself; only a
    message of a template not stored yet looks further (a pattern covering it, rare).
    Lessons that rank equal on every key come in primary key order."""
    scores = {entry.pk: score for entry, score in _best_matches(
        error_message, skill_name=skill_name, limit=limit, approved_only=approved_only)}
    filters = dict(skill_name=skill_name, approved_only=approved_only)
    template = template_of(error_message) if pattern is None else None
    linked = (live_pattern_of_template_sql(fingerprint_of(template)) if pattern is None
              else ("%s", [pattern.pk]))
    rows = _ranking_rows(error_type=error_type, limit=limit, message_pks=list(scores),
                         linked=linked, known=template_known_sql(fingerprint_of(template))
                         if pattern is None else None, **filters)
    if pattern is None and not any(row.match == "known" for row in rows):
        covering = pattern_covering(template)
        if covering is not None:
            rows += _ranking_rows(error_type=None, limit=limit, message_pks=[],
                                  linked=("%s", [covering.pk]), **filters)
    best = _strongest([row for row in rows if row.match != "known"], scores,
                      skill_name=skill_name, limit=limit)
    best.sort(key=lambda found: found[0].pk)  # equal ranks keep one order: by primary key
    best.sort(key=lambda found: _rank(*found, skill_name), reverse=True)
    best = best[:limit]
    lessons = _whole([row.pk for row, _score in best], **filters)
    return [CheckedLesson(lessons[row.pk], row.match, score)
            for row, score in best if row.pk in lessons]


def _strongest(rows: list, scores: dict, *, skill_name, limit: int) -> list:
    """``(row, score)`` per candidate lesson by its strongest reason (type < message <
    pattern). Type rows count only when among the best ``limit`` of the type, as _type_ranked
    picks them (rows of one part stay in index order)."""
    by_match = {"type": [], "message": [], "pattern": []}
    for row in rows:
        by_match[row.match].append(row)
    by_match["type"].sort(key=_type_order(skill_name), reverse=True)
    strongest = {}
    for row in by_match["type"][:limit]:
        strongest[row.pk] = (row, 0.0)
    for row in by_match["message"]:
        strongest[row.pk] = (row, scores[row.pk])
    for row in by_match["pattern"]:
        strongest[row.pk] = (row, 1.0)
    return list(strongest.values())


def _ranking_rows(*, error_type, skill_name, limit: int, approved_only: bool, message_pks: list,
                  linked: tuple[str, list], known: tuple[str, list] | None = None,
                  ) -> list[_Ranked]:
    """The ranking columns of every candidate, in one statement: the message matches by primary
    key, the lessons linked to the pattern ``linked`` names (SQL for its id, and parameters) and
    the type ranking's parts, each under the same filters as lesson_check's candidates. A lesson
    found more than one way comes once per way. With ``known`` (an SQL condition) a row whose
    match is "known" says that the condition held."""
    quote, through = connection.ops.quote_name, Lesson.patterns.through._meta
    table, links = quote(Lesson._meta.db_table), quote(through.db_table)
    fields = [Lesson._meta.get_field(name) for name in _RANKED_FIELDS]
    bare = ", ".join(quote(field.column) for field in fields)
    prefixed = ", ".join(f"l.{quote(field.column)}" for field in fields)
    where, filtered = _candidate_where(skill_name=skill_name, approved_only=approved_only)
    parts, params = [], []
    if message_pks:
        parts.append(f"SELECT 'message', {prefixed} FROM {table} l WHERE {_pk_in(message_pks)}"
                     f"{where}")
        params += _pk_params(message_pks)
        params += filtered
    lesson, pattern = (quote(through.get_field(name).column)
                       for name in ("lesson", "failurepattern"))
    parts.append(f"SELECT 'pattern', {prefixed} FROM {links} p JOIN {table} l"
                 f" ON l.{quote(Lesson._meta.pk.column)} = p.{lesson}"
                 f" WHERE p.{pattern} = {linked[0]}{where}")
    params += [*linked[1], *filtered]
    if error_type:
        typed, typed_params = _type_parts(error_type, skill_name=skill_name, limit=limit,
                                          approved_only=approved_only, columns=bare,
                                          outer=f"'type', {bare}")
        parts += typed
        params += typed_params
    if known is not None:
        parts.append(f"SELECT 'known', {', '.join(['NULL'] * len(fields))} WHERE {known[0]}")
        params += known[1]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    return _converted(rows, fields)


def _pk_in(pks: list) -> str:
    """SQL for "the lesson's id is one of ``pks``" on alias ``l``: on PostgreSQL one array
    parameter (a list of a hundred constants costs more to plan than the read itself)."""
    column = f"l.{connection.ops.quote_name(Lesson._meta.pk.column)}"
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::uuid[])"
    return f"{column} IN ({', '.join(['%s'] * len(pks))})"


def _pk_params(pks: list) -> list:
    if connection.vendor == "postgresql":
        return [list(pks)]
    return [Lesson._meta.pk.get_db_prep_value(value, connection) for value in pks]


def _candidate_where(*, skill_name, approved_only: bool) -> tuple[str, list]:
    """lesson_check's candidate filters as SQL on alias ``l`` (rejected never; approved only,
    and the skill's own or generic lessons, when asked), to follow another condition."""
    if approved_only:
        where, params = " AND l.status = %s", [Lesson.Status.APPROVED.value]
    else:
        where, params = " AND l.status <> %s", [Lesson.Status.REJECTED.value]
    if skill_name:
        where += " AND (l.skill_name = %s OR l.skill_name IS NULL)"
        params.append(skill_name)
    return where, params


def _converted(rows: list, fields: list) -> list[_Ranked]:
    """Raw rows as _Ranked, their values turned into Python as the ORM turns them (SQLite hands
    back UUIDs as hex text and datetimes as text; PostgreSQL needs nothing)."""
    converters = []
    for i, field in enumerate(fields, start=1):
        column = field.get_col(Lesson._meta.db_table)
        for convert in (connection.ops.get_db_converters(column)
                        + field.get_db_converters(connection)):
            converters.append((i, convert, column))
    if not converters:
        return [_Ranked._make(row) for row in rows]
    converted = []
    for row in rows:
        row = list(row)
        for i, convert, column in converters:
            row[i] = convert(row[i], column, connection)
        converted.append(_Ranked._make(row))
    return converted


def _whole(pks: list, *, skill_name, approved_only: bool) -> dict:
    """The winners as lessons by primary key, still under the candidate filters (one changed
    since the ranking read is left out). Read raw: for a few rows by key the ORM's query
    compiler costs a good share of the read's CPU."""
    if not pks:
        return {}
    quote = connection.ops.quote_name
    columns = ", ".join(f"l.{quote(field.column)}" for field in Lesson._meta.concrete_fields)
    where, filtered = _candidate_where(skill_name=skill_name, approved_only=approved_only)
    sql = (f"SELECT {columns} FROM {quote(Lesson._meta.db_table)} l WHERE {_pk_in(pks)}"
           f"{where}")
    params = _pk_params(pks) + filtered
    return {lesson.pk: lesson for lesson in Lesson.objects.raw(sql, params)}


def _best_matches(error_message: str, *, skill_name, limit: int, approved_only: bool) -> list:
    """The message matches that can reach the answer: those ranking (approved, score) at least
    as high as the ``limit``-th, ties included (later keys decide among them), at most
    MESSAGE_CANDIDATES."""
    return match_index().best_matches(error_message, skill_name=skill_name, limit=limit,
                                      approved_only=approved_only, most=MESSAGE_CANDIDATES)


def _rank(row: _Ranked, score: float, skill_name: str | None) -> tuple:
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
    approved first, then the ranking score, then occurrences; rejected lessons never."""
    best: dict[int, tuple] = {}
    if not pattern_ids:
        return {}
    linked = Lesson.objects.filter(patterns__in=set(pattern_ids)).exclude(
        status=Lesson.Status.REJECTED).values_list(
        "patterns", "resolution", "status", "rank_score", "occurrences")
    for pattern_id, resolution, status, rank_score, occurrences in linked:
        approved = status == Lesson.Status.APPROVED
        rank = (approved, rank_score, occurrences)
        if pattern_id not in best or rank > best[pattern_id][0]:
            best[pattern_id] = (rank, (resolution, approved))
    return {pk: fix for pk, (_, fix) in best.items()}


def lesson_ids_missing(ids) -> set:
    """Which of these lesson ids name no lesson (for requests that refer to lessons)."""
    wanted = {pk for pk in ids if pk is not None}
    if not wanted:
        return set()
    return wanted - set(Lesson.objects.filter(pk__in=wanted).values_list("pk", flat=True))
