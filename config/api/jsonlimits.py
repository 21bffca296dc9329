"""Checks on decoded JSON that the database would otherwise reject with a 500.

PostgreSQL refuses NUL characters in text and jsonb, UTF-8 cannot encode lone surrogates, no
column holds a number beyond the float range, and deeply nested documents are a cheap way to
exhaust a server. Pure functions, no Django.
"""

import math

MAX_DEPTH = 20


class BadNumber:
    """A number JSON can spell but nothing can store (``1e400``, ``NaN``, ``-Infinity``, an
    integer of thousands of digits), kept as it was written. Decoding yields it instead of
    failing, so the check that walks the document names where it is: for a bulk request, in
    which item."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"BadNumber({self.text[:20]!r})"


def decode_float(text: str):
    """A JSON number with a fraction or exponent: a float, or a BadNumber outside the range."""
    value = float(text)
    return value if math.isfinite(value) else BadNumber(text)


def decode_int(text: str):
    """A JSON integer: an int, or a BadNumber past the digits Python converts (4,300)."""
    try:
        return int(text)
    except ValueError:
        return BadNumber(text)


def json_problem(
    value, *, max_depth: int = MAX_DEPTH, depth: int = 1, check_values: bool = True
) -> tuple[str, str] | None:
    """Return ``(path, message)`` for the first unstorable part of ``value``, or None.

    ``depth`` is the level ``value`` sits at (a body is level 1, its fields' values level 2).
    Walks iteratively, so a hostile document cannot exhaust the recursion limit here.
    ``check_values=False`` checks the depth only, not text and numbers.
    """
    # Each entry: (item, its parent's entry or None, its key or index, its level). The path
    # is spelled only for a problem: most documents have none.
    stack: list[tuple] = [(value, None, None, depth)]
    while stack:
        entry = stack.pop()
        item, _parent, _key, level = entry
        if isinstance(item, (dict, list)):
            if level > max_depth:
                return _path(entry), f"JSON is nested deeper than {max_depth} levels."
            if isinstance(item, dict):
                for key, child in item.items():
                    problem = text_problem(key) if check_values else None
                    if problem:
                        return _path(entry), f"A key {problem}"
                    stack.append((child, entry, key, level + 1))
            else:
                for index, child in enumerate(item):
                    stack.append((child, entry, index, level + 1))
        elif not check_values:
            continue
        elif isinstance(item, str):
            problem = text_problem(item)
            if problem:
                return _path(entry), f"The text {problem}"
        elif isinstance(item, BadNumber):
            return _path(entry), number_problem(item)
    return None


def _path(entry: tuple) -> str:
    """The dotted path of a json_problem entry (``context.files.2``), "body" at the top."""
    keys = []
    while entry[1] is not None:
        keys.append(str(entry[2]))
        entry = entry[1]
    return ".".join(reversed(keys)) or "body"


def number_problem(number: BadNumber) -> str:
    """What is wrong with a number no column can hold."""
    # A 5,000-digit integer quoted whole would make the message longer than the field.
    shown = number.text if len(number.text) <= 30 else number.text[:20] + "..."
    return f"The number {shown} is not finite or is out of range."


def text_problem(text: str) -> str | None:
    """Say why ``text`` cannot be stored, or return None when it can."""
    if "\x00" in text:
        return "contains a NUL character."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode (unpaired surrogate)."
    return None
