"""Message -> template: variables become ``<*>``, the wording of the message stays.

``template_of`` is deterministic and state-free (a cache of recent messages only makes it
faster). It scans the message once with the combined rule scanner from :mod:`.rules`, then
normalises blanks line by line and folds runs of adjacent variables into one.

Multi-line messages keep their lines: a Python traceback keeps ``Traceback (most recent call
last):``, its ``File "<*>", line <*>, in func`` frames, the source lines and the exception
line, with paths, line numbers and values masked; a PostgreSQL ``DETAIL:`` line keeps its
wording and loses its values (``Key (email)=<*> already exists.``).
"""
import re
from functools import lru_cache

from .rules import ACTIONS, BLANKS, KEEP, MASK, SCANNER, WILDCARD, WILDCARD_RUN

# Repeated messages are the common case in a failure stream (the same fault, many times).
# 2**16 entries bound the memory to a few tens of MB in the worst case of long messages.
CACHE_SIZE = 1 << 16

_CAMEL = re.compile(r"[a-z][A-Z]")


def _quoted_value(text: str) -> str:
    """``key: 'value'`` -> ``key: <*>``; a key that itself holds a digit becomes ``<*>:``."""
    quote = min(i for i in (text.find("'"), text.find('"')) if i >= 0)
    key = text[:quote]
    if any(ch.isdigit() for ch in key):
        key = WILDCARD + key[key.rindex(":"):]
    return key + WILDCARD


def _host_port(text: str) -> str:
    """``host.name:443`` -> ``<*>``, but ``state.clipTopAmount:180`` -> ``state.clipTopAmount:<*>``."""
    name = text[:text.rindex(":")]
    return f"{name}:{WILDCARD}" if _CAMEL.search(name) else WILDCARD


_HANDLERS = {
    KEEP: lambda text: text,
    MASK: lambda text: WILDCARD,
    "quoted_value": _quoted_value,
    "host_port": _host_port,
}
_HANDLER_OF_RULE = {name: _HANDLERS[action] for name, action in ACTIONS.items()}


def _replace(match) -> str:
    return _HANDLER_OF_RULE[match.lastgroup](match.group())


def _tidy(text: str) -> str:
    """Blanks -> one space per line, empty lines dropped, adjacent variables folded."""
    if "\n" not in text:
        return WILDCARD_RUN.sub(WILDCARD, BLANKS.sub(" ", text).strip())
    lines = (BLANKS.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(WILDCARD_RUN.sub(WILDCARD, line) for line in lines if line)


@lru_cache(maxsize=CACHE_SIZE)
def template_of(message: str) -> str:
    """Normalise one message into its template (variables replaced by ``<*>``)."""
    return _tidy(SCANNER.sub(_replace, message))
