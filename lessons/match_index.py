"""A per-process index of lesson patterns, so a check fits a message without reading every row.

Each process keeps, for every non-rejected lesson, a sketch of its compiled pattern
(lessons.matching): the words each kind of fit needs, in tuples of shared strings, a few hundred
bytes a lesson. A sketch is filed under a few of its words that any message it fits must hold
(see ``_keys``), and rules out most of the messages that hold one without the pattern: what the
set operations on the message's words cannot rule out is fitted in full, the pattern compiled
again (matching.compile_pattern keeps the most recent ones). So a worker holds 100,000 lessons
in tens of megabytes, and a message's many near misses (the same wording about another service
or object) cost a set operation each, not a fit.

Writers that add lessons or change what the index holds call ``match_index_bump`` (see
lessons.services, lessons.curation), which gives the one row of MatchIndexVersion a new token in
the writer's own transaction: other processes see the token when they can see the lessons, never
before. A lesson's error_pattern never changes, so a rebuild reuses the sketches it held and
compiles only the new patterns. The index does not depend on the cache: with Redis down, a
lesson written is found by the next check. The lessons an answer shows are read fresh from the
database, under the check's own filters.
"""

import io
import math
import sys
import threading
import uuid
from array import array
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .matching import (
    _WORD,
    MIN_WORD_SHARE,
    TEMPLATE,
    WORDS,
    CompiledPattern,
    Fit,
    Message,
    compile_pattern,
    fit,
    prepare_message,
)
from .models import Lesson, MatchIndexVersion

BUILD_CHUNK = 2000  # rows read at a time while building: the rows never all sit in memory
# Literal words in order that make a template of generic words alone fit across error types:
# "fatal: Authentication failed for <*>" does, "connection refused" does not.
CROSS_TYPE_WORDS = 3


class Sketch(NamedTuple):
    """What the index keeps of a compiled pattern: the words each kind of fit needs, to rule a
    message out without fitting it."""

    slug: str | None  # a slug fits whole as one message word
    distinctive: tuple[str, ...]  # its different distinctive words, in order
    generic: tuple[str, ...]  # the other words a template fit finds whole
    required: tuple[str, ...]  # the words of its names, codes and quoted names: in every fit
    classes: tuple[str, ...]  # CamelCase names, which may be the start of a message word
    kinds: frozenset[tuple[str, str]]
    strong: bool  # a template fit of it holds across error types (see ``strong``)

    @property
    def anchored(self) -> tuple[str, ...]:
        """The words a template fit finds whole (of a slug, its words)."""
        return tuple(word for word in self.distinctive if word not in self.classes) + self.generic


def sketch_of(compiled: CompiledPattern, shared: dict[tuple[str, ...], tuple[str, ...]]) -> Sketch:
    """The sketch of a compiled pattern. Its words, and its tuples of words, are the
    ones ``shared`` holds when equal (many patterns share their generic words)."""

    def one(words) -> tuple[str, ...]:
        words = tuple(sys.intern(word) for word in words)
        return shared.setdefault(words, words)

    different = one(dict.fromkeys(compiled.sequence))
    required = {
        word
        for token in compiled.names + compiled.codes + compiled.quoted
        for word in _WORD.findall(token)
        if not word.startswith("<")
    }
    generic = compiled.anchored - {compiled.slug} - set(compiled.classes) - set(different)
    return Sketch(
        compiled.slug and sys.intern(compiled.slug),
        different,
        one(sorted(generic)),
        one(sorted(required)),
        one(compiled.classes),
        compiled.kinds,
        strong(compiled),
    )


class Found(NamedTuple):
    """A lesson whose pattern fits a message: how, and what the check needs of it."""

    fit: Fit
    error_type: str
    approved: bool


