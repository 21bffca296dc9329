"""The failure records' raw SQL (boot's read is in answers.queries): each statement here is one
whose ORM version cost its endpoint at least 15% of its requests per second, measured side by
side in one session (the comment above each names the measurement). Each runs on every request
of its endpoint, so each is prepared per connection (config.database), on a cursor Django wraps:
logged and counted as any other.
The writes take parallel arrays (``unnest``), so a batch of any size is one statement."""

from datetime import datetime

from config.database import prepared_cursor
from failures.store.triage import reopened_sql

# Counting a pattern's new agents and tasks: one index probe per distinct (pattern, agent) and
# (pattern, task) pair of the batch, through the (pattern, agent) and (pattern, task) indexes,
# not a read of every failure. The batch's failures are stored already and are left out by id.
# The statement runs after the patterns are locked: its own snapshot then sees what writers that
# held them committed.
_NEW_PAIRS = """
SELECT pair.pattern_id, count(*) AS new
FROM unnest(%s::bigint[], %s::text[]) AS pair(pattern_id, value)
WHERE NOT EXISTS (SELECT 1 FROM failures_failure AS failure
                  WHERE failure.pattern_id = pair.pattern_id AND failure.{column} = pair.value
                    AND failure.id <> ALL(%s::bigint[]))
GROUP BY pair.pattern_id
"""

# Measured: the ORM form (an UPDATE per pattern) cost POST /api/v1/outcomes/bulk 32% of req/s.
# Prepared: see outcomes.queries.outcome_rows_insert.
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
    {reopened_sql(alias="pattern", at="batch.latest")}
FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::timestamptz[], %s::timestamptz[], %s::int[])
     AS batch(id, events, unsafe, earliest, latest, retry_after)
     LEFT JOIN agents ON agents.pattern_id = batch.id
     LEFT JOIN tasks ON tasks.pattern_id = batch.id
WHERE pattern.id = batch.id
"""


def patterns_count(
    counts: list[tuple], agents: set[tuple[int, str]], tasks: set[tuple[int, str]], own: list[int]
) -> None:
    """Add ``(id, events, unsafe, earliest, latest, retry_after)`` to patterns the caller has
    locked, and to each its new agents and tasks: those of the distinct ``(pattern id, agent)``
    and ``(pattern id, task)`` pairs no stored failure but the batch's own (ids ``own``) has."""
    own = sorted(own)
    with prepared_cursor() as cursor:
        cursor.execute(
            _COUNT,
            [
                *(list(side) for side in zip(*agents, strict=True)),
                own,
                *(list(side) for side in zip(*tasks, strict=True)),
                own,
                *(list(column) for column in zip(*sorted(counts), strict=True)),
            ],
        )


# Measured: the ORM form (an OR of pairs) cost POST /api/v1/outcomes/bulk 39% of req/s.
# Prepared: see outcomes.queries.outcome_rows_insert.
# A failure is closed by the earliest of its task's closings at or after it happened (any of
# them when ``%(any_time)s``: a task closed by hand closes every open failure), at that closing's
# time: a success that arrives late closes only what failed before it, as of when it happened.
_CLOSE = """
UPDATE failures_failure AS failure SET status = %(status)s, resolved_at = closer.at
FROM (SELECT open.id, min(closing.at) AS at
      FROM unnest(%(agents)s::text[], %(tasks)s::text[], %(ats)s::timestamptz[])
           AS closing(agent, task, at)
      JOIN failures_failure AS open ON open.agent = closing.agent AND open.task = closing.task
       AND open.status = 'open' AND (%(any_time)s OR open.occurred_at <= closing.at)
      GROUP BY open.id) AS closer
WHERE failure.id = closer.id AND failure.status = 'open'
RETURNING failure.id, failure.pattern_id, failure.agent, failure.task, closer.at
"""


def open_failures_close(
    closings: list[tuple[str, str, datetime]], *, status: str, any_time: bool = False
) -> list[tuple[int, int, str, str, datetime]]:
    """Close the open failures of the (agent, task, at) closings' tasks that happened at or
    before ``at`` (all of them with ``any_time``), each at the earliest such ``at``, in one
    statement that finds, locks and updates them; answer ``(id, pattern_id, agent, task, at)``
    of each closed."""
    agents, tasks, ats = (list(side) for side in zip(*sorted(closings), strict=True))
    with prepared_cursor() as cursor:
        cursor.execute(
            _CLOSE,
            {
                "status": str(status),
                "agents": agents,
                "tasks": tasks,
                "ats": ats,
                "any_time": any_time,
            },
        )
        return [tuple(row) for row in cursor.fetchall()]
