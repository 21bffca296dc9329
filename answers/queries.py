"""The answers' raw SQL: boot's one read of an agent's failures, whose ORM version cost boot at
least 15% of its requests per second, measured side by side in one session (the comment above it
names the measurement). It runs on every boot, so it is prepared per connection
(config.database), on a cursor Django wraps: logged and counted as any other."""

from config.database import prepared_cursor
from failures.live import live_pattern_sql
from failures.models import Failure, FailurePattern
from failures.store.triage import muted_sql
from lessons.match_index import match_index_version_sql

# What boot reads of a failure (answers.boot.composer): shared by both parts, then each part's
# own.
SHARED = (
    "occurred_at",
    "task",
    "task_type",
    "error",
    "error_type",
    "retry_safe",
    "retry_after",
    "attempt_count",
    "pattern_id",
)
RECENT = ("title", "status")
OPEN = ("skill_name", "side_effects", "recovery_hint", "checkpoint")
# What boot reads of an open failure's live pattern (failures.live).
LIVE = (
    "id",
    "fingerprint",
    "template",
    "event_count",
    "resolved_count",
    "unsafe_count",
    "retry_after",
    "root_cause_group_id",
)


def _boot_failures_sql(typed: bool) -> str:
    failures, patterns = Failure._meta.db_table, FailurePattern._meta.db_table
    columns = lambda alias, names: ", ".join(f"{alias}.{n}" for n in names)  # noqa: E731
    nulls = lambda names: ", ".join(["NULL"] * len(names))  # noqa: E731
    newest = "ORDER BY f.occurred_at DESC, f.id DESC"
    of_type = " AND f.task_type = %(task_type)s" if typed else ""
    open_rows = (
        f"SELECT f.id, {columns('f', SHARED + OPEN)} FROM {failures} f"
        f" WHERE f.agent = %(agent)s AND f.status = '{Failure.Status.OPEN.value}'"
        f"{of_type} {newest} LIMIT %(open_cap)s"
    )
    return (
        f"(SELECT true, f.id, {columns('f', SHARED)}, {nulls(RECENT)}, {columns('f', OPEN)},"
        f" {columns('l', LIVE)}, {match_index_version_sql()} FROM ({open_rows}) f"
        f" JOIN {patterns} l ON l.id = {live_pattern_sql('f.pattern_id')} {newest})"
        f" UNION ALL (SELECT false, f.id, {columns('f', SHARED)}, {columns('f', RECENT)},"
        f" {nulls(OPEN + LIVE)}, NULL FROM {failures} f WHERE f.agent = %(agent)s"
        f" AND f.occurred_at >= %(since)s AND f.occurred_at <= %(now)s{of_type}"
        f" AND NOT EXISTS (SELECT 1 FROM {patterns} mp WHERE mp.id = f.pattern_id"
        f" AND {muted_sql(alias='mp', now='now')}) {newest} LIMIT %(recent_cap)s)"
    )


_BOOT_FAILURES_SQL = {typed: _boot_failures_sql(typed) for typed in (False, True)}


# boot (agent) with the ORM's two reads instead: 0.64x req/s (paired in process, bench_small).
# Prepared: server CPU per boot 1.1-1.2 ms, 2.1 ms planned anew (in process, bench_small).
def boot_failures(*, agent, task_type, since, now, recent_cap: int, open_cap: int) -> list:
    """Rows ``(is_open, id, *SHARED, *RECENT, *OPEN, *LIVE, index token)``: the agent's newest
    ``recent_cap`` failures in the window (muted patterns left out; the open columns NULL) and
    its newest ``open_cap`` open failures with their live patterns and the match index's token
    (the recent columns NULL), in one round trip."""
    with prepared_cursor() as cursor:
        cursor.execute(
            _BOOT_FAILURES_SQL[bool(task_type)],
            {
                "agent": agent,
                "task_type": task_type,
                "since": since,
                "now": now,
                "recent_cap": recent_cap,
                "open_cap": open_cap,
            },
        )
        return cursor.fetchall()
