"""The SQL of the lesson check: the type ranking, and for a message check the one statement
that gathers every candidate and ranks them, so that only the winners are sent back.

Each form runs on PostgreSQL and on SQLite (the embedded default); names go through
``quote_name``, and values come back converted as the ORM converts them.
"""
from typing import NamedTuple

from django.db import connection

from config.sql_prepared import prepared_cursor
from config.sql_rows import converted, row_converters

from .match_index import match_index_version_sql
from .models import Lesson


# One part of the type ranking: the lessons of one status (and skill, or none) in the order of
# lesson_type_rank_idx / lesson_type_skill_rank_idx, so each part is a short index walk.
_TYPE_PART = ("SELECT * FROM (SELECT {columns} FROM {table}"
              " WHERE error_type = %s AND status = %s{skill}"
              " ORDER BY rank_score DESC, occurrences DESC, last_occurred DESC LIMIT %s)"
              " AS part{n}")


def type_parts(error_type: str, *, skill_name, limit: int, approved_only: bool,
               columns: str) -> tuple[list[str], list]:
    """The SQL parts of the type ranking (see _TYPE_PART), one per status and skill, and their
    parameters: each reads ``columns``."""
    statuses = [Lesson.Status.APPROVED] + ([] if approved_only else [Lesson.Status.UNVERIFIED])
    skills = ([(" AND skill_name = %s", [skill_name]), (" AND skill_name IS NULL", [])]
              if skill_name else [("", [])])
    table = connection.ops.quote_name(Lesson._meta.db_table)
    parts, params = [], []
    for status in statuses:
        for clause, values in skills:
            parts.append(_TYPE_PART.format(columns=columns, table=table, skill=clause,
                                           n=len(parts)))
            params += [error_type, status.value, *values, limit]
    return parts, params


def type_best(error_type: str, *, skill_name, limit: int, approved_only: bool,
              columns: str) -> tuple[str, list]:
    """SQL for the best ``limit`` lessons of an error type (``columns`` of them) and its
    parameters, ranked as lesson_check ranks them: approved first, the skill's own before
    generic ones (other skills' never), then ranking score, occurrences and recency, equal
    ranks by primary key. Only the parts' rows (type_parts) are sorted, never every lesson of
    the type."""
    parts, params = type_parts(error_type, skill_name=skill_name, limit=limit,
                               approved_only=approved_only, columns=columns)
    pk = connection.ops.quote_name(Lesson._meta.pk.column)
    sql = (f"SELECT * FROM ({' UNION ALL '.join(parts)}) AS parts"
           f" ORDER BY CASE WHEN status = %s THEN 1 ELSE 0 END DESC,"
           f" CASE WHEN skill_name = %s THEN 1 ELSE 0 END DESC,"
           f" rank_score DESC, occurrences DESC, last_occurred DESC, {pk} LIMIT %s")
    return sql, [*params, Lesson.Status.APPROVED.value, skill_name or None, limit]


class State(NamedTuple):
    """What a ranking statement read besides the candidates."""

    known: bool  # the condition ``known`` held (False when none was given)
    version: str | None  # the match index's token (lessons.match_index)


class Ranked(NamedTuple):
    """A candidate of a message check as far as ranking needs it, and how it was found."""

    match: str  # "pattern", "message" or "type", as in CheckedLesson
    pk: object
    status: str
    skill_name: str | None
    rank_score: float
    occurrences: int
    last_occurred: object
    extra: tuple = ()  # the columns asked for beyond these, in the order asked


# The columns of Ranked after ``match``, as read by ranking_rows.
_RANKED_FIELDS = ("id", "status", "skill_name", "rank_score", "occurrences", "last_occurred")
# How strongly a lesson matched, best first: linked to the message's pattern, its error_pattern
# matching the message text, then only the same error type (or no criteria at all).
MATCH_RANK = {"pattern": 3, "message": 2, "type": 1, "any": 0}
# The same, as SQL on alias ``c`` (a candidate of the ranking statement).
_MATCH_RANK_SQL = ("CASE c.how " + " ".join(f"WHEN '{how}' THEN {rank}" for how, rank in
                                              MATCH_RANK.items()) + " END")


