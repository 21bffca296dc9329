"""The SQL of the lesson check: the type ranking's parts, and for a message check the one
statement that reads every candidate's ranking columns, then the winners whole.

Each form runs on PostgreSQL and on SQLite (the embedded default); names go through
``quote_name``, and values come back converted as the ORM converts them.
"""
from typing import NamedTuple

from django.db import connection

from config.sql_prepared import prepared_cursor
from config.sql_rows import converted, row_converters

from .models import Lesson


# One part of the type ranking: the lessons of one status (and skill, or none) in the order of
# lesson_type_rank_idx / lesson_type_skill_rank_idx, so each part is a short index walk.
_TYPE_PART = ("SELECT {outer} FROM (SELECT {columns} FROM {table}"
              " WHERE error_type = %s AND status = %s{skill}"
              " ORDER BY rank_score DESC, occurrences DESC, last_occurred DESC LIMIT %s)"
              " AS part{n}")


def type_parts(error_type: str, *, skill_name, limit: int, approved_only: bool,
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


def ranking_rows(*, error_type, skill_name, limit: int, approved_only: bool, message_pks: list,
                 linked: tuple[str, list], known: tuple[str, list] | None = None,
                 extra: tuple[str, ...] = ()) -> list[Ranked]:
    """The ranking columns of every candidate, in one statement: the message matches by primary
    key, the lessons linked to the pattern ``linked`` names (SQL for its id, and parameters) and
    the type ranking's parts, each under the same filters as lesson_check's candidates. A lesson
    found more than one way comes once per way. With ``known`` (an SQL condition) a row whose
    match is "known" says that the condition held. ``extra`` names more lesson fields to read
    (a caller that shows the winners without reading them again)."""
    quote, through = connection.ops.quote_name, Lesson.patterns.through._meta
    table, links = quote(Lesson._meta.db_table), quote(through.db_table)
    fields = [Lesson._meta.get_field(name) for name in (*_RANKED_FIELDS, *extra)]
    bare = ", ".join(quote(field.column) for field in fields)
    prefixed = ", ".join(f"l.{quote(field.column)}" for field in fields)
    where, filtered = _candidate_where(skill_name=skill_name, approved_only=approved_only)
    parts, params = [], []
    if message_pks:
        wanted, wanted_params = _one_of(f"l.{quote(Lesson._meta.pk.column)}", Lesson._meta.pk,
                                        message_pks)
        parts.append(f"SELECT 'message', {prefixed} FROM {table} l WHERE {wanted}{where}")
        params += [*wanted_params, *filtered]
    lesson, pattern = (quote(through.get_field(name).column)
                       for name in ("lesson", "failurepattern"))
    parts.append(f"SELECT 'pattern', {prefixed} FROM {links} p JOIN {table} l"
                 f" ON l.{quote(Lesson._meta.pk.column)} = p.{lesson}"
                 f" WHERE p.{pattern} = {linked[0]}{where}")
    params += [*linked[1], *filtered]
    if error_type:
        typed, typed_params = type_parts(error_type, skill_name=skill_name, limit=limit,
                                         approved_only=approved_only, columns=bare,
                                         outer=f"'type', {bare}")
        parts += typed
        params += typed_params
    if known is not None:
        parts.append(f"SELECT 'known', {', '.join(['NULL'] * len(fields))} WHERE {known[0]}")
        params += known[1]
    with prepared_cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        rows = cursor.fetchall()
    return _converted(rows, fields)


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


def pattern_lessons(pattern_ids: list) -> list[tuple]:
    """``(pattern id, resolution, status, rank_score, occurrences)`` of every lesson that is not
    rejected, for each of ``pattern_ids`` it is linked to. Read raw: for a few rows the ORM's
    query compiler costs a good share of the read's CPU."""
    if not pattern_ids:
        return []
    quote, through = connection.ops.quote_name, Lesson.patterns.through._meta
    lesson, pattern = (quote(through.get_field(name).column)
                       for name in ("lesson", "failurepattern"))
    wanted, params = _one_of(f"p.{pattern}", through.get_field("failurepattern"), pattern_ids)
    sql = (f"SELECT p.{pattern}, l.resolution, l.status, l.rank_score, l.occurrences"
           f" FROM {quote(through.db_table)} p JOIN {quote(Lesson._meta.db_table)} l"
           f" ON l.{quote(Lesson._meta.pk.column)} = p.{lesson}"
           f" WHERE {wanted} AND l.status <> %s")
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*params, Lesson.Status.REJECTED.value])
        return cursor.fetchall()