class MatchIndex:
    """The non-rejected lessons' patterns, as of ``version`` (the token it was built for)."""

    def __init__(self, version: str | None, rows: Iterable[tuple]):
        """``rows``: (pk, error_pattern, Sketch, error type, skill name, approved) of each
        lesson, read once as they come (a list of them all would outlive its use in the
        process's memory). The patterns' texts are kept in one UTF-8 string of bytes."""
        self.version = version
        self.sketches: list[Sketch] = []
        # Each entry's (error type, its class name, skill), as an index into the few distinct
        # ones: four bytes an entry, not three pointers.
        self._labels: list[tuple[str, str, str | None]] = []
        self._label_at = array("I")
        self._approved = bytearray()
        labelled: dict[tuple, int] = {}
        pks = bytearray()  # 16 bytes each
        texts, self._text_at = io.BytesIO(), array("L", [0])  # where each text starts
        for pk, text, sketch, error_type, skill_name, approved in rows:
            pks += pk.bytes
            self._text_at.append(self._text_at[-1] + texts.write(text.encode()))
            self.sketches.append(sketch)
            label = (error_type, type_name(error_type), skill_name)
            if label not in labelled:
                labelled[label] = len(self._labels)
                self._labels.append(label)
            self._label_at.append(labelled[label])
            self._approved.append(bool(approved))
        self._pks = bytes(pks)
        self._texts = texts.getvalue()
        frequency = Counter(
            word
            for sketch in self.sketches
            for word in {*sketch.anchored, *sketch.required, *sketch.distinctive}
        )
        self._frequency = frequency
        self._holders: dict[str, array] = {}  # entries by each of their distinctive words
        self._filed: dict[str, array] = {}
        self._always = array("i")  # patterns without a key: tried on every message
        for i, sketch in enumerate(self.sketches):
            for word in sketch.distinctive:
                self._holders.setdefault(word, array("i")).append(i)
            keys = _keys(sketch, frequency)
            if keys is None:
                self._always.append(i)
                continue
            for key in keys:
                self._filed.setdefault(key, array("i")).append(i)

    def pk_at(self, i: int) -> bytes:
        """The primary key of entry ``i``, as its 16 bytes (which order as PostgreSQL orders
        UUIDs)."""
        return self._pks[16 * i : 16 * i + 16]

    def text(self, i: int) -> str:
        """The error_pattern of entry ``i``."""
        return self._texts[self._text_at[i] : self._text_at[i + 1]].decode()

    def fits(
        self,
        message: str | Message,
        *,
        error_type: str | None,
        skill_name: str | None,
        approved_only: bool,
    ) -> dict[uuid.UUID, Found]:
        """The lessons whose pattern fits ``message``, by primary key, of the skill or generic
        ones, approved ones only when asked. A lesson of another error type than ``error_type``
        fits only by a strong template (see ``strong``), or by a words fit or its slug when
        either type is a carrier (CARRIER_TYPES)."""
        prepared = message if isinstance(message, Message) else prepare_message(message)
        words = prepared.word_set
        tried = set(self._always)
        for word in words:
            tried.update(self._filed.get(word, ()))
        asked = type_name(error_type) if error_type else ""
        holders: dict = {}  # the holders of each set of shared words, for this message
        begun: dict = {}  # whether each CamelCase class begins a word of this message
        found = {}
        for i in tried:
            if approved_only and not self._approved[i]:
                continue
            lesson_type, named, skill = self._labels[self._label_at[i]]
            if skill_name and skill not in (None, skill_name):
                continue
            # The same type: the check or the lesson names none, or the same class
            # (``openai.RateLimitError`` is a ``RateLimitError``) of the same library.
            sketch = self.sketches[i]
            same = (not asked or not named or named == asked) and not _other_library(
                error_type, lesson_type
            )
            carried = asked in CARRIER_TYPES or named in CARRIER_TYPES
            could = _could_fit(sketch, prepared, begun)
            if could is None or (could == WORDS and not (same or carried)):
                continue  # across types only a template fits
            missing = [word for word in sketch.distinctive if word not in words]
            if (
                could == WORDS
                and any(word not in sketch.classes for word in missing)
                and self._told_apart(i, missing, prepared, holders, begun)
            ):
                continue  # at best a words fit short of a word that tells it apart
            fitted = fit(compile_pattern(self.text(i)), prepared)
            if fitted is None:
                continue
            # Across types, a strong template is the library's own words; a words fit or a
            # slug (its writer's name for the fault, which a message of another type only
            # carries as a value) counts only through a carrier type.
            writers = fitted.kind == WORDS or sketch.slug is not None
            if not (same or (carried if writers else sketch.strong)):
                continue
            if (
                fitted.kind == WORDS
                and fitted.score < 1
                and self._told_apart(i, missing, prepared, holders, begun)
            ):
                continue
            pk = uuid.UUID(bytes=self.pk_at(i))
            found[pk] = Found(fitted, lesson_type, bool(self._approved[i]))
        return found

    def _told_apart(
        self, i: int, missing: list[str], message: Message, holders: dict, begun: dict
    ) -> bool:
        """Whether a words fit of entry ``i`` misses the words that tell its fault from
        another's: another lesson's pattern holds every word the message shares with this one,
        and lacks one of those the message misses (``connect timeout`` against a lesson on a
        read timeout beside one on ``connect``, a Docker socket's permission error against a
        lesson on a stopped daemon beside one on the socket). Then the words found fit both
        faults alike: no resolution, at most related. ``holders`` keeps, for one message, the
        entries holding each set of shared words; ``begun``, the classes that begin a message
        word (a class is shared when it does, as fit reads it)."""
        sketch = self.sketches[i]
        shared = frozenset(
            word
            for word in sketch.distinctive
            if word in message.word_set or (word in sketch.classes and begun.get(word))
        )
        if not shared or any(self._frequency[word] <= 1 for word in shared):
            return False  # a word only this lesson has: the message names its fault
        held = holders.get(shared)
        if held is None:
            lists = sorted((self._holders[word] for word in shared), key=len)
            held = set(lists[0])
            for other in lists[1:]:
                held.intersection_update(other)
            holders[shared] = held
        return any(
            j != i and any(word not in self.sketches[j].distinctive for word in missing)
            for j in held
        )


