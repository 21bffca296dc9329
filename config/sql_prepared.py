"""Cursors for the hot paths' raw reads, whose plans PostgreSQL keeps per connection.

Django's PostgreSQL cursors bind parameters on the client: each statement reaches the server as
new text and is planned anew. For a hot read of a few fixed shapes, planning costs more than
running it (the check's ranking statement on the bench data: ~0.3 ms planning, ~0.1 ms running).
A cursor that binds parameters on the server lets psycopg prepare a statement once it has run
``prepare_threshold`` times on a connection (psycopg's default, 5), after which PostgreSQL reuses
its plan. ``DB_PREPARE_THRESHOLD=off`` turns this off (behind a connection pooler that cannot
keep prepared statements, such as PgBouncer's transaction mode before its 1.21).

Statements run through Django's cursor wrapper, so they are logged and counted like any other.
Other databases (the embedded SQLite) get Django's own cursor.
"""
from contextlib import contextmanager

from django.db import connection


@contextmanager
def prepared_cursor():
    """A cursor whose statements psycopg prepares after a few runs (see the module)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    import psycopg

    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)  # binds on the server, unlike Django's
    wrapped = (connection.make_debug_cursor(raw) if connection.queries_logged
               else connection.make_cursor(raw))
    try:
        yield wrapped
    finally:
        raw.close()