def ranking_rows(*, error_type, skill_name, limit: int, approved_only: bool, scores: dict,
                 linked: tuple[str, list], known: tuple[str, list] | None = None,
                 extra: tuple[str, ...] = ()) -> tuple[list[Ranked], State]:
    """The best ``limit`` candidates of a message check, ranked in one statement: the message
    matches (``scores``: primary key -> match score), the lessons linked to the pattern
    ``linked`` names (SQL for its id, and parameters) and the best ``limit`` of the type
    ranking (type_best), each under lesson_check's candidate filters. A lesson found more
    than one way counts by its strongest (pattern, then message, then type); the candidates
    are ranked as lesson_check ranks them (approved first, then the strength of the match, the
    score, the skill's own before generic ones, ranking score, occurrences, recency, primary
    key), so only the winners are read and sent. They come in no particular order, with the
    State: whether ``known`` (an SQL condition) held, and the match index's token, read by
    the same statement. ``extra`` names more lesson fields to read (a caller that shows the
    winners without reading them again)."""
    quote, through = connection.ops.quote_name, Lesson.patterns.through._meta
    table, links, pk = (quote(Lesson._meta.db_table), quote(through.db_table),
                        quote(Lesson._meta.pk.column))
    fields = [Lesson._meta.get_field(name) for name in (*_RANKED_FIELDS, *extra)]
    columns = [quote(field.column) for field in fields[:len(_RANKED_FIELDS)]]
    prefixed = ", ".join(f"l.{column}" for column in columns)
    where, filtered = _candidate_where(skill_name=skill_name, approved_only=approved_only)
    parts, params = [], []
    if scores:
        matched, matched_params = _scored(scores)
        parts.append(f"SELECT 'message' AS how, m.score AS score, {prefixed} FROM {matched}"
                     f" JOIN {table} l ON l.{pk} = m.id{where}")
        params += [*matched_params, *filtered]
    lesson, pattern = (quote(through.get_field(name).column)
                       for name in ("lesson", "failurepattern"))
    parts.append(f"SELECT 'pattern' AS how, 1.0 AS score, {prefixed} FROM {links} p"
                 f" JOIN {table} l ON l.{pk} = p.{lesson} WHERE p.{pattern} = {linked[0]}{where}")
    params += [*linked[1], *filtered]
    if error_type:
        typed, typed_params = type_best(error_type, skill_name=skill_name, limit=limit,
                                        approved_only=approved_only, columns=", ".join(columns))
        parts.append(f"SELECT 'type' AS how, 0.0 AS score, {', '.join(columns)}"
                     f" FROM ({typed}) AS typed")
        params += typed_params
    answer = ", ".join(f"c.{column}" for column in columns)
    sql = (f"SELECT c.how, {answer} FROM (SELECT c.*, ROW_NUMBER() OVER"
           f" (PARTITION BY c.{pk} ORDER BY {_MATCH_RANK_SQL} DESC) AS strongest"
           f" FROM ({' UNION ALL '.join(parts)}) AS c) AS c WHERE c.strongest = 1"
           f" ORDER BY CASE WHEN c.status = %s THEN 1 ELSE 0 END DESC, {_MATCH_RANK_SQL} DESC,"
           f" c.score DESC, CASE WHEN c.skill_name = %s THEN 1 ELSE 0 END DESC,"
           f" c.rank_score DESC, c.occurrences DESC, c.last_occurred DESC, c.{pk} LIMIT %s")
    params += [Lesson.Status.APPROVED.value, skill_name or None, limit]
    more = "".join(f", l.{quote(field.column)}" for field in fields[len(_RANKED_FIELDS):])
    sql = (f"SELECT best.*{more} FROM ({sql}) AS best JOIN {table} l ON l.{pk} = best.{pk}"
           if more else f"SELECT * FROM ({sql}) AS best")
    # One more row, always there: the state (its status column holds the index's token).
    how = f"CASE WHEN {known[0]} THEN 'known' ELSE 'state' END" if known else "'state'"
    sql += (f" UNION ALL SELECT {how}, NULL, {match_index_version_sql()},"
            f" {', '.join(['NULL'] * (len(fields) - 2))}")
    params += known[1] if known else []
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        rows = _converted(cursor.fetchall(), fields)
    state = next(row for row in rows if row.match in ("known", "state"))
    return ([row for row in rows if row is not state],
            State(known=state.match == "known", version=state.status))


