"""Message -> template: variables become ``<*>``, the wording of the message stays.

``template_of(message)`` is ``tidy(scan(message))`` (see :mod:`.scan`): deterministic and
state-free. The caches below only make it faster; they never change a template.

Piecewise, for speed. A one-line message whose only blanks are spaces is cut at every blank
that no rule can reach across (:data:`.rules.BRIDGES`). Each piece (one token, or the few
tokens a bridge holds together, such as ``1190 bytes``) is scanned on its own, and the
template is the pieces' templates joined by spaces, folded. Pieces are cached by their digit
shape (every ASCII digit read as ``1``): no rule tells one digit from another, except
http_status with ``[1-5]``, which ``1`` passes and which keeps its digits. So a piece and its
shape match the same rules over the same spans, and their templates are equal unless the
shape's template kept a digit (a ``1``): then the piece itself is scanned (``eth0``,
``HTTP 404``). ``blk_-160...`` or ``#2025`` costs one scan per shape, not one per value.
A message with a character that is not printable (a tab, a line break, another blank than
the space, a control character) or with a token that may open a value holding blanks (a
quote, ``=(``: :data:`.rules.OPENS_SPAN`) is scanned whole.
"""

import re
from functools import lru_cache
from itertools import pairwise

from .rules import BRIDGES, OPENS_SPAN
from .scan import fold, scan, tidy

# Repeated messages are the common case in a failure stream (the same fault, many times).
# 2**16 entries bound the memory to a few tens of MB in the worst case of long messages.
CACHE_SIZE = 1 << 16
# Pieces (words, value shapes) remembered, per cache: several times the distinct pieces of a
# day of one service's messages. A full cache is emptied: cheaper than LRU bookkeeping on
# every hit, and the common pieces come back within a few messages.
PIECE_CACHE_SIZE = 1 << 16

_SHAPE = bytes.maketrans(b"0123456789", b"1" * 10)
_BRIDGE_ENDS = [re.compile(rf"(?:{end})\Z") for _, end, _ in BRIDGES]
_BRIDGE_STARTS = [re.compile(start) for _, _, start in BRIDGES]
# Flag beside the bridge bits of ``starts``: the shape's template kept a digit.
_EXACT = 1 << len(BRIDGES)

# shape (UTF-8) -> (starts, ends, template): bit i of starts / ends set when the token starts /
# ends like bridge i; template None when it is not the shape's (``_EXACT``) or when the token
# opens a value with blanks (no flag: scan the message whole).
_Entry = tuple[int, int, str | None]
_shapes: dict[bytes, _Entry] = {}
_exact: dict[str, str] = {}  # pieces whose template keeps a digit -> template


def _remember(cache: dict, key, value):
    if len(cache) >= PIECE_CACHE_SIZE:
        cache.clear()
    cache[key] = value
    return value


def _learn(shape: bytes) -> _Entry:
    """Classify and scan one token shape; remember it."""
    token = shape.decode()
    if OPENS_SPAN.search(token):
        return _remember(_shapes, shape, (0, 0, None))
    starts = sum(1 << i for i, rx in enumerate(_BRIDGE_STARTS) if rx.match(token))
    ends = sum(1 << i for i, rx in enumerate(_BRIDGE_ENDS) if rx.search(token))
    template = scan(token)
    if "1" in template:  # a digit was kept: the shape's template is not the token's
        return _remember(_shapes, shape, (starts | _EXACT, ends, None))
    return _remember(_shapes, shape, (starts, ends, template))


def _piecewise(message: str) -> str | None:
    """The template from cached token templates; ``None`` if the message must be scanned whole."""
    if not message.isprintable():  # a blank other than the space, or a control character
        return None
    shapes = message.encode().translate(_SHAPE).split()
    parts = []
    ends = 0
    for shape in shapes:
        starts, next_ends, template = _shapes.get(shape) or _learn(shape)
        if starts & ends or template is None:  # bridged to the previous token, or not plain
            return _by_segments(message, shapes)
        ends = next_ends
        parts.append(template)
    return fold(" ".join(parts))


def _by_segments(message: str, shapes: list[bytes]) -> str | None:
    """Slower piecewise path: bridged tokens scanned together, kept digits scanned exactly."""
    starts_at = []  # index of the first token of each piece
    ends = 0
    for i, shape in enumerate(shapes):
        starts, next_ends, template = _shapes.get(shape) or _learn(shape)
        if template is None and not starts & _EXACT:
            return None  # opens a value with blanks
        if not starts & ends:
            starts_at.append(i)
        ends = next_ends
    if "  " in message and len(starts_at) < len(shapes):
        return None  # the scanner would see the blanks between bridged tokens as they are
    tokens = message.split()  # aligned with shapes: the only blank is the space
    bounds = pairwise([*starts_at, len(shapes)])
    return fold(" ".join(_piece(tokens[a:b], shapes[a:b]) for a, b in bounds))


def _piece(tokens: list[str], shapes: list[bytes]) -> str:
    """Template of a token, or of bridged tokens, scanned on its own (via its shape if exact)."""
    entry: _Entry | None
    if len(shapes) == 1:
        entry = _shapes.get(shapes[0]) or _learn(shapes[0])
    else:  # keyed by the joined shapes; only its template is ever looked up
        key = b" ".join(shapes)
        entry = _shapes.get(key)
        if entry is None:
            template = scan(key.decode())
            entry = _remember(_shapes, key, (0, 0, None if "1" in template else template))
    if entry[2] is not None:
        return entry[2]
    text = " ".join(tokens)
    return _exact.get(text) or _remember(_exact, text, scan(text))


@lru_cache(maxsize=CACHE_SIZE)
def template_of(message: str) -> str:
    """Normalise one message into its template (variables replaced by ``<*>``)."""
    template = _piecewise(message)
    return tidy(scan(message)) if template is None else template


def clear_caches() -> None:
    """Forget every cached message and piece (for benchmarks and tests)."""
    template_of.cache_clear()
    _shapes.clear()
    _exact.clear()
