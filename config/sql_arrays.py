"""Rows as one array per column, for PostgreSQL's ``unnest``: a batch of any size is a statement
with one parameter per column, and values go as they are, with no per-value field conversion.

JSON columns travel as text and are cast to ``jsonb`` in the statement.
"""
import json

from django.db import connection
from django.db.models import NOT_PROVIDED


def unnest_source(fields: list, rows: list) -> tuple[str, list]:
    """``SELECT * FROM unnest(...)`` over ``rows`` (objects with each field's attname) and its
    parameters, one list per field."""
    casts, params = [], []
    for field in fields:
        values = [getattr(row, field.attname) for row in rows]
        db_type = field.db_type(connection)
        if field.get_internal_type() == "JSONField":
            casts.append(f"%s::text[]::{db_type}[]")
            values = [None if value is None else json.dumps(value) for value in values]
        else:
            casts.append(f"%s::{db_type}[]")
        params.append(values)
    return "SELECT * FROM unnest({})".format(", ".join(casts)), params


def inserted_fields(model) -> list:
    """The columns an insert sets: all but the primary key and those with a database default."""
    return [field for field in model._meta.concrete_fields
            if not field.primary_key and field.db_default is NOT_PROVIDED]