def _could_fit(sketch: Sketch, message: Message, begun: dict) -> str | None:
    """The strongest fit the sketch allows (TEMPLATE, WORDS or None), from the message's words
    alone. A CamelCase class counts as found when it begins a message word, as fit reads it
    (``begun`` keeps, for one message, whether each class does)."""
    words = message.word_set
    whole_slug = sketch.slug is not None and sketch.slug in words
    if whole_slug:
        return TEMPLATE
    if not words.issuperset(sketch.required):
        return None
    for name in sketch.classes:
        if name not in begun:
            begun[name] = any(word.startswith(name) for word in message.words)
        if not begun[name]:
            return None
    if sketch.classes:
        found = sum(word in words or word in sketch.classes for word in sketch.distinctive)
    else:
        found = len(words.intersection(sketch.distinctive))
    if found == len(sketch.distinctive) and words.issuperset(sketch.generic):
        return TEMPLATE
    if (
        sketch.distinctive
        and sketch.kinds <= message.kinds
        and found >= MIN_WORD_SHARE * len(sketch.distinctive)
    ):
        return WORDS
    return None


def strong(compiled: CompiledPattern) -> bool:
    """Whether a template fit of this pattern holds across error types: it has a distinctive
    word, or CROSS_TYPE_WORDS literal words in order (two generic words are not enough)."""
    return bool(compiled.sequence) or len(compiled.words) >= CROSS_TYPE_WORDS


# Types that say nothing of the fault, only that something below failed: a command's exit
# (its stderr is the fault: ``fatal: write error: No space left on device``), or the base
# classes a layer raises for whatever it caught. Across such a type a words fit counts too:
# the lesson's distinctive words name the fault. A template of generic words alone
# (``connection refused`` of a database driver's type) still needs its own type.
CARRIER_TYPES = frozenset(
    {
        "calledprocesserror",
        "subprocesserror",
        "runtimeerror",
        "exception",
        "error",
        "baseexception",
        "exceptiongroup",
        "baseexceptiongroup",
    }
)


def _other_library(asked: str | None, lesson: str) -> bool:
    """Whether both types name their library (a module path) and the libraries differ: one
    class name in two libraries is two faults (``stripe.error.AuthenticationError`` is not
    ``openai.AuthenticationError``: another key to rotate)."""
    if not asked or "." not in asked or "." not in lesson:
        return False
    return asked.split(".", 1)[0].lower() != lesson.split(".", 1)[0].lower()


