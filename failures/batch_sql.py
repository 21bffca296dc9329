"""Batched statements for the failure write path on PostgreSQL: one statement per batch where the
portable ORM form needs one per pattern or reads far more rows than it keeps.

Each takes parallel arrays (``unnest``), so a batch of any size is one round trip with a handful
of parameters. Callers use the ORM form on other databases (the embedded SQLite).
"""
from django.db import connection

_SEEN = """
SELECT pair.pattern_id, pair.value FROM unnest(%s::bigint[], %s::text[]) AS pair(pattern_id, value)
WHERE EXISTS (SELECT 1 FROM failures_failure AS failure
              WHERE failure.pattern_id = pair.pattern_id AND failure.{column} = pair.value)
"""

_COUNT = """
UPDATE failures_failurepattern AS pattern SET
    event_count = pattern.event_count + batch.events,
    agent_count = pattern.agent_count + batch.agents,
    task_count = pattern.task_count + batch.tasks,
    unsafe_count = pattern.unsafe_count + batch.unsafe,
    first_seen = CASE WHEN pattern.event_count = 0 THEN batch.earliest
                      ELSE LEAST(pattern.first_seen, batch.earliest) END,
    last_seen = CASE WHEN pattern.event_count = 0 THEN batch.latest
                     ELSE GREATEST(pattern.last_seen, batch.latest) END,
    retry_after = COALESCE(batch.retry_after, pattern.retry_after)
FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::int[], %s::int[], %s::timestamptz[],
            %s::timestamptz[], %s::int[])
     AS batch(id, events, agents, tasks, unsafe, earliest, latest, retry_after)
WHERE pattern.id = batch.id
"""

_OPEN = """
SELECT failure.id, failure.pattern_id, failure.agent, failure.task
FROM failures_failure AS failure
JOIN unnest(%s::text[], %s::text[]) AS pair(agent, task)
  ON failure.agent = pair.agent AND failure.task = pair.task
WHERE failure.status = 'open' ORDER BY failure.id FOR UPDATE OF failure
"""


def seen_pairs(column: str, pairs: set[tuple[int, str]]) -> set[tuple[int, str]]:
    """Which (pattern id, agent or task) pairs already have a failure: one index probe each
    (through the (pattern, agent) and (pattern, task) indexes), not a read of every failure."""
    if column not in ("agent", "task"):
        raise ValueError(column)
    ids, values = (list(side) for side in zip(*pairs))
    with connection.cursor() as cursor:
        cursor.execute(_SEEN.format(column=column), [ids, values])
        return {(pattern_id, value) for pattern_id, value in cursor.fetchall()}


def patterns_add(counts: list[tuple]) -> None:
    """Add ``(id, events, agents, tasks, unsafe, earliest, latest, retry_after)`` to patterns,
    after locking them in id order (so two batches cannot deadlock)."""
    counts = sorted(counts)
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM failures_failurepattern WHERE id = ANY(%s) "
                       "ORDER BY id FOR UPDATE", [[row[0] for row in counts]])
        cursor.execute(_COUNT, [list(column) for column in zip(*counts)])


def open_failures_of(pairs: set[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """Open failures of exactly these (agent, task) pairs, locked in id order."""
    agents, tasks = (list(side) for side in zip(*pairs))
    with connection.cursor() as cursor:
        cursor.execute(_OPEN, [agents, tasks])
        return [tuple(row) for row in cursor.fetchall()]
