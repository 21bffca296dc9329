"""The one cursor the project opens besides Django's own."""

from django.db import connection
from django.db.backends.postgresql.base import ServerBindingCursor


def prepared_cursor():
    """Django's cursor over one that binds parameters on the server, so psycopg prepares its
    statement once it has run DATABASES' prepare_threshold times on a connection and PostgreSQL
    stops planning it per request; opened by Django's own steps (health check, errors, logging).
    For the raw statements of the queries modules, each run on every request of its endpoint."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = ServerBindingCursor(connection.connection)  # type: ignore[call-arg]  # django-stubs declare this psycopg Cursor subclass without its psycopg base, hence without its constructor
        return connection._prepare_cursor(cursor)  # type: ignore[attr-defined]  # Django's own wrapping of a new cursor (thread check, query logging), a private method django-stubs leave out
