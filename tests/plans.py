"""PostgreSQL's plans of the statements the code runs, with their values (custom_plan): what the
server runs for statements bound on the client, which are planned on every run. The prepared
statements of the queries modules (config.database) are EXPLAINed the same way, with the values
they ran with."""

import json
import re
from contextlib import contextmanager

from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor


def fill(sql: str, params: dict, *tables: str) -> None:
    """Run a statement that generates rows, then ANALYZE ``tables``: the planner then plans
    for as many rows as the statement made, as it would on a large installation."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("; ".join(f"ANALYZE {table}" for table in tables))


class Run(list):
    """``(sql, params)`` of each statement run, and ``prepared``: the texts of those run on a
    cursor that binds on the server (config.database), which a connection keeps prepared."""

    def __init__(self):
        super().__init__()
        self.prepared: set[str] = set()


@contextmanager
def statements_run():
    """Collect ``(sql, params)`` of every statement run inside, as the code passed them."""
    seen = Run()

    def record(execute, sql, params, many, context):
        seen.append((sql, params))
        if isinstance(context["cursor"].cursor, ServerBindingCursor):
            seen.prepared.add(sql)
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


def generic_plan(sql: str, params: list | dict) -> list[dict]:
    """Every node of the plan PostgreSQL makes for ``sql`` knowing none of its values: the plan
    a connection may keep for a prepared statement and run with any values."""
    if isinstance(params, dict):
        names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", sql)))
        numbered = re.sub(r"%\((\w+)\)s", lambda m: f"${names.index(m[1]) + 1}", sql)
        params = [params[name] for name in names]
    else:
        numbers = iter(range(1, len(params) + 1))
        numbered = re.sub(r"%s", lambda _: f"${next(numbers)}", sql)
    with connection.cursor() as cursor:
        cursor.execute("PREPARE plan_probe AS " + numbered)
        try:
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            values = ", ".join(["%s"] * len(params))
            cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE plan_probe ({values})", params)
            return _nodes_of_explained(cursor.fetchone()[0])
        finally:
            cursor.execute("RESET plan_cache_mode; DEALLOCATE plan_probe")


def _nodes_of_explained(found) -> list[dict]:
    plan = (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]
    return list(nodes_of(plan))