def type_name(error_type: str) -> str:
    """An error type without its module path, lower case."""
    return error_type.rsplit(".", 1)[-1].lower()


def _keys(sketch: Sketch, frequency: Counter) -> set[str] | None:
    """Words one of which every message the pattern fits holds (None: try it on every message).

    A fit needs every literal distinctive token whole, so one of their words does. Without
    those, a template fit needs every anchored word, so the rarest one does; a words fit holds
    at least ceil(MIN_WORD_SHARE * d) of its d different distinctive words (a repeated one
    counts once), missing at most the rest: one of the rarest (that many + 1) does. A CamelCase
    class may be found as the start of a message word, so it is never a key, and a words fit
    needs one word fewer of the others for each.
    """

    def rarest(words):
        return sorted(words, key=lambda word: (frequency[word], word))

    keys = {sketch.slug} if sketch.slug else set()  # a slug may fit whole, as one word
    if sketch.required:
        return keys | set(rarest(sketch.required)[:1])
    if not sketch.anchored:
        return None  # a template of classes or word parts alone
    keys.add(rarest(sketch.anchored)[0])
    different = sketch.distinctive
    if different:
        plain = [word for word in different if word not in sketch.classes]
        needed = max(1, math.ceil(MIN_WORD_SHARE * len(different) - 1e-9))
        needed -= len(different) - len(plain)
        if needed < 1:
            return None  # its classes alone may make a words fit
        keys |= set(rarest(plain)[: len(plain) - needed + 1])
    return keys


_lock = threading.Lock()
_state: dict = {"index": MatchIndex(None, [])}


def match_index_bump() -> None:
    """Make every process rebuild its index once this transaction commits (this one's own
    checks at once)."""
    token = uuid.uuid4().hex
    rows = MatchIndexVersion.objects.filter(pk=MatchIndexVersion.ROW)
    if not rows.update(token=token):  # the row is gone (a flushed test database)
        MatchIndexVersion.objects.update_or_create(
            pk=MatchIndexVersion.ROW, defaults={"token": token}
        )


def match_index_token():
    """The current token, as a query of one value (none when the row is missing)."""
    return MatchIndexVersion.objects.filter(pk=MatchIndexVersion.ROW).values_list(
        "token", flat=True
    )


def match_index_version_sql() -> str:
    """match_index_token as a scalar SQL subquery, for raw statements (NULL when none)."""
    return (
        f"(SELECT token FROM {MatchIndexVersion._meta.db_table}"
        f" WHERE id = {MatchIndexVersion.ROW})"
    )


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
    index = _build(version, _state["index"])
    with _lock:
        _state["index"] = index
    return index


def match_index_forget() -> None:
    """Drop this process's index: the next check builds it (for tests, whose rolled-back
    writes can bring an old token back)."""
    with _lock:
        _state["index"] = MatchIndex(None, [])


def _build(version, held: MatchIndex) -> MatchIndex:
    """The index of the lessons as they are, reusing the sketches ``held`` has for the same
    lessons and patterns (both in primary-key order: one walk finds them); new patterns are
    compiled without filling compile_pattern's cache, which keeps the patterns checks fit."""
    rows = (
        Lesson.objects.exclude(status=Lesson.Status.REJECTED)
        .order_by("pk")
        .values_list("pk", "error_pattern", "error_type", "skill_name", "status")
    )
    compile_anew, held_count = compile_pattern.__wrapped__, len(held.sketches)
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}

    def entries():
        j = 0  # the first held entry not before this row
        for pk, text, error_type, skill_name, status in rows.iterator(chunk_size=BUILD_CHUNK):
            while j < held_count and held.pk_at(j) < pk.bytes:
                j += 1
            same = j < held_count and held.pk_at(j) == pk.bytes and held.text(j) == text
            sketch = held.sketches[j] if same else sketch_of(compile_anew(text), shared)
            yield pk, text, sketch, error_type, skill_name, status == Lesson.Status.APPROVED

    return MatchIndex(version, entries())
