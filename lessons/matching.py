"""How well a lesson's ``error_pattern`` matches an error message. Pure, no Django.

A pattern is either a slug (``api_429_rate_limit``), a phrase (``connection refused``) or a template
with ``<*>`` wildcards (``Twilio API timeout after <*> seconds``). Both sides are normalised the
same way (ids and long numbers become placeholders) and compared as text, then as word sets.
"""
import re
from dataclasses import dataclass
from functools import lru_cache

# Normalisation rules, applied in order; each replaces a kind of variable value with a placeholder.
_RULES = [
    # UUIDs (any version), before the hex rule would eat their groups.
    ("uuid", re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<id>"),
    # 0x-prefixed hex, and bare hex runs of 8+ characters holding a digit (hashes, object ids).
    ("hex", re.compile(r"\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b"), "<id>"),
    # Numbers, except three-digit 100-599, which are usually HTTP status codes and must stay
    # literal (401 and 403 call for different fixes).
    ("number", re.compile(r"\b(?![1-5]\d\d\b)\d+(?:\.\d+)?\b"), "<num>"),
]
_WORD = re.compile(r"<[a-z]+>|[a-z0-9]+")
# A message matches a slug or phrase when at least this share of the pattern's words occur in it:
# "api_429_rate_limit" matches "429 Too Many Requests: rate limit hit" (3 of 4 words), while one
# shared generic word out of four does not.
MIN_WORD_SHARE = 0.6


# Large enough to hold every lesson's error_pattern of a big installation: a check scores all
# of them against one message, so the patterns' normal forms must stay cached between checks.
CACHE_SIZE = 1 << 17


@lru_cache(maxsize=CACHE_SIZE)
def normalise(text: str) -> str:
    """Lower-case ``text`` and replace ids and numbers with placeholders."""
    text = text.lower()
    for _name, pattern, placeholder in _RULES:
        text = pattern.sub(placeholder, text)
    return text


@lru_cache(maxsize=CACHE_SIZE)
def _pattern_regex(pattern: str) -> re.Pattern | None:
    if "<*>" not in pattern:
        return None
    parts = [re.escape(normalise(part)) for part in pattern.split("<*>")]
    return re.compile(r".+?".join(parts), re.DOTALL)


@lru_cache(maxsize=CACHE_SIZE)
def words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(normalise(text).replace("_", " ")))


@dataclass(frozen=True)
class CompiledPattern:
    """A pattern prepared once for scoring many messages."""

    normal: str
    regex: re.Pattern | None
    words: frozenset[str]


def compile_pattern(pattern: str) -> CompiledPattern:
    return CompiledPattern(normalise(pattern), _pattern_regex(pattern),
                           words(pattern.replace("<*>", " ")))


def score(compiled: CompiledPattern, normal_message: str, message_words: frozenset[str]) -> float:
    """Like match_score, for a compiled pattern and a message normalised by the caller."""
    if compiled.regex is not None:
        if compiled.regex.search(normal_message):
            return 1.0
    elif compiled.normal in normal_message:
        return 1.0
    if not compiled.words:
        return 0.0
    return len(compiled.words & message_words) / len(compiled.words)


def match_score(pattern: str, message: str) -> float:
    """Return 1.0 for a full match of ``pattern`` in ``message``, else the share of its words found."""
    return score(compile_pattern(pattern), normalise(message), words(message))
