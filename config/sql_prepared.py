"""Cursors for the hot paths' raw statements, whose plans PostgreSQL keeps per connection.

Django's PostgreSQL cursors bind parameters on the client: each statement reaches the server as
new text and is parsed and planned anew. For a hot statement of a few fixed shapes that costs
more than running it (the check's ranking statement on the bench data: ~0.3 ms planning, ~0.1 ms
running). A cursor that binds parameters on the server lets psycopg prepare a statement once it
has run ``prepare_threshold`` times on a connection (5 by default), after which PostgreSQL reuses
one generic plan for it (the connection's ``plan_cache_mode``, see settings). Used by the
outcome and failure writes; tests read the plans kept for them (tests.plans). ``DB_PREPARE_THRESHOLD=off`` turns this off (behind a connection pooler that
cannot keep prepared statements, such as PgBouncer's transaction mode before its 1.21).

A generic plan knows no parameter's value, so a statement that needs a partial index writes
the index's condition as a literal (``status = 'open'``), never as a parameter.

Results come back in binary, so timestamps are decoded in C rather than parsed from text (a
check reads ~100 of them); JSON still arrives as text, as Django's cursors hand it over, and
every other type as the same Python value.

Statements run through Django's cursor wrapper, so they are logged and counted like any other.
"""
from contextlib import contextmanager

import psycopg
from django.db import connection
from psycopg.adapt import Loader
from psycopg.pq import Format


class _JsonbText(Loader):
    """jsonb in binary, handed over as its text (after the one-byte format version)."""

    format = Format.BINARY

    def load(self, data):
        return bytes(data[1:]).decode()


class _JsonText(Loader):
    """json in binary is its text."""

    format = Format.BINARY

    def load(self, data):
        return bytes(data).decode()


class PreparingCursor(psycopg.Cursor):
    """psycopg's cursor that binds on the server (so psycopg may prepare its statements),
    asking for results in binary, JSON still as text."""

    def __init__(self, conn, **kwargs):
        super().__init__(conn, **kwargs)
        self.adapters.register_loader("jsonb", _JsonbText)
        self.adapters.register_loader("json", _JsonText)

    def execute(self, query, params=None, *, prepare=None, binary=True):
        return super().execute(query, params, prepare=prepare, binary=binary)


@contextmanager
def prepared_cursor():
    """A cursor whose statements psycopg prepares after a few runs (see the module), opened as
    Django opens its own: health check, connection, database errors as Django's."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        raw = PreparingCursor(connection.connection)
    wrapped = (connection.make_debug_cursor(raw) if connection.queries_logged
               else connection.make_cursor(raw))
    try:
        yield wrapped
    finally:
        raw.close()
