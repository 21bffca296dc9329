"""The lesson match index's data: bit sets over lesson ordinals, scored without a loop per lesson.

Pure (no Django). Lesson ``i`` is bit ``i`` of Python integers used as bit sets: one set per
pattern word, the lessons of each word count, the approved ones, those of each skill. A check adds
the sets of the message's words into a bit-sliced counter (plane ``j`` holds bit ``j`` of every
lesson's count of shared words), so "shares k of its n words" is a few whole-set operations,
not a pass over the lessons. Only the lessons that reach an answer become Python objects.

A pattern whose text (or template) occurs in the message scores 1.0 even when some of its words
do not (``limit`` inside ``limiting``). Each such word then occurs *inside* a word of the message,
so the lessons whose every word is a message word or inside one are the only ones checked for that.
"""
import array
import re
from collections import deque
from itertools import repeat

from .matching import _WORD, MIN_WORD_SHARE, normalise

_normalise = normalise.__wrapped__  # messages are fresh every time: caching them only grows memory
_NONZERO = re.compile(rb"[^\x00]")
_BITS_OF = tuple(tuple(b for b in range(8) if byte >> b & 1) for byte in range(256))
# A word's lessons as a ready bit set costs N/8 bytes whatever its lesson count; as a list of
# ordinals, 4 bytes a lesson. Rare words keep the list (turned into a set when a message has them)
# unless every word's set fits this budget.
DENSE_BUDGET = 16 << 20
MEMO_SIZE = 8192  # message words whose inner pattern words are remembered, each at most:
MEMO_LONGEST = 64  # characters (longer ones are rare: blobs, not words)
SKILL_MASKS = 64  # skills whose mask is remembered


def prepare(pattern: str) -> tuple[object, frozenset[str]]:
    """``(literal, words)`` as ``matching.compile_pattern`` derives them: ``literal`` is the normal
    form of a plain pattern, or of a template (its ``<*>`` kept; split into normalised parts
    when not ASCII, where lower-casing may depend on the neighbours)."""
    normal = _normalise(pattern)
    if pattern.isascii():
        # ASCII lower-casing is per character and no rule crosses "<*>" or " ", so the normal
        # form of the whole splits into its parts' and words the same way.
        return normal, frozenset(_WORD.findall(normal.replace("<*>", " ").replace("_", " ")))
    literal = tuple(_normalise(p) for p in pattern.split("<*>")) if "<*>" in pattern else normal
    spaced = _normalise(pattern.replace("<*>", " ")).replace("_", " ")
    return literal, frozenset(_WORD.findall(spaced))


def full_match(literal, text: str) -> bool:
    """Whether ``text`` (normalised) holds the pattern whole: as a substring, or a template's parts
    in order with at least one character for each ``<*>`` (what its regex ``.+?`` matches; the
    earliest place of each part leaves the most room for the next)."""
    if isinstance(literal, str):
        if "<*>" not in literal:
            return literal in text
        literal = literal.split("<*>")
    at = text.find(literal[0])
    if at < 0:
        return False
    at += len(literal[0])
    for part in literal[1:]:
        at = text.find(part, at + 1)
        if at < 0:
            return False
        at += len(part)
    return True


