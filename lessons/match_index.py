"""A per-process index of lesson patterns, so a check scores messages without reading every row.

A message check must compare the message with every lesson's error_pattern. Reading all
lessons from the database on every check costs milliseconds per thousand lessons (decoding
rows dominates), so each process keeps the few columns the comparison needs and rebuilds them
when the shared version token in the cache changes. Writers that add lessons or change what
the index holds call ``match_index_bump`` after commit.

The index only proposes candidates: the rows that are ranked and returned are always read
fresh from the database, so a stale entry can cost a candidate, never a wrong answer. With the
cache unreachable the version is unknown and the index is rebuilt on every check (slow, correct).
"""
import threading
import uuid
from dataclasses import dataclass

from django.core.cache import cache

from .models import Lesson

VERSION_KEY = "lessons:match-index:version"


@dataclass(frozen=True)
class Entry:
    pk: object
    error_pattern: str
    error_type: str
    skill_name: str | None


_lock = threading.Lock()
_state: dict = {"version": None, "entries": ()}


def match_index_bump() -> None:
    """Make every process rebuild its index at its next check."""
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)


def match_index() -> tuple[Entry, ...]:
    """The non-rejected lessons' match columns, as of the current version."""
    version = cache.get(VERSION_KEY)
    if version is None:
        match_index_bump()
        version = cache.get(VERSION_KEY)
    with _lock:
        if version is not None and version == _state["version"]:
            return _state["entries"]
    entries = tuple(Entry(*row) for row in Lesson.objects.exclude(
        status=Lesson.Status.REJECTED).values_list("pk", "error_pattern", "error_type",
                                                   "skill_name"))
    with _lock:
        _state["version"], _state["entries"] = version, entries
    return entries
