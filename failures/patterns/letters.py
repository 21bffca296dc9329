"""Which letter-only tokens are random ids (``req_AbCdEfGhIjKlMnOp``), not words or names.

A token holding a digit is a value by the ``number`` rule. Ids drawn from an alphabet of
letters and digits (base62: provider request ids, call ids, session tokens) hold no digit
now and then (a 24-character base62 id about one time in 70), and would split their fault
into one pattern per id. Such a run is told from a word or a name by two traits at once:

* **both cases**, since a random base62 run is mixed case while words, ``snake_case`` and
  ``ALL_CAPS`` names are not (``CamelCase`` is, and is told apart by the next trait);
* **letter pairs that words do not make**: in words and names, nearly every letter that
  follows another (within a word: after a lowercase or capital letter) makes a pair from
  :data:`_COMMON_PAIRS`; in a random run most pairs are other pairs. Pairs that end on a
  capital are not counted (``nR`` in ``ConnectionRefused``, ``LR`` in ``XMLRPC``): they are
  the seams of ``CamelCase`` and acronyms, not letters inside a word.

CamelCase made only of words of three letters or more (``KafkaBackend``, ``SqlJinjaLexer``)
is a name whatever its pairs: a random run nearly always has a one- or two-letter "word".

An id after a lowercase prefix (``req_``, ``call_``, ``sk_live_``, ``chatcmpl-``) needs a
little less evidence: a name rarely puts a long mixed-case run after such a prefix.
"""

import re
from functools import lru_cache
from itertools import pairwise

# Letter pairs frequent inside English words, by first letter: the 250 most frequent pairs in
# the English comments of the Python standard library and common packages, which make about
# 95% of the letter pairs of those words.
_COMMON_PAIRS = frozenset(
    first + second
    for first, seconds in (
        line.split()
        for line in """
    a bcdgiklmnprstuxy
    b aeijlorsu
    c acehiklortu
    d adeilorsu
    e acdefgilmnopqrstvwxy
    f aefilortu
    g aehilnorsu
    h aeiort
    i abcdefglmnoprstvxz
    j e
    k ei
    l adeilostuy
    m abeimopsu
    n acdefgiklnopstuv
    o abcdfgiklmnoprstuvw
    p aehiloprstuy
    q u
    r acdegiklmnorstuvy
    s acehiklopstuy
    t acehilorstuy
    u abceilmnprst
    v aei
    w aeior
    x ceipt
    y npst
    z e
""".strip().splitlines()
    )
    for second in seconds
)

# A run shorter than this is left alone: short mixed-case names (``getX``, ``iPhone``,
# ``NoSuchKey``) are common and a few letters are no evidence. Base62 ids are 14-30 long.
MIN_LENGTH = 12
# The same after an id prefix (``req_``): the prefix is evidence of its own.
PREFIXED_MIN_LENGTH = 10
# Share of counted pairs outside _COMMON_PAIRS. A random run has about 0.6, names about 0.1.
# At 0.4, random runs of 16 / 24 letters are caught 86% / 92% of the time (after a prefix:
# 91% / 98%); of the 37,000 letter-only names with a mixed-case part of 10 letters or more
# in the Python standard library and common packages, only struct formats and alphabets
# (``bBhHiIlLqQ``) are. A lower share catches more ids and names too (``VpcEndpointId``).
RARE_SHARE = 0.4
PREFIXED_RARE_SHARE = 0.3
# Fewer counted pairs than this is too little evidence to call a run random.
MIN_PAIRS = 4

_PARTS = re.compile(r"[_\-]")
# The words of a mixed-case run: acronyms, and lowercase runs with their capital.
_CAMEL_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def _rare_share(run: str) -> float | None:
    """Share of a run's in-word letter pairs that are not common; None when too few pairs."""
    pairs = [(a + b).lower() for a, b in pairwise(run) if b.islower()]
    if len(pairs) < MIN_PAIRS:
        return None
    return sum(pair not in _COMMON_PAIRS for pair in pairs) / len(pairs)


def _random(run: str, min_length: int, share: float) -> bool:
    if len(run) < min_length or not run.isalpha() or run.islower() or run.isupper():
        return False
    if all(len(word) >= 3 for word in _CAMEL_WORDS.findall(run)):
        return False  # CamelCase of whole words (``KafkaBackend``), however foreign they look
    rare = _rare_share(run)
    return rare is not None and rare >= share


# Names come back in message after message; ids seldom do. 2**14 tokens: well under 1 MB.
@lru_cache(maxsize=1 << 14)
def is_random_id(token: str) -> bool:
    """True for a letter-only token that is a random id, or that holds one between ``_``/``-``."""
    parts = _PARTS.split(token)
    prefix, tail = parts[:-1], parts[-1]
    if (
        prefix
        and all(part.isalpha() and part.islower() for part in prefix)
        and _random(tail, PREFIXED_MIN_LENGTH, PREFIXED_RARE_SHARE)
    ):
        return True
    return any(_random(part, MIN_LENGTH, RARE_SHARE) for part in parts)
