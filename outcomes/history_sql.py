"""The history's reads as SQL, two statements in all: first the agent's recent outcomes, the
task's earlier attempts and the message's pattern; then the candidates of every related-task key.

Each part is an index range with a LIMIT (the plan test, tests/outcomes/test_plan.py, holds
PostgreSQL to that), wrapped as a subquery so that one statement can carry them all. Parts come back in no promised order: callers order the rows themselves. Rows are dicts
keyed as ``COLUMNS``, their values converted as the ORM converts them.
"""
from datetime import datetime
from functools import cache
from typing import NamedTuple

from django.db import connection

from config.sql_rows import converted, row_converters
from failures.selectors import live_pattern_of_template_sql

from .models import Outcome, OutcomeFile

# What a history row holds: the keys of the row dicts, and the Outcome fields they come from.
COLUMNS = ("pk", "task_id", "agent", "task_type", "outcome", "context", "result",
           "duration_ms", "occurred_at", "error_type", "pattern_id")
_FIELDS = [Outcome._meta.get_field(name) for name in ("id", *COLUMNS[1:-1], "pattern")]


class Recent(NamedTuple):
    """The agent's latest outcomes of one kind (success or failure) since a time."""

    outcome: str
    since: datetime
    limit: int


class FirstRead(NamedTuple):
    recent: dict  # outcome -> rows, newest first
    own_task: list  # the task's earlier attempts, newest first
    message_pattern: int | None  # the live pattern of the message's stored template
    template_known: bool


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _columns(prefix: str = "") -> str:
    """The history columns as a select list."""
    return ", ".join(prefix + _quote(field.column) for field in _FIELDS)


def _part(tag: str, n: int, where: str) -> str:
    """A tagged bounded read: ``tag`` then the history columns of the outcomes ``where``
    selects, newest first, at most ``%s`` of them (the last parameter)."""
    return (f"SELECT '{tag}', {_columns()} FROM (SELECT {_columns()}"
            f" FROM {_quote(Outcome._meta.db_table)} WHERE {where}"
            f" ORDER BY occurred_at DESC LIMIT %s) AS part{n}")


def first_read(*, agent: str, task_type: str, recent: list[Recent], task_id: str = "",
               task_since: datetime | None = None, task_limit: int = 0,
               fingerprint: str = "") -> FirstRead:
    """One statement: for each of ``recent`` the agent's latest outcomes of that kind (of
    ``task_type`` when given), the latest ``task_limit`` attempts at ``task_id`` since
    ``task_since`` (when given), and the live pattern of the template ``fingerprint`` names
    (when given)."""
    parts, params = [], []
    typed = " AND task_type = %s" if task_type else ""
    for read in recent:
        parts.append(_part("r", len(parts), f"agent = %s AND outcome = %s{typed}"
                                            " AND occurred_at >= %s"))
        params += [agent, read.outcome, *([task_type] if task_type else []), read.since,
                   read.limit]
    if task_id:
        parts.append(_part("t", len(parts), "task_id = %s AND occurred_at >= %s"))
        params += [task_id, task_since, task_limit]
    if fingerprint:
        pattern_sql, pattern_params = live_pattern_of_template_sql(fingerprint)
        nulls = ", ".join(["NULL"] * (len(_FIELDS) - 1))
        parts.append(f"SELECT 'm', {nulls}, {pattern_sql}")
        params += pattern_params
    found = FirstRead({read.outcome: [] for read in recent}, [], None, False)
    for tag, row in _rows(" UNION ALL ".join(parts), params):
        if tag == "m":
            found = found._replace(message_pattern=row["pattern_id"],
                                   template_known=row["pattern_id"] is not None)
        elif tag == "t":
            found.own_task.append(row)
        else:
            found.recent[row["outcome"]].append(row)
    for rows in (*found.recent.values(), found.own_task):
        rows.sort(key=lambda row: row["occurred_at"], reverse=True)
    return found


def candidates(keys: list[tuple[str, object]], *, since: datetime, limit: int) -> list[dict]:
    """The outcomes found by any of ``keys`` (``("path" | "pattern_id" | "error_type", value)``):
    for each key its latest ``limit`` since ``since``, one small index range per key so that a
    popular key cannot make the read scan its whole history; each outcome once however many keys
    it shares. The keys' ids are a subquery of the read: one round trip, and no list of hundreds
    of ids to send, parse and plan."""
    if not keys:
        return []
    parts, params = [], []
    for column, value in keys:
        table, id_column = ((OutcomeFile._meta.db_table, "outcome_id") if column == "path"
                            else (Outcome._meta.db_table, "id"))
        where, order, values = f"{column} = %s", "occurred_at DESC", [value]
        if column == "error_type":
            # The error type as a range of one value, ordered by it: an order only
            # outcome_error_recent_idx gives. With "=" the planner may walk the newest outcomes
            # of all types (outcome_occurred_idx) and drop the others, thousands of rows when
            # the type is less common lately than overall.
            where, order, values = ("error_type >= %s AND error_type <= %s",
                                    "error_type, occurred_at DESC", [value, value])
        parts.append(f"SELECT {id_column} AS id FROM (SELECT {id_column} FROM {table}"
                     f" WHERE {where} AND occurred_at >= %s ORDER BY {order}"
                     f" LIMIT %s) AS key{len(parts)}")
        params += [*values, since, limit]
    sql = (f"SELECT 'c', {_columns('o.')} FROM {_quote(Outcome._meta.db_table)} o"
           f" WHERE o.{_quote('id')} IN ({' UNION '.join(parts)})")
    return [row for _tag, row in _rows(sql, params)]


def _rows(sql: str, params: list) -> list[tuple[str, dict]]:
    """``(tag, row dict)`` for every row of ``sql``, whose first column is the tag."""
    converters = row_converters(_FIELDS, start=1)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        raw = cursor.fetchall()
    return [(row[0], dict(zip(COLUMNS, row[1:])))
            for row in (converted(row, converters) for row in raw)]
