"""Boot's read of an agent's failures uses the indexes made for it: PostgreSQL's plans say so.

With enough rows for the planner to care (and fresh statistics), the recent and the open part of
the read must each be one index range in the order boot wants, bounded by its LIMIT: never a
sequential scan of the failures, never a sort of every row that matched, with or without a task
type, so a briefing's cost does not grow with the table or with how rarely the agent fails at
the type it asks about.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from answers.boot import composer as boot
from failures.store.patterns import pattern_for_message
from tests.plans import custom_plan, fill, generic_plan, statements_run

pytestmark = pytest.mark.django_db
ROWS = 60_000

# 20 agents, 20 task types (one of them rare), 60 days; one in eight still open.
GENERATE = """
INSERT INTO failures_failure (occurred_at, recorded_at, agent, task, task_description, task_type,
    skill_name, title, error, error_type, side_effects, recovery_hint, attempt_count, status,
    resolved_at, pattern_id)
SELECT now() - (h %% (60 * 24 * 60)) * interval '1 minute', now(), 'agent-' || (h %% 20),
       'task-' || (h %% 5000), '', CASE WHEN h %% 997 = 0 THEN 'rare' ELSE 'type-' || (h / 20 %% 19)
       END, '', '', 'error ' || (h %% 50), 'kind', '[]', '', 1,
       CASE WHEN h %% 8 = 0 THEN 'open' ELSE 'resolved' END,
       CASE WHEN h %% 8 = 0 THEN NULL ELSE now() END, %(pattern)s
FROM (SELECT abs(hashtext(n::text)) AS h FROM generate_series(1, %(rows)s) AS n) AS series
"""


@pytest.fixture
def failures():
    pattern = pattern_for_message(message="error <n> in kind")
    fill(GENERATE, {"rows": ROWS, "pattern": pattern.pk}, "failures_failure")


def _plans_of_failures_reads(task_type: str | None) -> list[list[dict]]:
    """The plans PostgreSQL makes for boot's reads of the agent's failures, as they ran: with
    their values, and the generic plan a connection keeps for the prepared read."""
    now = timezone.now()
    with statements_run() as run:
        boot._failures("agent-3", task_type, now - timedelta(hours=24), now)
    assert run and set(run.prepared) == {sql for sql, _ in run}
    return [
        plan
        for sql, params in run
        for plan in (custom_plan(sql, params), generic_plan(sql, params))
    ]


@pytest.mark.parametrize(
    "task_type, indexes",
    [
        (None, {"failure_agent_recent_idx", "failure_agent_open_recent_idx"}),
        ("type-4", {"failure_agent_type_recent_idx", "failure_agent_type_open_idx"}),
        ("rare", {"failure_agent_type_recent_idx", "failure_agent_type_open_idx"}),
    ],
)
def test_each_part_is_one_range_of_its_index(failures, task_type, indexes):
    nodes = [node for plan in _plans_of_failures_reads(task_type) for node in plan]
    assert not [
        n
        for n in nodes
        if n["Node Type"] == "Seq Scan" and n.get("Relation Name") == "failures_failure"
    ], nodes
    # Every read of a failure goes through one of the parts' indexes (an index scan, or a
    # bitmap of that index where the planner expects a handful of rows). The patterns and the
    # match index's token are read by their primary keys.
    used = {
        n["Index Name"]
        for n in nodes
        if "Index Name" in n
        and not n["Index Name"].startswith(
            ("failures_failurepattern", "lessons_matchindexversion")
        )
    }
    assert used == indexes
    # Nothing sorts more rows than a part keeps: the open part's few rows, re-sorted after the
    # pattern join, never the failures the parts scanned.
    sorts = [n for n in nodes if n["Node Type"] in ("Sort", "Incremental Sort")]
    assert all(n["Plan Rows"] <= boot.OPEN_CAP for n in sorts), sorts
