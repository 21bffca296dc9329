"""The write path's statements keep a write cheap on a large ledger: closing a task's open
failures probes the open-only index, counting a pattern's new agents probes the (pattern, agent)
index. None may scan a whole table, whatever the batch's size, nor may the plan a connection
keeps for a statement it runs prepared (config.database).
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.store.patterns import pattern_for_message
from outcomes.services import outcomes_parse, outcomes_record
from tests.plans import custom_plan, fill, generic_plan, statements_run

pytestmark = pytest.mark.django_db
ROWS = 50_000
BIG_TABLES = {"failures_failure", "outcomes_outcome", "outcomes_outcomefile"}

GENERATE = """
WITH failed AS (
    INSERT INTO failures_failure (occurred_at, recorded_at, agent, task, task_description,
        task_type, skill_name, title, error, error_type, side_effects, recovery_hint,
        attempt_count, status, resolved_at, pattern_id)
    SELECT now() - n * interval '1 minute', now(), 'agent-' || (n %% 50), 'task-' || n, '',
           'sync', '', '', 'disk full on host', 'io', '[]', '', 1,
           CASE WHEN n %% 10 = 0 THEN 'open' ELSE 'resolved' END,
           CASE WHEN n %% 10 = 0 THEN NULL ELSE now() END, %(pattern)s
    FROM generate_series(1, %(rows)s) AS n
    RETURNING id, occurred_at, agent, task, pattern_id
)
INSERT INTO outcomes_outcome (digest, task_id, agent, task_type, outcome, context, result,
    occurred_at, recorded_at, error_type, failure_id, pattern_id, resolved_failures)
SELECT '', task, agent, 'sync', 'failure', '{}', '{}', occurred_at, now(), 'io', id,
       pattern_id, 0
FROM failed
"""


@pytest.fixture
def ledger():
    pattern = pattern_for_message(message="disk full on host")
    fill(GENERATE, {"rows": ROWS, "pattern": pattern.pk}, "failures_failure", "outcomes_outcome")


def batch() -> list:
    """Successes that close stored open failures, new failures of a stored and a new pattern
    (some from agents new to it), with files."""
    at = (timezone.now() - timedelta(minutes=1)).isoformat()
    raw = [
        {
            "agent": f"agent-{n % 50}",
            "task_id": f"task-{n}",
            "task_type": "sync",
            "outcome": "success",
            "occurred_at": at,
            "context": {"file_path": f"src/m{n}.py"},
        }
        for n in range(10, 200, 10)
    ]
    raw += [
        {
            "agent": f"agent-{n}",
            "task_id": f"new-{n}",
            "task_type": "sync",
            "outcome": "failure",
            "occurred_at": at,
            "context": {
                "error_type": "io",
                "error_message": "disk full on host"
                if n % 2
                else f"quota exceeded for bucket b{n}",
            },
        }
        for n in range(40, 60)
    ]
    return [item for item, errors in outcomes_parse(raw_items=raw)]


def test_every_statement_of_a_write_probes_indexes(ledger):
    with statements_run() as run:
        recorded = outcomes_record(items=batch())
    assert {r.status for r in recorded} == {"created"}
    assert any(r.outcome.resolved_failures for r in recorded)
    kinds, prepared = set(), set()
    for sql, params in run:
        if sql.split()[0] not in ("SELECT", "INSERT", "UPDATE"):
            continue  # savepoints
        nodes = custom_plan(sql, params)
        if sql in run.prepared:
            nodes += generic_plan(sql, params)
            prepared.add(sql.split()[0])
        kinds.add(sql.split()[0])
        scans = [
            (n["Node Type"], n["Relation Name"])
            for n in nodes
            if n.get("Relation Name") in BIG_TABLES and "Scan" in n["Node Type"]
        ]
        assert all(kind != "Seq Scan" for kind, _ in scans), (scans, sql)
    assert {"INSERT", "UPDATE", "SELECT"} <= kinds and {"INSERT", "UPDATE"} <= prepared
