"""The ledger's raw SQL reads: each statement here is one whose ORM version cost its endpoint at
least 15% of its requests per second, measured side by side in one session (the comment above
each names the measurement).

Each part of a statement is an index range with a LIMIT (the plan test,
tests/outcomes/test_plan.py, holds PostgreSQL to that), wrapped as a subquery so that one
statement can carry them all. Rows are dicts keyed as ``COLUMNS``, JSON decoded.
"""
import json
from datetime import datetime

from django.db import connection

from .models import Outcome, OutcomeFile

# What a history row holds: the keys of the row dicts (Outcome fields).
COLUMNS = ("pk", "task_id", "agent", "task_type", "outcome", "context", "result",
           "duration_ms", "occurred_at", "error_type", "pattern_id")
_SELECT = ", ".join(("id", *COLUMNS[1:]))
_OUTCOMES, _FILES = Outcome._meta.db_table, OutcomeFile._meta.db_table


def _part(tag: str, n: int, where: str) -> str:
    """A tagged bounded read: ``tag`` then the outcomes ``where`` selects, newest first, at most
    ``%s`` of them (the last parameter)."""
    return (f"SELECT '{tag}', {_SELECT} FROM (SELECT {_SELECT} FROM {_OUTCOMES} WHERE {where}"
            f" ORDER BY occurred_at DESC LIMIT %s) AS part{n}")


# history (uncached, 4 mixes) with the ORM's reads instead: 0.77x req/s (paired, bench_small).
def history_first_read(*, agent: str, task_type: str, recent: list[tuple[str, datetime, int]],
                       task_id: str = "", task_since: datetime | None = None,
                       task_limit: int = 0) -> list[tuple[str, dict]]:
    """``(tag, row)``: for each ``(outcome, since, limit)`` of ``recent`` the agent's latest
    outcomes of that kind (of ``task_type`` when given), tagged "r", and the latest
    ``task_limit`` attempts at ``task_id`` since ``task_since`` (when given), tagged "t"; in no
    promised order."""
    parts, params = [], []
    typed = " AND task_type = %s" if task_type else ""
    for outcome, since, limit in recent:
        parts.append(_part("r", len(parts), f"agent = %s AND outcome = %s{typed}"
                                            " AND occurred_at >= %s"))
        params += [agent, outcome, *([task_type] if task_type else []), since, limit]
    if task_id:
        parts.append(_part("t", len(parts), "task_id = %s AND occurred_at >= %s"))
        params += [task_id, task_since, task_limit]
    return _rows(" UNION ALL ".join(parts), params)


# history: measured with history_first_read, the two ORM reads together (0.77x req/s).
def history_candidates(keys: list[tuple[str, object]], *, since: datetime,
                       limit: int) -> list[dict]:
    """The outcomes found by any of ``keys`` (``("path" | "pattern_id" | "error_type",
    value)``): for each key its latest ``limit`` since ``since``, one small index range per
    key; each outcome once however many keys it shares, in one round trip."""
    parts, params = [], []
    for column, value in keys:
        table, id_column = (_FILES, "outcome_id") if column == "path" else (_OUTCOMES, "id")
        where, order, values = f"{column} = %s", "occurred_at DESC", [value]
        if column == "error_type":
            # The error type as a range of one value, ordered by it: an order only
            # outcome_error_recent_idx gives. With "=" the planner may walk the newest outcomes
            # of all types (outcome_occurred_idx) and drop the others.
            where, order, values = ("error_type >= %s AND error_type <= %s",
                                    "error_type, occurred_at DESC", [value, value])
        parts.append(f"SELECT {id_column} AS id FROM (SELECT {id_column} FROM {table}"
                     f" WHERE {where} AND occurred_at >= %s ORDER BY {order}"
                     f" LIMIT %s) AS key{len(parts)}")
        params += [*values, since, limit]
    sql = (f"SELECT 'c', {_SELECT} FROM {_OUTCOMES}"
           f" WHERE id IN ({' UNION '.join(parts)})")
    return [row for _tag, row in _rows(sql, params)]


def _rows(sql: str, params: list) -> list[tuple[str, dict]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    rows = []
    for tag, *values in found:
        row = dict(zip(COLUMNS, values))
        row["context"], row["result"] = json.loads(row["context"]), json.loads(row["result"])
        rows.append((tag, row))
    return rows