def to_bits(ordinals, size: int) -> int:
    """The bit set of these ordinals (each below ``size``)."""
    ordinals = ordinals if isinstance(ordinals, (list, array.array)) else list(ordinals)
    if not ordinals:
        return 0
    if len(ordinals) * 200 < size:
        data = bytearray((size >> 3) + 1)
        for i in ordinals:
            data[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(data, "little")
    # Many: a string of binary digits, written by a loop in C, costs less than the loop above.
    digits = bytearray(b"0") * size
    deque(map(digits.__setitem__, ordinals, repeat(ord("1"))), 0)
    digits.reverse()
    return int(digits, 2)


def ordinals_of(bits: int, most: int | None = None) -> list[int]:
    """The set bits of ``bits``, lowest first (at most ``most`` of them)."""
    data = bits.to_bytes((bits.bit_length() + 7) >> 3, "little")
    found = []
    for match in _NONZERO.finditer(data):
        base = match.start() << 3
        found.extend(base + b for b in _BITS_OF[data[match.start()]])
        if most is not None and len(found) >= most:
            return found[:most]
    return found


def score_levels(sizes) -> list[tuple[float, list[tuple[int, int]]]]:
    """The scores a match can have, best first, each with its (word count, shared words) pairs."""
    levels: dict[float, list] = {}
    for n in sizes:
        for k in range(n, 0, -1):
            if k / n < MIN_WORD_SHARE:
                break
            levels.setdefault(k / n, []).append((n, k))
    levels.setdefault(1.0, [])  # whole matches of wordless patterns score 1.0 too
    return sorted(levels.items(), reverse=True)


class Table:
    """Lessons as bit sets (see the module docstring); built once, then only read."""

    def __init__(self, rows):
        """``rows``: ``(pattern, skill_name, approved)`` in ordinal order."""
        self.literals, self.skills, self.approved = [], array.array("I"), bytearray()
        self.skill_ids: dict = {None: 0}
        self.starts, self.words = array.array("I", [0]), array.array("I")
        vocabulary: dict[str, int] = {}
        posting: list[list[int]] = []  # word id -> ordinals of the lessons having the word
        for i, (pattern, skill_name, approved) in enumerate(rows):
            literal, found = prepare(pattern)
            self.literals.append(literal)
            skill = self.skill_ids.setdefault(skill_name, len(self.skill_ids))
            self.skills.append(skill)
            self.approved.append(approved)
            for word in found:
                w = vocabulary.setdefault(word, len(posting))
                if w == len(posting):
                    posting.append([])
                posting[w].append(i)
                self.words.append(w)
            self.starts.append(len(self.words))
        self.size = len(self.literals)
        self.longest_word = max(map(len, vocabulary), default=0)
        posting = self._rank_words(vocabulary, posting)
        self._index_sets(posting)
        self._memo: dict = {}
        self._skill_masks: dict = {}

    def _rank_words(self, vocabulary, posting) -> list:
        """Number the words rarest first, as match_index._keys orders them (by lesson count, then
        the word), and sort each lesson's words so: its first words are its keys."""
        spelling = sorted(vocabulary, key=vocabulary.get)
        order = sorted(range(len(posting)), key=lambda w: (len(posting[w]), spelling[w]))
        rank = [0] * len(order)
        for position, w in enumerate(order):
            rank[w] = position
        self.vocabulary = {spelling[w]: rank[w] for w in order}
        ranked, starts = array.array("I", map(rank.__getitem__, self.words)), self.starts
        self.words = array.array("I")
        for i in range(self.size):
            self.words.extend(sorted(ranked[starts[i]:starts[i + 1]]))
        return [posting[w] for w in order]

    def _index_sets(self, posting) -> None:
        size, starts = self.size, self.starts
        by_size: dict[int, list[int]] = {}
        for i in range(size):
            by_size.setdefault(starts[i + 1] - starts[i], []).append(i)
        self.planes = max(by_size, default=0).bit_length() or 1
        dense_all = len(posting) * (size >> 3) <= DENSE_BUDGET
        self.word_sets = [to_bits(p, size) if dense_all or len(p) * 32 >= size
                          else array.array("I", p) for p in posting]
        approved = to_bits([i for i in range(size) if self.approved[i]], size)
        self.everyone = (1 << size) - 1
        self.flag_sets = {True: approved, False: self.everyone ^ approved}
        self.size_sets = {n: to_bits(members, size) for n, members in by_size.items()}
        self.size_planes = [0] * self.planes  # plane j: the lessons whose word count has bit j
        for n, members in self.size_sets.items():
            for j in range(self.planes):
                if n >> j & 1:
                    self.size_planes[j] |= members
        self.wordless = array.array("I", by_size.get(0, ()))
        self.levels = score_levels(n for n in by_size if n)
        self.by_skill: dict[int, array.array] = {}
        for i, skill in enumerate(self.skills):
            self.by_skill.setdefault(skill, array.array("I")).append(i)
        self.no_skill = to_bits(self.by_skill.pop(0, ()), size)

    def word_set(self, w: int) -> int:
        found = self.word_sets[w]
        return found if isinstance(found, int) else to_bits(found, self.size)

    def keys_shared(self, i: int, shared: set[int], needed: int) -> bool:
        """Whether the lesson's rarest words (its keys, see match_index._keys) meet ``shared``."""
        start, end = self.starts[i], self.starts[i + 1]
        keys = self.words[start:end - needed + 1]
        return any(w in shared for w in keys)

    def skill_mask(self, skill_name: str | None) -> int | None:
        """Lessons of the skill or of none; None when every lesson qualifies."""
        if not skill_name:
            return None
        mask = self._skill_masks.get(skill_name)
        if mask is None:
            if len(self._skill_masks) >= SKILL_MASKS:
                self._skill_masks.clear()
            skill = self.skill_ids.get(skill_name)
            own = to_bits(self.by_skill.get(skill, ()), self.size) if skill else 0
            mask = self._skill_masks[skill_name] = self.no_skill | own
        return mask

    def inner_words(self, token: str) -> tuple[int, ...]:
        """Ids of the pattern words inside a message word (itself included)."""
        found = self._memo.get(token)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            vocabulary, longest, ids = self.vocabulary, self.longest_word, set()
            if len(token) * longest > 4 * len(vocabulary):  # a long token: look for each word
                ids.update(w for word, w in vocabulary.items() if word in token)
            else:  # look up each piece of the token
                for start in range(len(token)):
                    for end in range(start + 1, min(len(token), start + longest) + 1):
                        w = vocabulary.get(token[start:end])
                        if w is not None:
                            ids.add(w)
            found = tuple(ids)
            if len(token) <= MEMO_LONGEST:
                self._memo[token] = found
        return found
