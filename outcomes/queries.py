"""The ledger's raw SQL: each statement here is one whose ORM version cost its endpoint at least
15% of its requests per second, measured side by side in one session (the comment above each
names the measurement). The inserts run on every record request and are prepared per connection
(config.database).

The history reads: each part of a statement is an index range with a LIMIT (the plan test,
tests/outcomes/test_plan.py, holds PostgreSQL to that), wrapped as a subquery so that one
statement can carry them all. Rows are dicts keyed as ``COLUMNS``, JSON decoded.
"""

import json
from datetime import datetime

from django.db import connection

from config.database import prepared_cursor

from .models import Outcome, OutcomeFile

# What a history row holds: the keys of the row dicts (Outcome fields).
COLUMNS = (
    "pk",
    "task_id",
    "agent",
    "task_type",
    "outcome",
    "context",
    "result",
    "duration_ms",
    "occurred_at",
    "error_type",
    "pattern_id",
)
_SELECT = ", ".join(("id", *COLUMNS[1:]))
_OUTCOMES, _FILES = Outcome._meta.db_table, OutcomeFile._meta.db_table


def _part(tag: str, n: int, where: str) -> str:
    """A tagged bounded read: ``tag`` then the outcomes ``where`` selects, newest first, at most
    ``%s`` of them (the last parameter)."""
    return (
        f"SELECT '{tag}', {_SELECT} FROM (SELECT {_SELECT} FROM {_OUTCOMES} WHERE {where}"
        f" ORDER BY occurred_at DESC LIMIT %s) AS part{n}"
    )


# history (uncached, 4 mixes) with the ORM's reads instead: 0.77x req/s (paired, bench_small).
def history_first_read(
    *,
    agent: str,
    task_type: str,
    recent: list[tuple[str, datetime, int]],
    task_id: str = "",
    task_since: datetime | None = None,
    task_limit: int = 0,
) -> list[tuple[str, dict]]:
    """``(tag, row)``: for each ``(outcome, since, limit)`` of ``recent`` the agent's latest
    outcomes of that kind (of ``task_type`` when given), tagged "r", and the latest
    ``task_limit`` attempts at ``task_id`` since ``task_since`` (when given), tagged "t"; in no
    promised order."""
    parts: list[str] = []
    params: list[object] = []
    typed = " AND task_type = %s" if task_type else ""
    for outcome, since, limit in recent:
        parts.append(
            _part("r", len(parts), f"agent = %s AND outcome = %s{typed} AND occurred_at >= %s")
        )
        params += [agent, outcome, *([task_type] if task_type else []), since, limit]
    if task_id:
        parts.append(_part("t", len(parts), "task_id = %s AND occurred_at >= %s"))
        params += [task_id, task_since, task_limit]
    return _rows(" UNION ALL ".join(parts), params)


# history: measured with history_first_read, the two ORM reads together (0.77x req/s).
def history_candidates(
    keys: list[tuple[str, object]], *, since: datetime, limit: int
) -> list[dict]:
    """The outcomes found by any of ``keys`` (``("path" | "pattern_id" | "error_type",
    value)``): for each key its latest ``limit`` since ``since``, one small index range per
    key; each outcome once however many keys it shares, in one round trip."""
    parts: list[str] = []
    params: list[object] = []
    for column, value in keys:
        table, id_column = (_FILES, "outcome_id") if column == "path" else (_OUTCOMES, "id")
        where, order, values = f"{column} = %s", "occurred_at DESC", [value]
        if column == "error_type":
            # The error type as a range of one value, ordered by it: an order only
            # outcome_error_recent_idx gives. With "=" the planner may walk the newest outcomes
            # of all types (outcome_occurred_idx) and drop the others.
            where, order, values = (
                "error_type >= %s AND error_type <= %s",
                "error_type, occurred_at DESC",
                [value, value],
            )
        parts.append(
            f"SELECT {id_column} AS id FROM (SELECT {id_column} FROM {table}"
            f" WHERE {where} AND occurred_at >= %s ORDER BY {order}"
            f" LIMIT %s) AS key{len(parts)}"
        )
        params += [*values, since, limit]
    sql = f"SELECT 'c', {_SELECT} FROM {_OUTCOMES} WHERE id IN ({' UNION '.join(parts)})"
    return [row for _tag, row in _rows(sql, params)]


def _rows(sql: str, params: list) -> list[tuple[str, dict]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    rows = []
    for tag, *values in found:
        row = dict(zip(COLUMNS, values, strict=True))  # the columns _SELECT reads
        row["context"], row["result"] = json.loads(row["context"]), json.loads(row["result"])
        rows.append((tag, row))
    return rows


# What an insert sets of an outcome, as JSON keys and columns; the id is the database's.
STORED = (
    "event_id",
    "digest",
    "task_id",
    "agent",
    "task_type",
    "outcome",
    "context",
    "result",
    "duration_ms",
    "occurred_at",
    "recorded_at",
    "error_type",
    "release",
    "model",
    "prompt_version",
    "failure_id",
    "pattern_id",
    "resolved_failures",
    "api_key_id",
)
_STORED = ", ".join(STORED)

# The batch travels as one JSON parameter: the rows' values need no per-value conversion by
# Django or psycopg on the way. Ids come back in the order rows were inserted, as Django's own
# bulk_create relies on.
_INSERT_OUTCOMES = f"""
INSERT INTO {_OUTCOMES} ({_STORED})
SELECT {_STORED} FROM json_populate_recordset(NULL::{_OUTCOMES}, %s::json) WITH ORDINALITY AS batch
ORDER BY batch.ordinality
RETURNING id
"""

_INSERT_FILES = f"""
INSERT INTO {_FILES} (outcome_id, path, occurred_at)
SELECT outcome_id, path, occurred_at FROM json_populate_recordset(NULL::{_FILES}, %s::json)
"""


# bulk record, bulk_create of outcomes and files instead: 0.71-0.82x req/s (paired, bench_small).
# Prepared, with patterns_count and open_failures_close: single record 0.380x against 0.322x
# planned per request (adjacent runs), 0.1-0.2 ms less database CPU per request (in process).
def outcome_rows_insert(rows: list[dict]) -> list[int]:
    """INSERT outcomes (dicts keyed as ``STORED``), in this order; answer their ids, in it."""
    if not rows:
        return []
    with prepared_cursor() as cursor:
        cursor.execute(_INSERT_OUTCOMES, [json.dumps(rows, default=str)])
        return [pk for (pk,) in cursor.fetchall()]


# bulk record: measured with outcome_rows_insert, the two together (0.71-0.82x req/s).
def outcome_files_insert(files: list[tuple[int, str, datetime]]) -> None:
    """INSERT ``(outcome id, path, occurred_at)`` rows."""
    if not files:
        return
    with prepared_cursor() as cursor:
        cursor.execute(
            _INSERT_FILES,
            [
                json.dumps(
                    [
                        {"outcome_id": pk, "path": path, "occurred_at": at}
                        for pk, path, at in files
                    ],
                    default=str,
                )
            ],
        )
