"""The walk of JSON-like values (``scrub_value``): every string through ``scrub_text``, keys
included, and a value under a key that names a secret (``keys.key_judgement``) redacted whole."""

from __future__ import annotations

from typing import Any

from .engine import scrub_text
from .keys import (
    cookie_holds_secret,
    is_pwd_path,
    key_judgement,
    names_no_secret,
    plainly_no_credential,
)
from .normalise import normalise
from .rule import MARKER_PREFIX, marker


def _redact_under_key(key: str, judged: tuple[str, bool], value: str) -> str:
    kind, strong = judged
    value = normalise(value)
    if not value or value.startswith(MARKER_PREFIX) or is_pwd_path(key, value):
        return scrub_text(value)
    if names_no_secret(value.strip()) or (not strong and plainly_no_credential(value)):
        return scrub_text(value)
    if kind == "cookie" and "=" in value and not cookie_holds_secret(value):
        return scrub_text(value)
    return marker(kind)


# Keys seen before and what they are: (the key scrubbed, its judgement).  Agents send the
# same few keys again and again; a key that held a secret is not kept here.  Cleared when full.
_KEYS_SEEN: dict[str, tuple[str, tuple[str, bool] | None]] = {}
_KEYS_SEEN_MAX = 4096


def _key(key: str) -> tuple[str, tuple[str, bool] | None]:
    """A dict key scrubbed, and the judgement of the key as sent (``key_judgement``)."""
    seen = _KEYS_SEEN.get(key)
    if seen is not None:
        return seen
    clean = scrub_text(key)
    found = (clean, key_judgement(normalise(key)))
    if clean == key:
        if len(_KEYS_SEEN) >= _KEYS_SEEN_MAX:
            _KEYS_SEEN.clear()
        _KEYS_SEEN[key] = found
    return found


# Keys of an entry that names its value elsewhere: {"name": "DB_PASSWORD", "value": "..."}
# (Kubernetes env lists, ECS task definitions, SSM parameters, .NET appSettings).
_NAME_KEYS = ("name", "Name", "key", "Key")
_VALUE_KEYS = ("value", "Value")


def _named_secret(src: dict) -> tuple[str, tuple[str, bool]] | None:
    """(value key, judgement) when ``src`` names a secret in a name key and holds its value."""
    for name_key in _NAME_KEYS:
        name = src.get(name_key)
        if isinstance(name, str):
            judged = key_judgement(normalise(name))
            if judged is not None:
                value_key = next((k for k in _VALUE_KEYS if k in src), None)
                return (value_key, judged) if value_key is not None else None
    return None


def _private_key_lines(items: list, converted: list) -> list:
    """A PEM private key split into list items (one line each): every line from BEGIN to END is
    redacted, not only the first."""
    inside = False
    for index, item in enumerate(items):
        if not isinstance(item, str):
            continue
        if not inside and "PRIVATE KEY" in item and "-----BEGIN" in item:
            inside = "-----END" not in item
        elif inside:
            converted[index] = marker("private_key")
            inside = "-----END" not in item
    return converted


def scrub_value(value: Any) -> Any:
    """Return a scrubbed copy of JSON-like ``value``; the input is not mutated.

    * ``str``: ``scrub_text``.
    * ``dict``: keys kept; a string under a secret-naming key (see
      ``secret_key_kind``) becomes ``[REDACTED:<kind>]``; numbers, bools and
      None under such keys are kept (a ``"token": 3`` counter is no secret);
      containers are walked.  Strings directly inside a *list* under a
      secret key are judged alike (``"set-cookie": ["sessionid=x", ...]``;
      a cookie that is plainly a preference, ``theme=dark``, is kept, see
      ``keys.cookie_holds_secret``), while a nested dict is judged by its
      own keys.
    * ``list`` / ``tuple``: walked (both come back as lists, like JSON).
    * anything else (int, float, bool, None, unknown objects): returned as is.

    Implemented with an explicit work stack, not recursion, so depth never
    hits Python's recursion limit; already-copied containers are memoised by
    id, so shared references and even cycles are handled.
    """
    if isinstance(value, str):
        return scrub_text(value)
    if not isinstance(value, (dict, list, tuple)):
        return value

    copies: dict[int, Any] = {}
    # Work items: (source container, its copy, inherited secret (key, judgement)
    # or None).  The inherited judgement applies to strings directly in a list.
    stack: list[tuple[Any, Any, tuple[str, tuple[str, bool]] | None]] = []

    def copy_of(src: Any, inherited: tuple[str, tuple[str, bool]] | None) -> Any:
        existing = copies.get(id(src))
        if existing is not None:
            return existing
        dst: Any = {} if isinstance(src, dict) else []
        copies[id(src)] = dst
        stack.append((src, dst, inherited))
        return dst

    def convert(item: Any, secret: tuple[str, tuple[str, bool]] | None) -> Any:
        if isinstance(item, str):
            if secret is not None:
                return _redact_under_key(secret[0], secret[1], item)
            return scrub_text(item)
        if isinstance(item, dict):
            return copy_of(item, None)
        if isinstance(item, (list, tuple)):
            return copy_of(item, secret)
        return item

    root = copy_of(value, None)
    while stack:
        src, dst, inherited = stack.pop()
        if isinstance(src, dict):
            named = _named_secret(src) if len(src) <= 4 else None
            for key, item in src.items():
                judged = None
                if isinstance(key, str):
                    key, judged = _key(key)
                    while key in dst:  # two keys that differed only by a secret
                        key += "_"
                if named is not None and key == named[0]:
                    judged = named[1]
                if type(item) is str:  # the common case, without a call to convert
                    dst[key] = (
                        scrub_text(item)
                        if judged is None
                        else _redact_under_key(key, judged, item)
                    )
                else:
                    dst[key] = convert(item, None if judged is None else (key, judged))
        else:
            dst.extend([convert(item, inherited) for item in src])
            if any(type(item) is str and "PRIVATE KEY" in item for item in src):
                _private_key_lines(src, dst)
    return root
