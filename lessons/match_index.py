"""A per-process index of lesson patterns, so a check scores messages without reading every row.

A message check compares the message with lessons' error_patterns. Reading every lesson from
the database per check costs milliseconds per thousand lessons (decoding rows dominates), so
each process keeps the compiled patterns in memory, filed under each of their words, and
rebuilds them when the shared version token in the cache changes. Writers that add lessons or
change what the index holds call ``match_index_bump`` (see lessons.services).

A lesson is a candidate for a message when the two share at least one whole word (a slug,
phrase or template that matches a message always does). The index only proposes candidates:
the rows that are ranked and returned are read fresh from the database, so a stale entry can
cost a candidate, never a wrong answer. With the cache unreachable the version is unknown and
the index is rebuilt on every check (slow, correct).
"""
import threading
import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.core.cache import cache

from .matching import CompiledPattern, compile_pattern, normalise, score, words
from .models import Lesson

VERSION_KEY = "lessons:match-index:version"


@dataclass(frozen=True)
class Entry:
    pk: object
    skill_name: str | None
    approved: bool
    pattern: CompiledPattern


@dataclass(frozen=True)
class MatchIndex:
    by_word: dict  # word -> tuple of entries whose pattern has that word
    wordless: tuple  # entries whose pattern has no word at all (checked against every message)

    def matches(self, message: str, *, skill_name: str | None, threshold: float):
        """``(entry, score)`` of the lessons whose pattern matches ``message`` at ``threshold``."""
        normal, message_words = normalise(message), words(message)
        seen = set()
        for word in message_words:
            for entry in self.by_word.get(word, ()):
                if entry.pk in seen:
                    continue
                seen.add(entry.pk)
                if skill_name and entry.skill_name not in (None, skill_name):
                    continue
                value = score(entry.pattern, normal, message_words)
                if value >= threshold:
                    yield entry, value
        for entry in self.wordless:
            if score(entry.pattern, normal, message_words) >= threshold:
                yield entry, 1.0


_lock = threading.Lock()
_state: dict = {"version": None, "index": MatchIndex({}, ())}


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
    index = _build()
    with _lock:
        _state["version"], _state["index"] = version, index
    return index


def _build() -> MatchIndex:
    by_word, wordless = defaultdict(list), []
    rows = Lesson.objects.exclude(status=Lesson.Status.REJECTED).values_list(
        "pk", "error_pattern", "skill_name", "status")
    for pk, error_pattern, skill_name, status in rows:
        entry = Entry(pk, skill_name, status == Lesson.Status.APPROVED,
                      compile_pattern(error_pattern))
        for word in entry.pattern.words:
            by_word[word].append(entry)
        if not entry.pattern.words:
            wordless.append(entry)
    return MatchIndex({w: tuple(e) for w, e in by_word.items()}, tuple(wordless))
