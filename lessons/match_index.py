"""A per-process index of lesson patterns, so a check scores messages without reading every row.

A message check compares the message with lessons' error_patterns. Reading every lesson from
the database per check costs milliseconds per thousand lessons (decoding rows dominates), so
each process keeps the patterns in memory as bit sets (see lessons.match_table) and rebuilds
them when the version token changes. Writers that add lessons or change what the index holds
call ``match_index_bump`` (see lessons.services, lessons.curation), which gives the one row of
MatchIndexVersion a new token in the writer's own transaction: other processes see the token
when they can see the lessons, never before. A message check reads the token in its ranking
statement (lessons.check_sql), so it needs no read of its own to learn that its index is
current; when it was not, the check rebuilds the index and asks again. The index does not
depend on the cache: with Redis down, a lesson written is found by the next check.

A lesson matches a message when ``matching.score`` gives it at least MIN_WORD_SHARE and the
message holds one of the pattern's rarest words (see ``_keys``; a pattern without words needs
none). A pattern that reaches the threshold by its words always holds one, so this only leaves
out whole-text matches that share none of those words, as filing patterns under them always did.
The rows that are ranked and returned are read fresh from the database.
"""
import math
import threading
import uuid
from typing import NamedTuple

from django.db import connection

from .match_table import _WORD, Table, _normalise, full_match, ordinals_of, to_bits
from .matching import MIN_WORD_SHARE
from .models import Lesson, MatchIndexVersion

BUILD_CHUNK = 2000  # rows read at a time while building: the rows never all sit in memory


class Entry(NamedTuple):  # a tuple: a check builds a few dozen (a frozen dataclass costs ~3x)
    ordinal: int  # position in the index
    pk: object
    skill_name: str | None
    approved: bool


class MatchIndex:
    """The non-rejected lessons' patterns, as of ``version`` (the token it was built for;
    keys caches that depend on lessons)."""

    def __init__(self, version: str | None, table: Table, pks: bytes):
        self.version, self.table, self._pks = version, table, pks
        self._skill_names = {skill: name for name, skill in table.skill_ids.items()}

    def entry(self, i: int) -> Entry:
        table = self.table
        return Entry(i, uuid.UUID(bytes=self._pks[i * 16:i * 16 + 16]),
                     self._skill_names[table.skills[i]], bool(table.approved[i]))

    def matches(self, message: str, *, skill_name: str | None):
        """``(entry, score)`` of the lessons whose pattern matches ``message`` at MIN_WORD_SHARE
        (approved first, then by score)."""
        for _flag, score, bits in self._groups(message, skill_name, approved_only=False):
            for i in ordinals_of(bits):
                yield self.entry(i), score

    def best_matches(self, message: str, *, skill_name: str | None, limit: int,
                     approved_only: bool, most: int) -> list:
        """The matches that can reach a ``limit``-long answer ranked by (approved, score): those
        at least as high as the ``limit``-th, ties included (later keys decide among them), at
        most ``most``; best first."""
        chosen, total, groups = [], 0, self._groups(message, skill_name, approved_only)
        for _flag, score, bits in groups:
            chosen.extend((i, score) for i in ordinals_of(bits, max(most, limit) - len(chosen)))
            total += bits.bit_count()
            if total >= limit:
                # All of them when there are no more than ``limit`` matches in all.
                if total > limit or next(groups, None) is not None:
                    chosen = chosen[:most]
                break
        return [(self.entry(i), score) for i, score in chosen]

    def _groups(self, message: str, skill_name: str | None, approved_only: bool):
        """``(approved, score, bit set)`` of the matches, best first, one per (approved, score)."""
        table = self.table
        normal = _normalise(message)
        tokens = set(_WORD.findall(normal.replace("_", " ")))
        shared = {table.vocabulary[t] for t in tokens if t in table.vocabulary}
        counted = _add(table, [0] * table.planes, shared)
        allowed = table.skill_mask(skill_name)
        planes = counted if allowed is None else [plane & allowed for plane in counted]
        whole = self._whole(normal, tokens, shared, counted, skill_name, approved_only)
        equal: dict[int, int] = {}  # shared-word count -> lessons with that count
        for flag in (True,) if approved_only else (True, False):
            for score, pairs in table.levels:
                bits = 0
                for n, k in pairs:
                    if k not in equal:
                        equal[k] = _equal(planes, k)
                    bits |= equal[k] & table.size_sets[n]
                bits &= table.flag_sets[flag]
                if whole:  # whole-text matches score 1.0 whatever their words
                    bits = bits | (whole & table.flag_sets[flag]) if score == 1.0 else \
                        bits ^ (bits & whole)
                if bits:
                    yield flag, score, bits

    def _whole(self, normal, tokens, shared, counted, skill_name, approved_only) -> int:
        """The lessons below a 1.0 word share whose text the message holds whole (and which count
        as candidates, see the module docstring): only those whose every word is in a message
        word are tried. Wordless patterns are tried on every message."""
        table = self.table
        inner = set().union(*map(table.inner_words, tokens)) - shared
        found = []
        if inner:
            # Bit j of each lesson's word count differs from bit j of its size: not all shared.
            beyond, by_words = 0, 0
            for plane, more, size in zip(counted, _add(table, counted, inner), table.size_planes):
                by_words |= plane ^ size
                beyond |= more ^ size
            tried = by_words ^ beyond  # all words inside message words, not all message words
            allowed = table.skill_mask(skill_name)
            if allowed is not None:
                tried &= allowed
            if approved_only:
                tried &= table.flag_sets[True]
            for i in ordinals_of(tried):
                if full_match(table.literals[i], normal) and self._candidate(i, shared):
                    found.append(i)
        skill = table.skill_ids.get(skill_name, -1) if skill_name else None
        for i in table.wordless:
            if skill is not None and table.skills[i] not in (0, skill):
                continue
            if (table.approved[i] or not approved_only) and full_match(table.literals[i], normal):
                found.append(i)
        return to_bits(found, table.size) if found else 0

    def _candidate(self, i: int, shared: set[int]) -> bool:
        table = self.table
        n = table.starts[i + 1] - table.starts[i]
        words = table.words[table.starts[i]:table.starts[i + 1]]
        if sum(w in shared for w in words) / n >= MIN_WORD_SHARE:
            return True
        return table.keys_shared(i, shared, math.ceil(MIN_WORD_SHARE * n - 1e-9))


