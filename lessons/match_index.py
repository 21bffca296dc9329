"""A per-process index of lesson patterns, so a check scores messages without reading every row.

A message check compares the message with lessons' error_patterns. Reading every lesson from
the database per check costs milliseconds per thousand lessons (decoding rows dominates), so
each process keeps the compiled patterns in memory, filed under each of their words, and
rebuilds them when the shared version token in the cache changes. Writers that add lessons or
change what the index holds call ``match_index_bump`` (see lessons.services).

A lesson is a candidate for a message when the message holds one of the pattern's rarest
words (see ``_keys``): every pattern that can reach the match threshold is found that way. The index only proposes candidates:
the rows that are ranked and returned are read fresh from the database, so a stale entry can
cost a candidate, never a wrong answer. With the cache unreachable the version is unknown and
the index is rebuilt on every check (slow, correct).
"""
import math
import threading
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.core.cache import cache

from .matching import MIN_WORD_SHARE, CompiledPattern, compile_pattern, normalise, score, words
from .models import Lesson

VERSION_KEY = "lessons:match-index:version"


@dataclass(frozen=True)
class Entry:
    ordinal: int  # position in the index: a cheap key for "already scored"
    pk: object
    skill_name: str | None
    approved: bool
    pattern: CompiledPattern


@dataclass(frozen=True)
class MatchIndex:
    version: str | None  # the cache token it was built for; keys caches that depend on lessons
    by_word: dict  # word -> tuple of entries whose pattern has that word
    wordless: tuple  # entries whose pattern has no word at all (checked against every message)

    def matches(self, message: str, *, skill_name: str | None):
        """``(entry, score)`` of the lessons whose pattern matches ``message`` at MIN_WORD_SHARE."""
        normal, message_words = normalise(message), words(message)
        seen = set()
        for word in message_words:
            for entry in self.by_word.get(word, ()):
                if entry.ordinal in seen:
                    continue
                seen.add(entry.ordinal)
                if skill_name and entry.skill_name not in (None, skill_name):
                    continue
                value = score(entry.pattern, normal, message_words)
                if value >= MIN_WORD_SHARE:
                    yield entry, value
        for entry in self.wordless:
            if score(entry.pattern, normal, message_words) >= MIN_WORD_SHARE:
                yield entry, 1.0

    def best_matches(self, message: str, *, skill_name: str | None, limit: int,
                     approved_only: bool, most: int) -> list:
        """The matches that can reach a ``limit``-long answer ranked by (approved, score): those
        at least as high as the ``limit``-th, ties included (later keys decide among them), at
        most ``most``; best first."""
        matched = sorted((m for m in self.matches(message, skill_name=skill_name)
                          if m[0].approved or not approved_only),
                         key=lambda m: (m[0].approved, m[1]), reverse=True)
        if len(matched) <= limit:
            return matched
        cutoff = (matched[limit - 1][0].approved, matched[limit - 1][1])
        return [m for m in matched if (m[0].approved, m[1]) >= cutoff][:most]


_lock = threading.Lock()
_state: dict = {"version": None, "index": MatchIndex(None, {}, ())}


def match_index_bump() -> None:
    """Make every process rebuild its index at its next check."""
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)


def match_index() -> MatchIndex:
    """The index of non-rejected lessons, as of the current version."""
    version = cache.get(VERSION_KEY)
    if version is None:
        match_index_bump()
        version = cache.get(VERSION_KEY)
    with _lock:
        if version is not None and version == _state["version"]:
            return _state["index"]
    index = _build(version)
    with _lock:
        _state["version"], _state["index"] = version, index
    return index


def _build(version) -> MatchIndex:
    rows = Lesson.objects.exclude(status=Lesson.Status.REJECTED).values_list(
        "pk", "error_pattern", "skill_name", "status")
    entries = [Entry(i, pk, skill_name, status == Lesson.Status.APPROVED,
                     compile_pattern(error_pattern))
               for i, (pk, error_pattern, skill_name, status) in enumerate(rows)]
    frequency = Counter(word for entry in entries for word in entry.pattern.words)
    by_word, wordless = defaultdict(list), []
    for entry in entries:
        for word in _keys(entry.pattern.words, frequency):
            by_word[word].append(entry)
        if not entry.pattern.words:
            wordless.append(entry)
    return MatchIndex(version, {w: tuple(e) for w, e in by_word.items()}, tuple(wordless))


def _keys(pattern_words: frozenset[str], frequency: Counter) -> list[str]:
    """The rarest words of a pattern that any matching message must contain one of.

    A match shares at least ceil(MIN_WORD_SHARE * n) of the pattern's n words, so it misses at
    most n - that many; filing the pattern under one more than that, the rarest ones, means
    every matching message finds it, while common words ("error", "<num>") file nothing.
    (A substring or template match contains all the words, so it is found the same way.)
    """
    needed = math.ceil(MIN_WORD_SHARE * len(pattern_words) - 1e-9)
    keys = len(pattern_words) - needed + 1
    return sorted(pattern_words, key=lambda w: (frequency[w], w))[:keys]
