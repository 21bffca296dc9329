"""Batched statements for the failure write path: one statement per batch where the
ORM form needs one per pattern or reads far more rows than it keeps.

Each takes parallel arrays (``unnest``), so a batch of any size is one round trip with a handful
of parameters.
"""
from django.db import connection

from config.sql_arrays import inserted_fields, unnest_source
from config.sql_prepared import prepared_cursor

from .models import Failure, FailurePattern

# Counting a pattern's new agents and tasks: one index probe per distinct (pattern, agent) and
# (pattern, task) pair of the batch, through the (pattern, agent) and (pattern, task) indexes,
# not a read of every failure. The statement runs after the patterns are locked (its own
# snapshot then sees what writers that held them committed), and before the failures are stored.
_NEW_PAIRS = """
SELECT pair.pattern_id, count(*) AS new
FROM unnest(%s::bigint[], %s::text[]) AS pair(pattern_id, value)
WHERE NOT EXISTS (SELECT 1 FROM failures_failure AS failure
                  WHERE failure.pattern_id = pair.pattern_id AND failure.{column} = pair.value)
GROUP BY pair.pattern_id
"""

_COUNT = f"""
WITH agents AS ({_NEW_PAIRS.format(column="agent")}),
     tasks AS ({_NEW_PAIRS.format(column="task")})
UPDATE failures_failurepattern AS pattern SET
    event_count = pattern.event_count + batch.events,
    agent_count = pattern.agent_count + COALESCE(agents.new, 0),
    task_count = pattern.task_count + COALESCE(tasks.new, 0),
    unsafe_count = pattern.unsafe_count + batch.unsafe,
    first_seen = CASE WHEN pattern.event_count = 0 THEN batch.earliest
                      ELSE LEAST(pattern.first_seen, batch.earliest) END,
    last_seen = CASE WHEN pattern.event_count = 0 THEN batch.latest
                     ELSE GREATEST(pattern.last_seen, batch.latest) END,
    retry_after = COALESCE(batch.retry_after, pattern.retry_after),
    -- A resolved pattern that fails again is open again (failures.triage), by no one, then.
    status = CASE WHEN pattern.status = 'resolved' THEN 'open' ELSE pattern.status END,
    triaged_by_id = CASE WHEN pattern.status = 'resolved' THEN NULL
                         ELSE pattern.triaged_by_id END,
    triaged_at = CASE WHEN pattern.status = 'resolved' THEN batch.latest
                      ELSE pattern.triaged_at END
FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::timestamptz[], %s::timestamptz[], %s::int[])
     AS batch(id, events, unsafe, earliest, latest, retry_after)
     LEFT JOIN agents ON agents.pattern_id = batch.id
     LEFT JOIN tasks ON tasks.pattern_id = batch.id
WHERE pattern.id = batch.id
"""


_PATTERN_NAMES = [field.attname for field in FailurePattern._meta.concrete_fields]
_TEMPLATES_PATTERNS = (
    "SELECT t.fingerprint, " + ", ".join(
        f"p.{connection.ops.quote_name(field.column)}"
        for field in FailurePattern._meta.concrete_fields)
    + " FROM failures_failuretemplate t JOIN failures_failurepattern p ON p.id = t.pattern_id"
    " WHERE t.fingerprint = ANY(%s)")


def templates_patterns(fingerprints: set[str]) -> dict[str, FailurePattern]:
    """The pattern of each stored template among these fingerprints, in one prepared statement
    (the ORM's join costs more to build and plan than to run). Not locked: a write holds its
    patterns only from patterns_lock on, so that writers sharing patterns wait for each other
    as briefly as possible."""
    with prepared_cursor() as cursor:
        cursor.execute(_TEMPLATES_PATTERNS, [sorted(fingerprints)])
        return {fingerprint: FailurePattern.from_db(connection.alias, _PATTERN_NAMES, values)
                for fingerprint, *values in cursor.fetchall()}


def patterns_lock(ids) -> set[int]:
    """Lock these patterns until the transaction ends, in id order (so two batches cannot
    deadlock); answer those of them that are merged into another pattern. A merge that
    committed while this waited for a lock shows here: the locked row is the newest version."""
    with prepared_cursor() as cursor:
        cursor.execute("SELECT id, merged_into_id FROM failures_failurepattern "
                       "WHERE id = ANY(%s) ORDER BY id FOR UPDATE", [sorted(ids)])
        return {pk for pk, merged_into in cursor.fetchall() if merged_into is not None}


def patterns_add(counts: list[tuple], agents: set[tuple[int, str]],
                 tasks: set[tuple[int, str]]) -> None:
    """Add ``(id, events, unsafe, earliest, latest, retry_after)`` to patterns the caller has
    locked (patterns_lock), and to each its new agents and tasks: those of the distinct
    ``(pattern id, agent)`` and ``(pattern id, task)`` pairs no stored failure has yet."""
    with prepared_cursor() as cursor:
        cursor.execute(_COUNT, [*(list(side) for side in zip(*agents)),
                                *(list(side) for side in zip(*tasks)),
                                *(list(column) for column in zip(*sorted(counts)))])


_RESOLVED = """
UPDATE failures_failurepattern AS pattern
SET resolved_count = pattern.resolved_count + batch.resolved
FROM unnest(%s::bigint[], %s::int[]) AS batch(id, resolved)
WHERE pattern.id = batch.id
"""


def patterns_resolved(per_pattern: dict[int, int]) -> None:
    """Add ``{pattern id: failures resolved}`` to the patterns' retry history, in id order."""
    ids = sorted(per_pattern)
    with prepared_cursor() as cursor:
        cursor.execute(_RESOLVED, [ids, [per_pattern[pk] for pk in ids]])


_CLOSE = """
UPDATE failures_failure AS failure SET status = %s, resolved_at = %s
FROM unnest(%s::text[], %s::text[]) AS pair(agent, task)
WHERE failure.agent = pair.agent AND failure.task = pair.task AND failure.status = 'open'
  AND failure.id <> ALL(%s::bigint[])
RETURNING failure.id, failure.pattern_id, failure.agent, failure.task
"""


def open_failures_close(pairs: set[tuple[str, str]], *, keep: set[int], status: str,
                        at) -> list[tuple[int, int, str, str]]:
    """Close the open failures of exactly these (agent, task) pairs but those in ``keep``, in
    one statement that finds, locks and updates them; answer what it closed."""
    agents, tasks = (list(side) for side in zip(*pairs))
    with prepared_cursor() as cursor:
        cursor.execute(_CLOSE, [str(status), at, agents, tasks, sorted(keep)])
        return [tuple(row) for row in cursor.fetchall()]


def failures_insert(rows: list[Failure]) -> list[Failure]:
    """INSERT the failures in one statement: with the ids they carry when they all have one
    (allocated from the table's sequence by the caller), or new ones, set in the order given."""
    if not rows:
        return rows
    with_ids = {row.pk is not None for row in rows}
    if len(with_ids) > 1:
        raise ValueError("either every failure carries its id or none does")
    fields = ([Failure._meta.pk] if True in with_ids else []) + inserted_fields(Failure)
    source, params = unnest_source(fields, rows)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    with prepared_cursor() as cursor:
        cursor.execute(f"INSERT INTO failures_failure ({columns}) {source} RETURNING id", params)
        for row, (pk,) in zip(rows, cursor.fetchall()):
            row.pk = pk
            row._state.adding, row._state.db = False, connection.alias
    return rows
