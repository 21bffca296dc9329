"""A per-process index of lesson patterns, so a check fits a message without reading every row.

Each process keeps the non-rejected lessons' compiled patterns (lessons.matching) in memory, each
filed under a few of its words that any message it fits must hold (see ``_keys``), and rebuilds
them when the version token changes. Writers that add lessons or change what the index holds call
``match_index_bump`` (see lessons.services, lessons.curation), which gives the one row of
MatchIndexVersion a new token in the writer's own transaction: other processes see the token
when they can see the lessons, never before. The index does not depend on the cache: with Redis
down, a lesson written is found by the next check. The lessons an answer shows are read fresh
from the database, under the check's own filters.
"""
import math
import threading
import uuid
from collections import Counter
from typing import NamedTuple

from .matching import (MIN_WORD_SHARE, TEMPLATE, _WORD, WORDS, CompiledPattern, Message,
                       compile_pattern, fit, prepare_message)
from .models import Lesson, MatchIndexVersion

BUILD_CHUNK = 2000  # rows read at a time while building: the rows never all sit in memory
# Literal words in order that make a template of generic words alone fit across error types:
# "fatal: Authentication failed for <*>" does, "connection refused" does not.
CROSS_TYPE_WORDS = 3


class Entry(NamedTuple):
    pk: object
    compiled: CompiledPattern
    error_type: str
    skill_name: str | None
    approved: bool


class MatchIndex:
    """The non-rejected lessons' patterns, as of ``version`` (the token it was built for)."""

    def __init__(self, version: str | None, entries: list[Entry]):
        self.version, self.entries = version, entries
        self._types = {entry.pk: entry.error_type for entry in entries}
        self._approved = {entry.pk for entry in entries if entry.approved}
        frequency = Counter(word for entry in entries for word in set(entry.compiled.words))
        self._frequency = frequency
        self._holders: dict[str, frozenset[int]] = {}  # filled as words fits need them
        self._filed: dict[str, list[int]] = {}
        self._always: list[int] = []  # patterns without a key: tried on every message
        for i, entry in enumerate(entries):
            keys = _keys(entry.compiled, frequency)
            if not keys:
                self._always.append(i)
            for key in keys:
                self._filed.setdefault(key, []).append(i)

    def error_type(self, pk) -> str:
        return self._types[pk]

    def approved(self, pk) -> bool:
        return pk in self._approved

    def fits(self, message: str | Message, *, error_type: str | None, skill_name: str | None,
             approved_only: bool) -> dict:
        """``{pk: Fit}`` of the lessons whose pattern fits ``message``, of the skill or generic
        ones, approved ones only when asked. A lesson of another error type than ``error_type``
        fits only by a strong template (see ``strong``)."""
        prepared = message if isinstance(message, Message) else prepare_message(message)
        tried = set(self._always)
        for word in prepared.word_set:
            tried.update(self._filed.get(word, ()))
        found: dict = {}
        for i in tried:
            entry = self.entries[i]
            if approved_only and not entry.approved:
                continue
            if skill_name and entry.skill_name not in (None, skill_name):
                continue
            fitted = fit(entry.compiled, prepared)
            if fitted is None or not (_same_type(entry.error_type, error_type)
                                      or (fitted.kind == TEMPLATE and strong(entry.compiled))):
                continue
            if fitted.kind == WORDS and fitted.score < 1 and self._told_apart_by_missing(
                    i, prepared):
                continue
            found[entry.pk] = fitted
        return found

    def _told_apart_by_missing(self, i: int, message: Message) -> bool:
        """Whether a words fit of entry ``i`` misses the words that tell its fault from
        another's: another lesson's pattern holds every word the message shares with this one,
        and lacks one of those the message misses (``connect timeout`` against a lesson on a
        read timeout beside one on ``connect``, a Docker socket's permission error against a
        lesson on a stopped daemon beside one on the socket). Then the words found fit both
        faults alike: no resolution, at most related."""
        own = self.entries[i].compiled.distinctive
        shared = [word for word in own if word in message.word_set]
        if not shared or any(self._frequency[word] <= 1 for word in shared):
            return False  # a word only this lesson has: the message names its fault
        holders = frozenset.intersection(*(self._holders_of(word) for word in shared))
        return any(j != i and not own <= self.entries[j].compiled.distinctive for j in holders)

    def _holders_of(self, word: str) -> frozenset[int]:
        """The entries whose pattern has ``word`` among its distinctive words."""
        holders = self._holders.get(word)
        if holders is None:
            holders = frozenset(j for j, entry in enumerate(self.entries)
                                if word in entry.compiled.distinctive)
            self._holders[word] = holders
        return holders


