"""Attribute values of OTLP spans as plain Python, and the refusal of a span that cannot be
used. No Django."""

import json
import math

from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from config.api.jsonlimits import BadNumber, decode_float, decode_int


class Unusable(ValueError):
    """A span that should become an outcome but cannot: the message says why, ``reason`` in a
    few words that group such refusals (no values in it)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def json_object(document: str, name: str):
    """A JSON text as Python, refusing numbers no column holds (NaN, Infinity, 1e999)."""
    try:
        decoded = json.loads(
            document, parse_constant=BadNumber, parse_float=decode_float, parse_int=decode_int
        )
    except (ValueError, RecursionError):
        raise Unusable(f"{name}: not a JSON object.", f"invalid {name}") from None
    if has_bad_number(decoded):
        raise Unusable(
            f"{name}: holds a number that is not finite or is out of range.",
            f"{name}: not a finite number",
        )
    return decoded


def has_bad_number(decoded) -> bool:
    """Whether a decoded JSON value holds a BadNumber anywhere."""
    stack = [decoded]
    while stack:
        item = stack.pop()
        if isinstance(item, BadNumber):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def text(attributes: dict, name: str) -> str:
    """A text attribute ("" when absent); a number is taken as its digits."""
    found = value(attributes, name)
    if found is None:
        return ""
    if isinstance(found, int) and not isinstance(found, bool):
        return str(found)
    if not isinstance(found, str):
        raise Unusable(f"{name}: expected a string.", f"invalid {name}")
    return found.strip()


def value(attributes: dict, name: str):
    """An attribute as JSON-like Python (None when absent)."""
    found = attributes.get(name)
    return None if found is None else python(found, name)


def python(any_value: AnyValue, name: str):
    """An AnyValue as JSON-like Python: arrays as lists, key-value lists as dicts; a number no
    column holds (NaN, infinities) refuses the span."""
    kind = any_value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [python(item, name) for item in any_value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: python(kv.value, name) for kv in any_value.kvlist_value.values}
    if kind == "bytes_value":
        return any_value.bytes_value.hex()
    if kind == "double_value" and not math.isfinite(any_value.double_value):
        raise Unusable(
            f"{name}: {any_value.double_value} is not a finite number.",
            f"{name}: not a finite number",
        )
    return getattr(any_value, kind)
