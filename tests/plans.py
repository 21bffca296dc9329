"""PostgreSQL's plans of the statements the code runs, as the server will run them.

Statements run through Django's own cursors (the ORM's included) are planned on every run, with
their values (custom_plan). A statement run through a cursor that binds on the server may be
prepared and then reuse one generic plan: ``generic_plan`` prepares it on the test's connection
and ``EXPLAIN EXECUTE`` shows the plan PostgreSQL keeps for it, whatever the parameters.
"""
import json
import re
from contextlib import contextmanager

import psycopg
from django.db import connection
from psycopg._queries import PostgresQuery
from psycopg.adapt import Transformer

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%s")
_PROBE = b"plan_probe"  # the name of the statement generic_plan prepares


def fill(sql: str, params: dict, *tables: str) -> None:
    """Run a statement that generates rows, then ANALYZE ``tables``: the planner then plans
    for as many rows as the statement made, as it would on a large installation."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("; ".join(f"ANALYZE {table}" for table in tables))


@contextmanager
def statements_run(*, prepared_only: bool = False):
    """Collect ``(sql, params)`` of every statement run inside, as the code passed them; with
    ``prepared_only``, of those run through cursors that bind on the server only (Django's own
    bind on the client)."""
    seen = []

    def record(execute, sql, params, many, context):
        if not prepared_only or not isinstance(context["cursor"].cursor, psycopg.ClientCursor):
            seen.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def nodes_of(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes_of(child)


def custom_plan(sql: str, params) -> list[dict]:
    """Every node of the plan PostgreSQL makes for ``sql`` with these values (a statement run
    through Django's own cursors, planned on every run)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        return _nodes_of_explained(cursor.fetchone()[0])


def generic_plan(sql: str, params) -> list[dict]:
    """Every node of the generic plan PostgreSQL keeps for ``sql`` once it is prepared.

    The statement is prepared as psycopg prepares it (the same text and parameter types) but not
    run again: a write run twice could break a constraint, and undoing it would make psycopg
    forget every statement it prepared on the connection."""
    query = PostgresQuery(Transformer(connection.connection))
    query.convert(sql, params)
    pgconn = connection.connection.pgconn
    prepared = pgconn.prepare(_PROBE, query.query, param_types=query.types)
    assert prepared.status == psycopg.pq.ExecStatus.COMMAND_OK, prepared.get_error_message()
    values = ([params[name] for name in dict.fromkeys(
        m.group(1) for m in _PLACEHOLDER.finditer(sql))] if isinstance(params, dict)
        else list(params or []))
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            args = "(" + ", ".join(["%s"] * len(values)) + ")" if values else ""
            cursor.execute(f"EXPLAIN (FORMAT JSON) EXECUTE {_PROBE.decode()}{args}", values)
            return _nodes_of_explained(cursor.fetchone()[0])
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DEALLOCATE {_PROBE.decode()}")


def _nodes_of_explained(found) -> list[dict]:
    plan = (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]
    return list(nodes_of(plan))
