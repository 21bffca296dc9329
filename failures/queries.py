"""The failure write path's raw statements: each is here because its ORM form cost its endpoint
at least 15% of req/s, measured side by side (named above each). Parallel arrays (``unnest``)
make a batch of any size one statement."""
from django.db import connection

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

# Measured: the ORM form (an UPDATE per pattern) cost POST /api/v1/outcomes/bulk 32% of req/s.
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


def patterns_count(counts: list[tuple], agents: set[tuple[int, str]],
                   tasks: set[tuple[int, str]]) -> None:
    """Add ``(id, events, unsafe, earliest, latest, retry_after)`` to patterns the caller has
    locked, and to each its new agents and tasks: those of the distinct ``(pattern id, agent)``
    and ``(pattern id, task)`` pairs no stored failure has yet."""
    with connection.cursor() as cursor:
        cursor.execute(_COUNT, [*(list(side) for side in zip(*agents)),
                                *(list(side) for side in zip(*tasks)),
                                *(list(column) for column in zip(*sorted(counts)))])


# Measured: the ORM form (an OR of pairs) cost POST /api/v1/outcomes/bulk 39% of req/s.
_CLOSE = """
UPDATE failures_failure AS failure SET status = %s, resolved_at = %s
FROM unnest(%s::text[], %s::text[]) AS pair(agent, task)
WHERE failure.agent = pair.agent AND failure.task = pair.task AND failure.status = 'open'
RETURNING failure.id, failure.pattern_id, failure.agent, failure.task
"""


def open_failures_close(pairs: set[tuple[str, str]], *, status: str,
                        at) -> list[tuple[int, int, str, str]]:
    """Close the open failures of exactly these (agent, task) pairs, in one statement that
    finds, locks and updates them; answer what it closed."""
    agents, tasks = (list(side) for side in zip(*sorted(pairs)))
    with connection.cursor() as cursor:
        cursor.execute(_CLOSE, [str(status), at, agents, tasks])
        return [tuple(row) for row in cursor.fetchall()]
