"""The history reads use the ledger's indexes: PostgreSQL's own plans say so.

With enough rows for the planner to care (and fresh statistics), every read the history makes on
the outcome tables must be an index scan bounded by its LIMIT, never a sequential scan or a sort
of everything that matched, so its cost does not grow with the ledger.
"""

import re

import pytest

from failures.store.patterns import pattern_for_message
from outcomes.history import HistoryQuery, Limits, history_items
from tests.plans import custom_plan, fill, nodes_of, statements_run

pytestmark = pytest.mark.django_db
ROWS = 100_000
TABLES = {"outcomes_outcome", "outcomes_outcomefile"}


@pytest.fixture
def ledger():
    """ROWS outcomes of 20 busy agents over 20 task types, 2,000 files and 50 days (written by
    SQL, fast), then ANALYZE: enough rows per agent that the planner's choice is the one a large
    ledger gets."""
    patterns = [pattern_for_message(message=f"error kind {n} at <host>") for n in range(20)]
    fill(
        GENERATE,
        {"rows": ROWS, "patterns": [p.pk for p in patterns]},
        "outcomes_outcome",
        "outcomes_outcomefile",
    )
    return patterns


# Pseudo-random but repeatable columns from the row number n (hashtext spreads them).
GENERATE = """
WITH series AS (
    SELECT n, abs(hashtext(n::text)) AS h, (abs(hashtext('f' || n)) %% 5 = 0) AS failed
    FROM generate_series(1, %(rows)s) AS n
), inserted AS (
    INSERT INTO outcomes_outcome (digest, task_id, agent, task_type, outcome, context, result,
                                  occurred_at, recorded_at, error_type, pattern_id,
                                  resolved_failures)
    SELECT '', 'task-' || (h %% 8000), 'agent-' || (h %% 20), 'type-' || (h / 20 %% 20),
           CASE WHEN failed THEN 'failure' ELSE 'success' END,
           jsonb_build_object('file_path', 'src/f' || (h / 7 %% 2000) || '.py'), '{}'::jsonb,
           now() - (h %% (50 * 24 * 60)) * interval '1 minute', now(),
           CASE WHEN failed THEN 'kind-' || (h / 3 %% 10) ELSE '' END,
           CASE WHEN failed THEN (%(patterns)s::bigint[])[1 + h / 11 %% 20] END, 0
    FROM series
    RETURNING id, context, occurred_at
)
INSERT INTO outcomes_outcomefile (outcome_id, path, occurred_at)
SELECT id, context ->> 'file_path', occurred_at FROM inserted
"""


def _plans_of(query: HistoryQuery) -> list[tuple[str, list[dict]]]:
    """The plan of each statement the history ran on the ledger, as the ORM ran it (planned on
    every run, so with its values)."""
    with statements_run() as run:
        history_items(query, Limits.from_settings())
    return [
        (sql, custom_plan(sql, params))
        for sql, params in run
        if any(table in sql for table in TABLES)
    ]


QUERIES = [
    {},
    {"task_type": "type-3"},
    {"task_id": "task-17", "files": ("src/f5.py", "src/f6.py")},
    {"error_type": "kind-2", "error_message": "error kind 4 at db-9"},
]
# A bitmap scan reads every row its keys match before sorting them: fine for a key as narrow as
# one task's attempts, not for an agent's whole history. Its estimate must stay under this.
BITMAP_ROWS_MAX = 1000


# Each statement of the history (outcomes.history) is a UNION of bounded reads, each made for
# one index (see Outcome.Meta.indexes): the first reads the agent's recent outcomes (of one task
# type when asked) and the task's earlier attempts, the second one read per related-task key,
# whose ids the outer read takes by primary key. A part is known by the column it ranges over
# (quoted or not).
PART_INDEXES = [
    (r'\bagent"? = ', "outcome_agent_recent_idx"),
    (r'\btask_id"? = ', "outcome_task_recent_idx"),
    (r'\bpath"? = ', "outcome_file_recent_idx"),
    (r'\bpattern_id"? = ', "outcome_pattern_recent_idx"),
    (r'\berror_type"? >= ', "outcome_error_recent_idx"),
]


def _expected_indexes(sql: str) -> set[str]:
    found = {index for marker, index in PART_INDEXES if re.search(marker, sql)}
    if re.search(r'\bagent"? = ', sql) and re.search(r'\btask_type"? = ', sql):
        found = found - {"outcome_agent_recent_idx"} | {"outcome_agent_type_recent_idx"}
    assert found, f"unexpected read: {sql}"
    return found | ({"outcomes_outcome_pkey"} if re.search(r'\bid"? IN \(', sql) else set())


def _uses(node: dict, index: str) -> bool:
    if node["Node Type"] in ("Index Scan", "Index Only Scan"):
        return node["Index Name"] == index
    if node["Node Type"] == "Bitmap Heap Scan" and node["Plan Rows"] <= BITMAP_ROWS_MAX:
        return {
            child["Index Name"]
            for child in nodes_of(node)
            if child["Node Type"] == "Bitmap Index Scan"
        } == {index}
    return False


def test_every_history_read_is_a_bounded_index_scan(ledger):
    for params in QUERIES:
        plans = _plans_of(HistoryQuery(agent="agent-7", **params))
        # The first read, then (with a task, files or an error to relate to) the keys' read.
        assert len(plans) == (2 if set(params) - {"task_type"} else 1), params
        for sql, nodes in plans:
            indexes = _expected_indexes(sql)
            on_tables = [node for node in nodes if node.get("Relation Name") in TABLES]
            assert on_tables, sql
            for node in on_tables:
                assert any(_uses(node, index) for index in indexes), (
                    indexes,
                    node["Node Type"],
                    node.get("Index Name"),
                    node.get("Plan Rows"),
                    sql,
                )
            # Every part through its own index (the primary key only joins the keys' ids).
            used = {index for node in nodes for index in indexes if _uses(node, index)}
            assert indexes - {"outcomes_outcome_pkey"} <= used, (indexes, used, sql)