def _same_type(lesson_type: str, error_type: str | None) -> bool:
    """Whether a fit needs no more than it has: the check or the lesson names no type, or the
    same class (``openai.RateLimitError`` is a ``RateLimitError``). Across types only a template
    fit with a distinctive word counts."""
    return not error_type or not lesson_type or type_name(lesson_type) == type_name(error_type)


def strong(compiled: CompiledPattern) -> bool:
    """Whether a template fit of this pattern holds across error types: it has a distinctive
    word, or CROSS_TYPE_WORDS literal words in order (two generic words are not enough)."""
    return bool(compiled.sequence) or len(compiled.words) >= CROSS_TYPE_WORDS


def type_name(error_type: str) -> str:
    """An error type without its module path, lower case."""
    return error_type.rsplit(".", 1)[-1].lower()


def _keys(compiled: CompiledPattern, frequency: Counter) -> set[str]:
    """Words one of which every message the pattern fits holds (none: try it on every message).

    A fit needs every literal distinctive token whole, so one of their words does. Without
    those, a template fit needs every anchored word, so the rarest one does; a words fit holds
    at least ceil(MIN_WORD_SHARE * n) of its n distinctive words in order, so at least that
    many less the repeated ones of its d different words, missing at most the rest: one of the
    rarest (that many + 1) does.
    """
    def rarest(words):
        return sorted(words, key=lambda word: (frequency[word], word))

    keys = {compiled.slug} if compiled.slug else set()  # a slug may fit whole, as one word
    required = {word for token in compiled.names + compiled.codes + compiled.quoted
                for word in _WORD.findall(token) if not word.startswith("<")}
    if required:
        return keys | set(rarest(required)[:1])
    anchored = compiled.anchored - keys
    if not anchored:
        return keys
    keys |= set(rarest(anchored)[:1])
    n, different = len(compiled.sequence), compiled.distinctive
    if n:
        needed = max(1, math.ceil(MIN_WORD_SHARE * n - 1e-9) - (n - len(different)))
        keys |= set(rarest(different)[:len(different) - needed + 1])
    return keys


_lock = threading.Lock()
_state: dict = {"index": MatchIndex(None, [])}


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
    return (f"(SELECT token FROM {MatchIndexVersion._meta.db_table}"
            f" WHERE id = {MatchIndexVersion.ROW})")


def match_index() -> MatchIndex:
    """The index of non-rejected lessons, as of the current token (read here)."""
    version = match_index_token().first()
    if version is None:
        match_index_bump()
        version = match_index_token().first()
    return match_index_of(version)


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
        _state["index"] = MatchIndex(None, [])


def _build(version) -> MatchIndex:
    rows = Lesson.objects.exclude(status=Lesson.Status.REJECTED).order_by("pk").values_list(
        "pk", "error_pattern", "error_type", "skill_name", "status")
    entries = [Entry(pk, compile_pattern(error_pattern), error_type, skill_name,
                     status == Lesson.Status.APPROVED)
               for pk, error_pattern, error_type, skill_name, status
               in rows.iterator(chunk_size=BUILD_CHUNK)]
    return MatchIndex(version, entries)

