"""How well a lesson's ``error_pattern`` fits an error message. Pure, no Django.

A pattern is a slug (``api_429_rate_limit``), a phrase (``connection refused``) or a template
with ``<*>`` wildcards (``Twilio API timeout after <*> seconds``). Both sides are normalised the
same way (lower case, one kind of quote, ids and long numbers as placeholders) and read as
words; identifiers stay whole (``read_url`` is one word, never ``url``), except that a slug is
its words.

Two kinds of fit, the stronger first:

* ``template``: the pattern aligns with the message in order: a template's literal parts, each a
  contiguous run of words, in place around its wildcards; a phrase or slug as one contiguous run
  (a slug may also occur whole). One generic word alone is no template fit.
* ``words``: the message holds at least MIN_WORD_SHARE of the pattern's distinctive words, in
  the pattern's order (a slug's in any order); a word the pattern repeats counts once. Generic
  words (GENERIC: function words and the vocabulary every error shares, such as ``failed``,
  ``authentication``, ``timeout``) never make this fit, and the words that say which kind of a
  generic fault it is (``statement timeout``, ``secondary rate limit``) must name the same kind
  in the message.

Either way the pattern's literal distinctive tokens must be in the message: its names (dotted
and underscored identifiers) whole, quoted names quoted (``'cv2'``), codes holding a digit
(``429``) whole, CamelCase classes as a word or its start (``ExpiredToken``), and the parts of
words glued to a wildcard (``+cu<*>``) in place.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from failures.patterns import HTTP_STATUS

# Normalisation rules, applied in order; each replaces a kind of variable value with a placeholder.
_RULES = [
    # Quotes of every kind as one, so that 'cv2', "cv2" and `cv2` read alike.
    ("quote", re.compile(r"[\"`\u2018\u2019\u201c\u201d]"), "'"),
    # A quoted path names the same file with or without a leading ./ or a trailing slash, and
    # with a doubled slash inside (``config//agent.yaml``); a URL's ``://`` stays.
    ("relative", re.compile(r"(?<=')(?:\./)+(?=[^'\s/])"), ""),
    ("trailing slash", re.compile(r"(?<=[^'\s/])/+(?=')"), ""),
    ("doubled slash", re.compile(r"(?<=\w)//+(?=\w)"), "/"),
    # UUIDs (any version), before the hex rule would eat their groups.
    (
        "uuid",
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
        "<id>",
    ),
    # 0x-prefixed hex, and bare hex runs of 8+ characters holding a digit (hashes, object ids).
    ("hex", re.compile(r"\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b"), "<id>"),
]
# Numbers, except an HTTP status code the pattern engine keeps literal (failures.patterns.rules
# HTTP_STATUS: after HTTP, status or code, or before its reason phrase): 401 and 403 call for
# different fixes, while a port or a count is a value.
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_HTTP_STATUS = re.compile(HTTP_STATUS, re.IGNORECASE)
WILDCARD = "<*>"
# A word: a placeholder, or a run of letters, digits and underscores (identifiers stay whole).
_WORD = re.compile(r"<[a-z*]+>|\w+")
# A slug: lower-case words joined by underscores, nothing else.
_SLUG = re.compile(r"[^\W_]+(?:_[^\W_]+)+")
# A quoted name in a pattern: what a library quotes is the thing the fault is about.
_QUOTED = re.compile(r"'([^'\s]+)'")
# A dotted identifier (module path, host name): one literal however many words it has.
_DOTTED = re.compile(r"\w+(?:\.\w+)+")

# Words every kind of error shares: function words, log levels, the vocabulary of failure itself
# and the outcomes many faults share (refused, denied, expired...). They never make a ``words``
# fit and are not distinctive; a pattern made only of them fits by template or not at all.
# fmt: off
GENERIC = frozenset([
    # function words, pronouns, log levels and the vocabulary of failure
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "from", "by", "with", "without", "and",
    "or", "but", "nor", "not", "no", "is", "are", "was", "were", "be", "been", "being", "am",
    "has", "have", "had", "do", "does", "did", "this", "that", "these", "those", "it", "its", "as",
    "into", "onto", "than", "then", "there", "their", "which", "who", "whom", "what", "when",
    "where", "while", "after", "before", "during", "due", "per", "via", "over", "under", "about",
    "again", "also", "any", "all", "some", "each", "other", "such", "only", "very", "can", "could",
    "cannot", "couldn", "should", "would", "will", "shall", "may", "might", "must", "unable",
    "please", "try", "retry", "retrying", "later", "got", "get", "gets", "expected", "given",
    "found", "error", "errors", "err", "exception", "exceptions", "failed", "fail", "fails",
    "failure", "failures", "fatal", "warning", "warn", "critical", "info", "debug", "notice",
    "traceback", "most", "recent", "call", "last", "raise", "raised", "unexpected", "unknown",
    "you", "your", "yours", "we", "our", "us", "i", "me", "my", "they", "them", "he", "she", "his",
    "her", "him", "here", "now", "just", "still", "yet", "more", "less", "much", "many", "few",
    "used", "using", "same", "first",
    # outcomes many faults share
    "refused", "denied", "reset", "expired", "exceeded", "aborted", "closed", "interrupted",
    "canceled", "cancelled", "rejected", "unavailable", "exist", "exists", "missing", "required",
    # what requests and their errors are about
    "occurred", "occur", "invalid", "timeout", "timeouts", "timed", "out", "authentication",
    "auth", "request", "requests", "response", "code", "status", "message", "reason", "detail",
    "details", "value", "http", "https", "connection", "connect", "server", "client", "service",
    "user", "host", "port", "file", "line", "operation", "process", "api",
])
# fmt: on
# Generic nouns a fault has several kinds of: the distinctive word just before one names the
# kind, and the message must name the same kind there (``statement timeout`` is not ``lock
# timeout``, though the message says "canceling statement" elsewhere).
KIND_HEADS = frozenset({"timeout", "timeouts", "lock", "locks", "limit", "limits"})
# How far before its head a message may name the kind, past generic words ("Twilio API timeout"),
# and how many words before it a pattern's kind may have ("secondary rate limit").
KIND_REACH = 3
# A words fit needs at least this share of the pattern's distinctive words in the message, in
# order: three of four, two of three, both of two; one name shared out of several is another
# fault.
MIN_WORD_SHARE = 0.6
# The weight of a generic word in a fit's size (how specific the fitting pattern is), against 1
# for a distinctive one: a longer generic run says less than one more name.
GENERIC_WEIGHT = 0.25

TEMPLATE, WORDS = "template", "words"
NO_KINDS: frozenset[tuple[str, str]] = frozenset()  # one shared empty set: most patterns name none

# The patterns compiled most recently, kept between checks: those of the lessons that messages
# come close to fitting (lessons.match_index keeps a sketch of every other one). At 100,000
# lessons, 2,000 of the bench's checks hit a cache of 1,024 nearly as often as one of 4,096
# (3,057 hits against 3,492) in the same time per check, and it holds 5 MB less.
CACHE_SIZE = 1 << 10


def normalise(text: str) -> str:
    """Lower-case ``text``, unify quotes, and replace ids and numbers (but HTTP status codes)
    with placeholders."""
    text = text.lower()
    for _name, pattern, placeholder in _RULES:
        text = pattern.sub(placeholder, text)
    statuses = [match.span() for match in _HTTP_STATUS.finditer(text)]
    return _NUMBER.sub(
        lambda number: (
            number.group()
            if any(start <= number.start() < end for start, end in statuses)
            else "<num>"
        ),
        text,
    )


def distinctive(word: str) -> bool:
    """A word that can tell one fault from another: no placeholder, no generic word, two
    characters or more."""
    return len(word) > 1 and not word.startswith("<") and word not in GENERIC


@dataclass(frozen=True)
class Run:
    """A contiguous run of pattern words; its first word may end a message word (a wildcard
    glued before it) and its last may begin one (a wildcard glued after it)."""

    words: tuple[str, ...]
    open_start: bool = False
    open_end: bool = False


@dataclass(frozen=True)
class CompiledPattern:
    """A pattern prepared once for fitting many messages."""

    runs: tuple[Run, ...]  # in order; between two runs stands a wildcard
    gaps: tuple[int, ...]  # least message words each wildcard between runs stands for
    slug: str | None  # a slug, which may also occur whole as one message word
    words: tuple[str, ...]  # every literal word, in order
    sequence: tuple[str, ...]  # the distinctive whole words, in order
    names: tuple[str, ...]  # dotted and underscored identifiers, which must occur whole
    codes: tuple[str, ...]  # words holding a digit, which must occur whole
    classes: tuple[str, ...]  # CamelCase names, which must begin a message word
    quoted: tuple[str, ...]  # quoted names, which must occur quoted
    fragments: tuple[tuple[str, bool], ...]  # (part of a word glued to a wildcard, at its start)
    kinds: frozenset[tuple[str, str]]  # (kind, head) word pairs the message must name
    size: float  # how specific the pattern is (see GENERIC_WEIGHT)
    anchored: frozenset[str]  # words a template fit finds as whole message words
    distinctive: frozenset[str]  # the words of ``sequence``


@dataclass(frozen=True)
class Message:
    """A message prepared once for fitting many patterns."""

    normal: str
    words: tuple[str, ...]
    word_set: frozenset[str]
    kinds: frozenset[tuple[str, str]]  # (kind, head) it names (see KIND_HEADS)


@dataclass(frozen=True)
class Fit:
    kind: str  # TEMPLATE or WORDS
    score: float  # the share of the pattern's distinctive words found (1.0 for a template)
    size: float  # how specific the fitting pattern is: more specific fits rank first


def prepare_message(message: str) -> Message:
    normal = normalise(message)
    words = tuple(_WORD.findall(normal))
    return Message(normal, words, frozenset(words), frozenset(_message_kinds(words)))


def _message_kinds(words) -> list[tuple[str, str]]:
    """(kind, head) for each head word and each distinctive word within KIND_REACH before it."""
    return [
        (kind, word)
        for i, word in enumerate(words)
        if word in KIND_HEADS
        for kind in words[max(0, i - KIND_REACH) : i]
        if distinctive(kind)
    ]


@lru_cache(maxsize=CACHE_SIZE)
def compile_pattern(pattern: str) -> CompiledPattern:
    normal = normalise(pattern).strip()
    slug = normal if _SLUG.fullmatch(normal) else None
    runs, gaps = _runs(normal.replace("_", " ") if slug else normal)
    words = tuple(word for run in runs for word in run.words)
    whole = [
        (word, i, run)
        for run in runs
        for i, word in enumerate(run.words)
        if not (i == 0 and run.open_start) and not (i == len(run.words) - 1 and run.open_end)
    ]
    fragments = tuple(
        (word, i == 0 and run.open_start)
        for run in runs
        for i, word in enumerate(run.words)
        if (i == 0 and run.open_start) or (i == len(run.words) - 1 and run.open_end)
    )
    anchored = {word for word, _i, _run in whole} | ({slug} if slug else set())
    quoted = tuple(
        dict.fromkeys(
            f"'{name}'"
            for name in _QUOTED.findall(normal)
            if WILDCARD not in name and len(name) > 1
        )
    )
    size = sum(1.0 if distinctive(word) else GENERIC_WEIGHT for word in words)
    names, codes, classes = _literals(pattern, normal, slug)
    sequence = tuple(word for word, _i, _run in whole if distinctive(word))
    return CompiledPattern(
        runs,
        gaps,
        slug,
        words,
        sequence,
        names,
        codes,
        classes,
        quoted,
        tuple(dict.fromkeys(fragments)),
        _kinds(runs),
        size,
        frozenset(anchored),
        frozenset(sequence),
    )


def _kinds(runs) -> frozenset[tuple[str, str]]:
    """(kind, head): the distinctive words that run right up to a head word in the pattern."""
    found = set()
    for run in runs:
        for i, word in enumerate(run.words):
            if word not in KIND_HEADS:
                continue
            for kind in reversed(run.words[max(0, i - KIND_REACH) : i]):
                if not distinctive(kind) or kind in KIND_HEADS:
                    break
                if kind.isalpha():  # a code before it (429) is a literal token already
                    found.add((kind, word))
    return frozenset(found) if found else NO_KINDS


def _runs(normal: str) -> tuple[tuple[Run, ...], tuple[int, ...]]:
    """The literal parts between wildcards as runs of words, and the least number of message
    words each inner wildcard stands for (one when it stands apart, none when glued to a word:
    then it may be part of that word)."""
    parts = normal.split(WILDCARD)
    runs: list[Run] = []
    gaps: list[int] = []
    pending_gap = None
    for i, part in enumerate(parts):
        found = _WORD.findall(part)
        if not found:
            continue
        glued_before = i > 0 and bool(re.match(r"\w", part))
        glued_after = i < len(parts) - 1 and bool(re.search(r"\w$", part))
        if runs:
            gaps.append(0 if glued_before or pending_gap else 1)
        runs.append(Run(tuple(found), glued_before, glued_after))
        pending_gap = glued_after
    return tuple(runs), tuple(gaps)


# A name written in CamelCase (an error code or class: ``ExpiredToken``, ``OOMKilled``).
_CAMEL = re.compile(r"(?<![\w<])(?=\w*(?:[a-z][A-Z]|[A-Z]{2}[a-z]))\w+(?![\w>])")


def _literals(pattern: str, normal: str, slug: str | None) -> tuple[tuple[str, ...], ...]:
    """The literal tokens of a pattern a message must hold (see the module docstring): names
    (dotted and underscored identifiers), codes (words holding a digit) and CamelCase classes;
    of a slug, only its codes."""
    if slug:
        return (), tuple(word for word in slug.split("_") if _has_digit(word)), ()
    names = [text for text in _DOTTED.findall(normal) if len(text) > 1]
    classes = [name.lower() for part in pattern.split(WILDCARD) for name in _CAMEL.findall(part)]
    codes = []
    parts = normal.split(WILDCARD)
    for i, part in enumerate(parts):
        words = list(re.finditer(r"<[a-z*]+>|\w+", part))
        for j, match in enumerate(words):
            word = match.group()
            glued = (j == 0 and i > 0 and match.start() == 0) or (
                j == len(words) - 1 and i < len(parts) - 1 and match.end() == len(part)
            )
            if glued or word.startswith("<") or word in classes:
                continue
            if "_" in word.strip("_"):
                names.append(word)
            elif _has_digit(word):
                codes.append(word)
    return tuple(dict.fromkeys(names)), tuple(dict.fromkeys(codes)), tuple(dict.fromkeys(classes))


def _has_digit(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _holds(message: Message, token: str) -> bool:
    """Whether ``token`` occurs in the message whole (not inside a longer word)."""
    if token in message.word_set:
        return True
    if _WORD.fullmatch(token):
        return False
    return re.search(rf"(?<!\w){re.escape(token)}(?!\w)", message.normal) is not None


def names_held(compiled: CompiledPattern, message: Message) -> bool:
    """Whether the message names what the pattern names: its identifiers whole, its quoted
    names quoted (another module, file or host is another fault). A quoted relative path
    (``'config/agent.yaml'``) is also held by a path that ends with it
    (``'/work/app/config/agent.yaml'``): the same file seen from another directory."""
    return all(_holds(message, name) for name in compiled.names) and all(
        _quoted_held(message, name) for name in compiled.quoted
    )


def names_apply(compiled: CompiledPattern, template: str) -> bool:
    """Whether a message of a pattern linked to the lesson must name what the lesson's pattern
    names (names_held): when the linked pattern's ``template`` is a wording of the lesson's
    pattern, holding MIN_WORD_SHARE of its distinctive words other than its names, or when the
    pattern has no other words. Another wording altogether, which a writer sent with the lesson
    or the fleet linked to it, says the fault in its own words: OpenAI's ``'tool_call_id'``
    where Anthropic's message, and the lesson's pattern, say ``tool_use``."""
    named = {word for name in compiled.names + compiled.quoted for word in _WORD.findall(name)}
    others = compiled.distinctive - named
    if not (compiled.names or compiled.quoted) or not others:
        return True
    held = others.intersection(_WORD.findall(normalise(template)))
    return len(held) >= MIN_WORD_SHARE * len(others)


def _quoted_held(message: Message, name: str) -> bool:
    if name in message.normal:
        return True
    return "/" in name and not name.startswith("'/") and f"/{name[1:]}" in message.normal


def literals_held(compiled: CompiledPattern, message: Message) -> bool:
    """Whether the message holds every literal distinctive token of the pattern: its names
    (names_held), its codes whole, its classes (as a word or the start of one, ExpiredToken in
    ExpiredTokenException), and the parts of words glued to its wildcards."""
    if not (
        compiled.names
        or compiled.quoted
        or compiled.codes
        or compiled.classes
        or compiled.fragments
    ):  # most patterns: nothing to look for
        return True
    return (
        names_held(compiled, message)
        and all(code in message.word_set for code in compiled.codes)
        and all(any(word.startswith(name) for word in message.words) for name in compiled.classes)
        and all(
            any(
                word.endswith(part) if at_start else word.startswith(part)
                for word in message.words
            )
            for part, at_start in compiled.fragments
        )
    )


def fit(compiled: CompiledPattern, message: Message) -> Fit | None:
    """How ``compiled`` fits the message, or None."""
    if not compiled.words:
        return None
    if compiled.slug and compiled.slug in message.word_set:
        return Fit(TEMPLATE, 1.0, compiled.size)
    if not literals_held(compiled, message):
        return None
    words = message.words
    if compiled.classes:  # a message word a class begins reads as the class
        words = tuple(
            next((name for name in compiled.classes if word.startswith(name)), word)
            for word in words
        )
    # Without classes, both fits need their words among the message's: a set test first
    # rules out most patterns before aligning them.
    plain = not compiled.classes
    if (not plain or compiled.anchored <= message.word_set or compiled.slug) and _aligned(
        compiled, words
    ):
        return Fit(TEMPLATE, 1.0, compiled.size)
    if not compiled.sequence or not compiled.kinds <= message.kinds:
        return None
    # A word the pattern says twice is one word of the fault, counted once: "certificate" of
    # "certificate verify failed: unable to get local issuer certificate" is not two thirds of
    # what an expired certificate's message shares with it.
    held = len(compiled.distinctive.intersection(message.word_set if plain else words))
    if held < MIN_WORD_SHARE * len(compiled.distinctive):
        return None
    # A slug names a fault with its words, in whatever order; a phrase or template says them
    # in order.
    found = held if compiled.slug else min(held, _in_order(compiled.sequence, words))
    shared = found / len(compiled.distinctive)
    if shared < MIN_WORD_SHARE or (shared < 1 and _replaced(compiled, message)):
        return None
    return Fit(WORDS, shared, compiled.size)


# The most message words that may stand where a pattern has one word it misses ("violates
# foreign key constraint" for "violates unique constraint").
REPLACED_SPAN = 3


def _replaced(compiled: CompiledPattern, message: Message) -> bool:
    """Whether the message says another thing where the pattern says a distinctive word the
    message lacks: the words on both sides of it, in the message with one to REPLACED_SPAN
    words between them, one of them distinctive and not the pattern's ("used with the same
    parameters they" against "used for the same endpoint they"). The missing word tells the
    two faults apart, so the rest fitting says nothing."""
    words = message.words
    for run in compiled.runs:
        for k in range(1, len(run.words) - 1):
            word = run.words[k]
            if not distinctive(word) or word in message.word_set:
                continue
            before, after = run.words[k - 1], run.words[k + 1]
            for at, other in enumerate(words):
                if other != before:
                    continue
                for end in range(at + 2, min(at + 2 + REPLACED_SPAN, len(words))):
                    if words[end] == after and any(
                        distinctive(w) and w not in compiled.words for w in words[at + 1 : end]
                    ):
                        return True
    return False


def _in_order(sequence: tuple[str, ...], words: tuple[str, ...]) -> int:
    """How many of ``sequence`` occur in ``words`` in the same order (longest common
    subsequence), reading only the message words the sequence holds.

    Computed bit-parallel (Allison and Dix; Hyyro): bit j of ``row`` stands for the j-th of
    those message words, and each pattern word updates the whole row of the dynamic programme
    at once; the zero bits count the common subsequence."""
    wanted = set(sequence)
    at: dict[str, int] = {}  # each word's positions among the words read, as bits
    n = 0
    for word in words:
        if word in wanted:
            at[word] = at.get(word, 0) | 1 << n
            n += 1
    full = (1 << n) - 1
    row = full
    for word in sequence:
        matched = row & at.get(word, 0)
        row = ((row + matched) | (row - matched)) & full
    return n - row.bit_count()


def _aligned(compiled: CompiledPattern, words: tuple[str, ...]) -> bool:
    """A template fit: the runs in order, as contiguous word runs, each wildcard in between
    standing for at least its gap; one generic word alone does not count."""
    if len(compiled.words) == 1 and not compiled.distinctive:
        return False
    at = 0
    for i, run in enumerate(compiled.runs):
        if i:
            at += compiled.gaps[i - 1]
        found = _find_run(run, words, at)
        if found is None:
            return False
        at = found + len(run.words)
    return True


def _find_run(run: Run, words: tuple[str, ...], start: int) -> int | None:
    """The first position from ``start`` where the run occurs in ``words``."""
    n, last = len(run.words), len(run.words) - 1
    for at in range(start, len(words) - n + 1):
        for k, word in enumerate(run.words):
            other = words[at + k]
            if other == word:
                continue
            if k == 0 and run.open_start and other.endswith(word):
                continue
            if k == last and run.open_end and other.startswith(word):
                continue
            break
        else:
            return at
    return None


def match_fit(pattern: str, message: str) -> Fit | None:
    """How ``pattern`` fits ``message`` (see the module docstring), or None."""
    return fit(compile_pattern(pattern), prepare_message(message))