def _scored(scores: dict) -> tuple[str, list]:
    """The message matches as a table ``m(id, score)`` in SQL, and its parameters: on
    PostgreSQL two array parameters, so that one prepared statement serves any number."""
    if connection.vendor == "postgresql":
        return (f"unnest(%s::{Lesson._meta.pk.db_type(connection)}[], %s::float8[])"
                " AS m(id, score)", [list(scores), list(scores.values())])
    rows = ", ".join(["(%s, %s)"] * len(scores))
    params = [value for pk, score in scores.items()
              for value in (Lesson._meta.pk.get_db_prep_value(pk, connection), score)]
    return f"(SELECT column1 AS id, column2 AS score FROM (VALUES {rows})) AS m", params


def _one_of(column: str, field, values: list) -> tuple[str, list]:
    """SQL for "``column`` is one of ``values``" (values of ``field``) and its parameters: on
    PostgreSQL one array parameter (a list of a hundred constants costs more to plan than the
    read itself)."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::{field.db_type(connection)}[])", [list(values)]
    return (f"{column} IN ({', '.join(['%s'] * len(values))})",
            [field.get_db_prep_value(value, connection) for value in values])


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


def _converted(rows: list, fields: list) -> list[Ranked]:
    """Raw rows as Ranked, their values converted as the ORM converts them."""
    converters = row_converters(fields, start=1)
    ranked = len(_RANKED_FIELDS) + 1
    return [Ranked(*row[:ranked], tuple(row[ranked:]))
            for row in (converted(row, converters) for row in rows)]


# Every lesson field ranking_rows does not read already: asked for as ``extra``, a candidate's
# row holds the whole lesson, and the winners need no second read.
WHOLE = tuple(field.name for field in Lesson._meta.concrete_fields
              if field.name not in _RANKED_FIELDS)


def lesson_of(row: Ranked) -> Lesson:
    """The lesson of a row read with ``extra=WHOLE``, as the ORM would have built it."""
    by_name = dict(zip(_RANKED_FIELDS, (row.pk, row.status, row.skill_name, row.rank_score,
                                        row.occurrences, row.last_occurred)))
    by_name.update(zip(WHOLE, row.extra))
    fields = Lesson._meta.concrete_fields
    return Lesson.from_db(connection.alias, [field.attname for field in fields],
                          [by_name[field.name] for field in fields])


# What pattern_lessons reads of each lesson: what ranks it as lesson_check ranks ties, and its fix.
_PATTERN_LESSON_FIELDS = ("resolution", "status", "rank_score", "occurrences", "last_occurred",
                          "id")


def pattern_lessons(pattern_ids: list) -> list[tuple]:
    """``(pattern id, resolution, status, rank_score, occurrences, last_occurred, lesson id)``
    of every lesson that is not rejected, for each of ``pattern_ids`` it is linked to. Read raw:
    for a few rows the ORM's query compiler costs a good share of the read's CPU."""
    if not pattern_ids:
        return []
    quote, through = connection.ops.quote_name, Lesson.patterns.through._meta
    lesson, pattern = (quote(through.get_field(name).column)
                       for name in ("lesson", "failurepattern"))
    wanted, params = _one_of(f"p.{pattern}", through.get_field("failurepattern"), pattern_ids)
    fields = [Lesson._meta.get_field(name) for name in _PATTERN_LESSON_FIELDS]
    sql = (f"SELECT p.{pattern}, {', '.join(f'l.{quote(f.column)}' for f in fields)}"
           f" FROM {quote(through.db_table)} p JOIN {quote(Lesson._meta.db_table)} l"
           f" ON l.{quote(Lesson._meta.pk.column)} = p.{lesson}"
           f" WHERE {wanted} AND l.status <> %s")
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*params, Lesson.Status.REJECTED.value])
        rows = cursor.fetchall()
    converters = row_converters(fields, start=1)  # SQLite's datetimes and UUIDs come as text
    return [converted(row, converters) for row in rows]
