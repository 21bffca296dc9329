"""The whole-text scan: apply the rules of :mod:`.rules` to a text, then tidy its blanks.

``scan`` makes one pass with the combined rule scanner and calls a small handler per match;
``tidy`` normalises blanks line by line and folds runs of adjacent variables into one.
:func:`.normalise.template_of` is ``tidy(scan(message))``, computed piecewise when it can.

Multi-line messages keep their lines: a Python traceback keeps ``Traceback (most recent call
last):``, its ``File "<*>", line <*>, in func`` frames, the source lines and the exception
line, with paths, line numbers and values masked; a PostgreSQL ``DETAIL:`` line keeps its
wording and loses its values (``Key (email)=<*> already exists.``).
"""

import re

from .letters import is_random_id
from .rules import ACTIONS, BLANKS, KEEP, MASK, SCANNER, WILDCARD, WILDCARD_RUN

_CAMEL = re.compile(r"[a-z][A-Z]")


def _quoted_value(text: str) -> str:
    """``key: 'value'`` -> ``key: <*>``; a key that itself holds a digit becomes ``<*>:``."""
    quote = min(i for i in (text.find("'"), text.find('"')) if i >= 0)
    key = text[:quote]
    if any(ch.isdigit() for ch in key):
        key = WILDCARD + key[key.rindex(":") :]
    return key + WILDCARD


def _host_port(text: str) -> str:
    """``host.name:443`` -> ``<*>``, but
    ``state.clipTopAmount:180`` -> ``state.clipTopAmount:<*>``."""
    name = text[: text.rindex(":")]
    return f"{name}:{WILDCARD}" if _CAMEL.search(name) else WILDCARD


def _letter_id(text: str) -> str:
    """A random id of letters (``req_AbCdEfGhIjKlMnOp``) -> ``<*>``; a word or name stays."""
    return WILDCARD if is_random_id(text) else text


_HANDLERS = {
    KEEP: lambda text: text,
    MASK: lambda text: WILDCARD,
    "quoted_value": _quoted_value,
    "host_port": _host_port,
    "letter_id": _letter_id,
}
_HANDLER_OF_RULE = {name: _HANDLERS[action] for name, action in ACTIONS.items()}


def _replace(match) -> str:
    return _HANDLER_OF_RULE[match.lastgroup](match.group())


def scan(text: str) -> str:
    """Every rule applied, in one pass; blanks untouched."""
    return SCANNER.sub(_replace, text)


def tidy(text: str) -> str:
    """Blanks -> one space per line, empty lines dropped, adjacent variables folded."""
    if "\n" not in text:
        return fold(BLANKS.sub(" ", text).strip())
    lines = (BLANKS.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(fold(line) for line in lines if line)


def fold(line: str) -> str:
    """Runs of adjacent variables -> one variable (``<*> <*>``, ``<*>, <*>``, ``<*> (<*>)``)."""
    # A run needs a variable followed by a blank or a comma: skip the regex pass without one.
    if f"{WILDCARD} " in line or f"{WILDCARD}," in line:
        return WILDCARD_RUN.sub(WILDCARD, line)
    return line
