"""The ledger's batched statements: insert outcomes with their files, skipping stored event ids.
One statement per batch, whatever its size.

The statement takes one array per column (config.sql_arrays): no model instance or per-value
field conversion on the way.
"""
from django.db import connection

from config.sql_arrays import inserted_fields, unnest_call
from config.sql_prepared import prepared_cursor

from .models import Outcome

# Every column an insert sets, in order; id and recorded_at come from the database.
COLUMNS = inserted_fields(Outcome)


def outcomes_insert(rows: list, files: list[list[str]]) -> None:
    """INSERT the rows (objects with each column's attname) and the files of each
    (``files[k]``: the paths of ``rows[k]``), skipping any row whose event id is stored (a
    concurrent writer of the same id is waited for, then skipped); set ``pk`` on those
    inserted and leave it None on the others, whose files are not stored.

    A row whose ``failure`` is not stored yet (failures_store comes after, so that
    the patterns it locks are held briefly) gets that failure's id from the failures' sequence
    in the same statement, as its ``failure_id`` and the failure's ``pk``.

    Rows go in event-id order so that two requests with the same events in another order queue
    on the first shared one instead of deadlocking.
    """
    if not rows:
        return
    order = sorted(range(len(rows)), key=lambda k: (rows[k].event_id is None,
                                                    str(rows[k].event_id or "")))
    rows, files = [rows[k] for k in order], [files[k] for k in order]
    # Each row takes its id (and its new failure's) from the sequences first, so that its files
    # can name it in the same statement; the ids of rows skipped are never used.
    source, params = unnest_call(COLUMNS, rows, also=("boolean",))  # and whether it failed
    failing = [row.failure is not None and row.failure.pk is None for row in rows]
    with prepared_cursor() as cursor:
        cursor.execute(_INSERT.format(source=source), [*params, failing, *_files_params(files)])
        for position, pk, failure_id in cursor.fetchall():
            row = rows[position - 1]
            row.pk = pk
            if failure_id is not None:
                row.failure_id = row.failure.pk = failure_id


def _files_params(files: list[list[str]]) -> list[list]:
    positions = [k for k, paths in enumerate(files, 1) for _ in paths]
    return [positions, [path for paths in files for path in paths]]


_NAMES = ", ".join(connection.ops.quote_name(field.column) for field in COLUMNS)
# What is inserted: the failure's new id where one was allocated.
_VALUES = ", ".join("coalesce(new_failure_id, failure_id)" if field.column == "failure_id"
                    else connection.ops.quote_name(field.column) for field in COLUMNS)
_INSERT = f"""
WITH source AS MATERIALIZED (
    SELECT nextval((SELECT pg_get_serial_sequence('outcomes_outcome', 'id'))) AS id,
           CASE WHEN batch.failing THEN nextval((SELECT pg_get_serial_sequence(
               'failures_failure', 'id'))) END AS new_failure_id, batch.*
    FROM {{source}} WITH ORDINALITY AS batch({_NAMES}, failing, position)
), stored AS (
    INSERT INTO outcomes_outcome (id, {_NAMES})
    SELECT id, {_VALUES} FROM source ORDER BY position
    ON CONFLICT (event_id) DO NOTHING RETURNING id
), files AS (
    INSERT INTO outcomes_outcomefile (outcome_id, path, occurred_at)
    SELECT source.id, file.path, source.occurred_at
    FROM unnest(%s::bigint[], %s::text[]) AS file(position, path)
    JOIN source USING (position) JOIN stored USING (id)
)
SELECT source.position, source.id, source.new_failure_id FROM source JOIN stored USING (id)
"""


def outcomes_repoint(moved: dict[int, int]) -> None:
    """``{outcome id: pattern id}``: outcomes whose failure moved to another pattern while it
    was stored (a merge that committed meanwhile; rare)."""
    for pk, pattern_id in moved.items():
        Outcome.objects.filter(pk=pk).update(pattern_id=pattern_id)
