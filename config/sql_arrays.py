"""Rows as one array per column, for PostgreSQL's ``unnest``: a batch of any size is a statement
with one parameter per column, and values go as they are, with no per-value field conversion.

JSON columns travel as text and are cast to ``jsonb`` in the statement.
"""
import json
from functools import lru_cache

from django.db import connection
from django.db.models import NOT_PROVIDED


def unnest_source(fields: list, rows: list) -> tuple[str, list]:
    """``SELECT * FROM unnest(...)`` over ``rows`` (objects with each field's attname) and its
    parameters, one list per field."""
    call, params = unnest_call(fields, rows)
    return f"SELECT * FROM {call}", params


def unnest_call(fields: list, rows: list, *, also: tuple[str, ...] = ()) -> tuple[str, list]:
    """``unnest(...)`` over ``rows``, one column per field, and its parameters; ``also``: the
    SQL types of more array parameters, after the fields' (the caller adds their values)."""
    source, kinds = _source(tuple(fields), also)
    params = []
    for field, is_json in kinds:
        values = [getattr(row, field.attname) for row in rows]
        if is_json:
            values = [None if value is None else json.dumps(value) for value in values]
        params.append(values)
    return source, params


@lru_cache(maxsize=64)
def _source(fields: tuple, also: tuple[str, ...] = ()) -> tuple[str, tuple]:
    """The statement's text and, per field, whether it is JSON: the same for every batch of
    these fields (working out each field's database type costs more than a one-row batch)."""
    casts, kinds = [], []
    for field in fields:
        db_type = field.db_type(connection)
        is_json = field.get_internal_type() == "JSONField"
        casts.append(f"%s::text[]::{db_type}[]" if is_json else f"%s::{db_type}[]")
        kinds.append((field, is_json))
    casts += [f"%s::{db_type}[]" for db_type in also]
    return "unnest({})".format(", ".join(casts)), tuple(kinds)


def inserted_fields(model) -> list:
    """The columns an insert sets: all but the primary key and those with a database default."""
    return [field for field in model._meta.concrete_fields
            if not field.primary_key and field.db_default is NOT_PROVIDED]
