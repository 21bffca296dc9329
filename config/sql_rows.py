"""Rows read by raw SQL, their values turned into Python as the ORM turns them: JSON columns come
back as text (Django decodes them in JSONField.from_db_value)."""
import weakref

from django.db import DEFAULT_DB_ALIAS, connection, connections

# Each connection's conversions per (fields, start): finding them walks every field's metadata,
# which costs more than converting a few rows.
_known: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def row_converters(fields, *, start: int = 0) -> list[tuple]:
    """``(position, convert, column)`` for every conversion the ORM applies to ``fields`` read in
    this order from position ``start`` on (found once per connection)."""
    kept = _known.setdefault(connections[DEFAULT_DB_ALIAS], {})
    key = (tuple(fields), start)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _converters(key[0], start)
    return found


def _converters(fields: tuple, start: int) -> list[tuple]:
    found = []
    for position, field in enumerate(fields, start=start):
        column = field.get_col(field.model._meta.db_table)
        converters = (connection.ops.get_db_converters(column)
                      + field.get_db_converters(connection))
        found.extend((position, convert, column) for convert in converters)
    return found


def converted(row, converters: list) -> tuple:
    """``row`` with ``converters`` (from row_converters) applied."""
    if not converters:
        return row
    row = list(row)
    for position, convert, column in converters:
        row[position] = convert(row[position], column, connection)
    return tuple(row)
