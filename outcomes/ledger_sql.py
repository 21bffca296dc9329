"""The ledger's batched statements: insert outcomes (skipping stored event ids), link them to
their failures, insert their files. One statement per batch, whatever its size.

On PostgreSQL each statement takes one array per column (config.sql_arrays): no model instance
or per-value field conversion on the way. Other databases (the embedded SQLite) get a multi-row VALUES with the fields' own conversions.
"""
import uuid

from django.db import connection

from config.sql_arrays import inserted_fields, unnest_source
from config.sql_prepared import prepared_cursor

from .models import Outcome, OutcomeFile

# Every column an insert sets, in order; id and recorded_at come from the database.
COLUMNS = inserted_fields(Outcome)


def outcomes_insert(rows: list) -> None:
    """INSERT the rows (objects with each column's attname), skipping any whose event id is
    stored (a concurrent writer of the same id is waited for, then skipped); set ``pk`` on those
    inserted and leave it None on the others.

    Rows go in event-id order so that two requests with the same events in another order queue
    on the first shared one instead of deadlocking.
    """
    if not rows:
        return
    rows = sorted(rows, key=lambda row: (row.event_id is None, str(row.event_id or "")))
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in COLUMNS)
    if connection.vendor == "postgresql":
        source, params = unnest_source(COLUMNS, rows)
    else:
        placeholders = "(" + ", ".join(["%s"] * len(COLUMNS)) + ")"
        source = "VALUES " + ", ".join([placeholders] * len(rows))
        params = [field.get_db_prep_save(getattr(row, field.attname), connection)
                  for row in rows for field in COLUMNS]
    with prepared_cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(Outcome._meta.db_table)} ({columns}) {source} "
            f"ON CONFLICT ({quote('event_id')}) DO NOTHING RETURNING {quote('id')}, "
            f"{quote('event_id')}", params)
        returned = cursor.fetchall()
    stored = {uuid.UUID(str(event_id)) for _, event_id in returned if event_id is not None}
    ids = iter(pk for pk, _ in returned)
    for row in rows:
        if row.event_id is None or row.event_id in stored:
            row.pk = next(ids)


# bulk_update's CASE per row costs far more than a join with the batch.
_LINK = """
UPDATE outcomes_outcome AS outcome SET failure_id = link.failure_id,
    pattern_id = link.pattern_id, resolved_failures = link.resolved
FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::int[])
     AS link(id, failure_id, pattern_id, resolved)
WHERE outcome.id = link.id
"""


def outcomes_link(rows: list) -> None:
    """Store each row's failure_id, pattern_id and resolved_failures (rows stored already)."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        with prepared_cursor() as cursor:
            cursor.execute(_LINK, [[row.pk for row in rows], [row.failure_id for row in rows],
                                   [row.pattern_id for row in rows],
                                   [row.resolved_failures for row in rows]])
        return
    for row in rows:
        Outcome.objects.filter(pk=row.pk).update(
            failure_id=row.failure_id, pattern_id=row.pattern_id,
            resolved_failures=row.resolved_failures)


def files_insert(files: list[tuple]) -> None:
    """Store ``(outcome id, path, occurred_at)`` rows."""
    if not files:
        return
    if connection.vendor != "postgresql":
        OutcomeFile.objects.bulk_create([
            OutcomeFile(outcome_id=pk, path=path, occurred_at=at) for pk, path, at in files])
        return
    outcome_ids, paths, times = (list(column) for column in zip(*files))
    with prepared_cursor() as cursor:
        cursor.execute(
            "INSERT INTO outcomes_outcomefile (outcome_id, path, occurred_at) "
            "SELECT * FROM unnest(%s::bigint[], %s::text[], %s::timestamptz[])",
            [outcome_ids, paths, times])