def _add(table: Table, planes: list[int], words) -> list[int]:
    """The bit-sliced count ``planes`` with one more for each lesson holding each of ``words``."""
    planes = list(planes)
    for w in words:
        carry = table.word_set(w)
        for j, plane in enumerate(planes):
            planes[j] = plane ^ carry
            carry &= plane
            if not carry:
                break
    return planes


def _equal(planes: list[int], k: int) -> int:
    """The lessons whose count in ``planes`` is ``k`` (k >= 1)."""
    bits = None
    for j, plane in enumerate(planes):
        if k >> j & 1:
            bits = plane if bits is None else bits & plane
    for j, plane in enumerate(planes):
        if not k >> j & 1:
            bits ^= bits & plane
    return bits


_lock = threading.Lock()
_state: dict = {"index": MatchIndex(None, Table(()), b"")}


def match_index_bump() -> None:
    """Make every process rebuild its index once this transaction commits (this one's own
    checks at once)."""
    token = uuid.uuid4().hex
    rows = MatchIndexVersion.objects.filter(pk=MatchIndexVersion.ROW)
    if not rows.update(token=token):  # the row is gone (a flushed test database)
        MatchIndexVersion.objects.update_or_create(pk=MatchIndexVersion.ROW,
                                                   defaults={"token": token})


def match_index_token():
    """The current token, as a query of one value (none when the row is missing)."""
    return (MatchIndexVersion.objects.filter(pk=MatchIndexVersion.ROW)
            .values_list("token", flat=True))


def match_index_version_sql() -> str:
    """match_index_token as a scalar SQL subquery, for raw statements (NULL when none)."""
    quote = connection.ops.quote_name
    return (f"(SELECT {quote('token')} FROM {quote(MatchIndexVersion._meta.db_table)}"
            f" WHERE {quote('id')} = {MatchIndexVersion.ROW})")


def match_index() -> MatchIndex:
    """The index of non-rejected lessons, as of the current token (read here)."""
    version = _version()
    if version is None:
        match_index_bump()
        version = _version()
    return match_index_of(version)


def match_index_held() -> MatchIndex:
    """The index this process holds, its token unread: for a reader that reads the token with
    its own statement and compares it with ``version`` (then match_index_of)."""
    index = _state["index"]
    return index if index.version is not None else match_index()


def match_index_of(version: str | None) -> MatchIndex:
    """The index as of ``version``, a token just read: the held one, or built anew."""
    with _lock:
        if version is not None and version == _state["index"].version:
            return _state["index"]
    if version is None:
        return match_index()
    index = _build(version)
    with _lock:
        _state["index"] = index
    return index


def match_index_forget() -> None:
    """Drop this process's index: the next check builds it (for tests, whose rolled-back
    writes can bring an old token back)."""
    with _lock:
        _state["index"] = MatchIndex(None, Table(()), b"")


def _version() -> str | None:
    return match_index_token().first()


def _build(version) -> MatchIndex:
    rows = Lesson.objects.exclude(status=Lesson.Status.REJECTED).order_by("pk").values_list(
        "pk", "error_pattern", "skill_name", "status")
    pks = bytearray()

    def lessons():
        for pk, error_pattern, skill_name, status in rows.iterator(chunk_size=BUILD_CHUNK):
            pks.extend(pk.bytes)
            yield error_pattern, skill_name, status == Lesson.Status.APPROVED

    table = Table(lessons())
    return MatchIndex(version, table, bytes(pks))


def _keys(pattern_words, frequency) -> list[str]:
    """The rarest words of a pattern that any matching message must contain one of.

    A match shares at least ceil(MIN_WORD_SHARE * n) of the pattern's n words, so it misses at
    most n - that many; filing the pattern under one more than that, the rarest ones, means
    every matching message finds it, while common words ("error", "<num>") file nothing.
    (lessons.match_table keeps each pattern's words in this order: its first words are these.)
    """
    needed = math.ceil(MIN_WORD_SHARE * len(pattern_words) - 1e-9)
    keys = len(pattern_words) - needed + 1
    return sorted(pattern_words, key=lambda w: (frequency[w], w))[:keys]
