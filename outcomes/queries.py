"""The ledger's raw statements: each is here because its ORM form cost its endpoint at least
15% of req/s, measured side by side (named above each)."""
import json

from django.db import connection

# Every column an insert sets, and its type; the id comes from the database.
_COLUMNS = {
    "event_id": "uuid", "digest": "text", "task_id": "text", "agent": "text",
    "task_type": "text", "outcome": "text", "context": "jsonb", "result": "jsonb",
    "duration_ms": "bigint", "occurred_at": "timestamptz", "recorded_at": "timestamptz",
    "error_type": "text",
    "failure_id": "bigint", "pattern_id": "bigint", "resolved_failures": "integer",
    "api_key_id": "bigint",
}
# MEASURED_INSERT
_INSERT = "INSERT INTO outcomes_outcome ({names}) SELECT * FROM unnest({arrays}) RETURNING id"
_INSERT = _INSERT.format(
    names=", ".join(_COLUMNS),
    arrays=", ".join(f"%s::text[]::{kind}[]" if kind == "jsonb" else f"%s::{kind}[]"
                     for kind in _COLUMNS.values()))


def outcomes_insert(rows: list) -> None:
    """INSERT the outcomes (Outcome instances, not stored yet) in the order given, one array
    per column, and set each one's id."""
    params = [[_json(getattr(row, name)) for row in rows] if kind == "jsonb"
              else [getattr(row, name) for row in rows] for name, kind in _COLUMNS.items()]
    with connection.cursor() as cursor:
        cursor.execute(_INSERT, params)
        for row, (pk,) in zip(rows, cursor.fetchall()):  # RETURNING follows the insert's order
            row.pk, row._state.adding, row._state.db = pk, False, connection.alias


def _json(value) -> str | None:
    return None if value is None else json.dumps(value)
