"""Rows read by raw SQL, their values turned into Python as the ORM turns them: SQLite hands back
UUIDs as hex text and datetimes as text, and JSON columns come back as text on every database
(Django decodes them in JSONField.from_db_value). PostgreSQL needs nothing else."""
from django.db import connection


def row_converters(fields: list, *, start: int = 0) -> list[tuple]:
    """``(position, convert, column)`` for every conversion the ORM applies to ``fields`` read in
    this order from position ``start`` on."""
    found = []
    for position, field in enumerate(fields, start=start):
        column = field.get_col(field.model._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + field.get_db_converters(connection):
            found.append((position, convert, column))
    return found


def converted(row, converters: list) -> tuple:
    """``row`` with ``converters`` (from row_converters) applied."""
    if not converters:
        return row
    row = list(row)
    for position, convert, column in converters:
        row[position] = convert(row[position], column, connection)
    return tuple(row)
