"""PostgreSQL's plans of the statements the code runs, with their values (custom_plan): what the
server runs for statements bound on the client, which are planned on every run. Boot's one
prepared read (failures.queries) is EXPLAINed the same way, with the values it ran with."""
import json
from contextlib import contextmanager

from django.db import connection


def fill(sql: str, params: dict, *tables: str) -> None:
    """Run a statement that generates rows, then ANALYZE ``tables``: the planner then plans
    for as many rows as the statement made, as it would on a large installation."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("; ".join(f"ANALYZE {table}" for table in tables))


@contextmanager
def statements_run():
    """Collect ``(sql, params)`` of every statement run inside, as the code passed them."""
    seen = []

    def record(execute, sql, params, many, context):
        seen.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def nodes_of(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes_of(child)


def custom_plan(sql: str, params) -> list[dict]:
    """Every node of the plan PostgreSQL makes for ``sql`` with these values."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        return _nodes_of_explained(cursor.fetchone()[0])


def _nodes_of_explained(found) -> list[dict]:
    plan = (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]
    return list(nodes_of(plan))
