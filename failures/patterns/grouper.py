"""Online grouping of templates into patterns ("same fault, many shapes").

Templates from :func:`template_of` already have their recognisable values masked. What is
left to group are templates that differ only where a value is a plain word: a user name, a
job name, a table id. Two templates join the same pattern when:

1. **Cover**: they have the same number of tokens and, position by position, the tokens are
   equal or one side is a variable that covers the other (``Invalid user <*> from <*>``
   covers ``Invalid user admin from <*>``), or
2. **Slot**: they are equal except in one position, and that position ("slot") has been seen
   with at least ``MIN_VALUES`` different words, or with two or more words that already
   proved to be variable values elsewhere (``cyrus``, ``news`` after ``session closed for
   user <*>`` opened as a slot). Then the slot becomes a variable.

Both need ``MIN_CONTEXT`` literal words anchoring the merged template, so short messages
(``removing chargen``, ``KeyError: 'a'``, ``boot (command <*>)``) never collapse. Tokens the
normaliser kept literal on purpose (digits, quotes, ``::``) are never generalised, which keeps
status codes, constraint names, KeyError keys and test ids apart (see :mod:`.tokens`).

Groups live in a union-find forest. A group's fingerprint is the fingerprint of its current
merged template, so it changes when the group widens: ``resolve`` maps any fingerprint ever
returned to the current one.
"""

from collections import defaultdict
from collections.abc import Iterable

from .fingerprint import fingerprint_of
from .rules import WILDCARD
from .tokens import compatible, context, generalised, join, merge, split

# Distinct words in one slot before it is a variable. Three is not enough: status words come
# in threes (LOOKING / LEADING / FOLLOWING, refused / reset / timed out) and must stay apart.
MIN_VALUES = 4
# Literal words that must anchor a merged template. With fewer, a "pattern" would be little
# more than the variable itself (``removing <*>``), and merging would erase the fault's name.
MIN_CONTEXT = 3
# Slots are only counted in templates up to this many tokens: counting costs O(tokens^2) per
# new template, and a one-word variable is a trait of short messages (Loghub lines have
# 5-30 tokens). Longer templates (tracebacks, dumps) are still grouped by cover.
MAX_SLOT_TOKENS = 100


class PatternGrouper:
    """Incremental grouping; ``PatternGrouper(known)`` resumes from stored pattern templates."""

    def __init__(self, known: Iterable[str] = ()):
        self._parent: list[int] = []
        self._tokens: list[tuple[str, ...]] = []  # merged tokens (meaningful at roots)
        self._root_fp: dict[int, str] = {}
        self._node_of_fp: dict[str, int] = {}  # every fingerprint ever handed out
        self._node_of_template: dict[str, int] = {}
        self._roots_by_len: dict[int, set[int]] = defaultdict(set)
        self._slots: dict[tuple, dict[str, int]] = {}  # slot key -> {word: node}
        self._open_slots: set[tuple] = set()
        self._slots_of_word: dict[str, set[tuple]] = defaultdict(set)
        self._variable_words: set[str] = set()
        for template in known:
            self.add(template)

    # --- public API ---------------------------------------------------------------------------
    def add(self, template: str) -> str:
        """Record one template; return the fingerprint of the pattern it belongs to now."""
        node = self._node_of_template.get(template)
        if node is None:
            node = self._insert(template)
        return self._root_fp[self._find(node)]

    def resolve(self, fingerprint: str) -> str:
        """Current pattern fingerprint for any fingerprint handed out before (unknown: as is)."""
        node = self._node_of_fp.get(fingerprint)
        return fingerprint if node is None else self._root_fp[self._find(node)]

    def pattern_template(self, fingerprint: str) -> str:
        """The merged template (variables as ``<*>``) of the pattern; KeyError if unknown."""
        return join(self._tokens[self._find(self._node_of_fp[fingerprint])])

    def patterns(self) -> dict[str, str]:
        """Current patterns: fingerprint -> merged template (what a store would persist)."""
        return {fp: join(self._tokens[root]) for root, fp in self._root_fp.items()}

    # --- insertion ----------------------------------------------------------------------------
    def _insert(self, template: str) -> int:
        tokens = split(template)
        node = len(self._parent)
        self._parent.append(node)
        self._tokens.append(tokens)
        self._node_of_template[template] = node
        self._set_root(node, tokens)
        self._roots_by_len[len(tokens)].add(node)
        self._absorb(node)
        self._count_slots(node, tokens)
        return node

    def _absorb(self, node: int) -> None:
        """Union the node's group with every group it covers or is covered by."""
        root = self._find(node)
        tokens = self._tokens[root]
        for other in list(self._roots_by_len[len(tokens)]):
            if other == root or self._parent[other] != other:
                continue
            theirs = self._tokens[other]
            # Most candidates differ in a literal first word: ``compatible`` would say no
            # at once, but the call alone costs more than this test (one per pattern).
            if theirs[0] != tokens[0] and WILDCARD not in tokens[0] and WILDCARD not in theirs[0]:
                continue
            if compatible(tokens, theirs) and context(merge(tokens, theirs)) >= MIN_CONTEXT:
                root = self._union(root, other)
                tokens = self._tokens[root]

    def _count_slots(self, node: int, tokens: tuple[str, ...]) -> None:
        if len(tokens) > MAX_SLOT_TOKENS:
            return
        for i, token in enumerate(tokens):
            shape = generalised(token)
            if shape is None:
                continue
            key = (*tokens[:i], shape, *tokens[i + 1 :])
            if context(key, skip=i) < MIN_CONTEXT:
                continue
            words = self._slots.setdefault(key, {})
            words.setdefault(token, node)
            self._slots_of_word[token].add(key)
            if key in self._open_slots:
                self._union(node, words[next(iter(words))])
                self._learn(token)
            else:
                self._consider(key)

    # --- slots --------------------------------------------------------------------------------
    def _consider(self, key: tuple) -> None:
        words = self._slots[key]
        known = sum(1 for w in words if w in self._variable_words)
        if len(words) >= MIN_VALUES or (len(words) >= 2 and known == len(words)):
            self._open(key)

    def _open(self, key: tuple) -> None:
        self._open_slots.add(key)
        nodes = list(self._slots[key].values())
        for other in nodes[1:]:
            self._union(nodes[0], other)
        for word in list(self._slots[key]):
            self._learn(word)

    def _learn(self, word: str) -> None:
        """A word proved to be a variable value: reconsider the other slots it was seen in."""
        if word in self._variable_words:
            return
        self._variable_words.add(word)
        for key in list(self._slots_of_word[word]):
            if key not in self._open_slots:
                self._consider(key)

    # --- union-find -----------------------------------------------------------------------------
    def _find(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def _union(self, a: int, b: int) -> int:
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return ra
        merged = merge(self._tokens[ra], self._tokens[rb])
        widened = merged != self._tokens[ra] or merged != self._tokens[rb]
        self._parent[rb] = ra
        self._roots_by_len[len(self._tokens[rb])].discard(rb)
        del self._root_fp[rb]
        self._tokens[ra] = merged
        self._set_root(ra, merged)
        if widened:  # new variables may now cover other groups
            self._absorb(ra)
        return self._find(ra)

    def _set_root(self, root: int, tokens: tuple[str, ...]) -> None:
        fp = fingerprint_of(join(tokens))
        other = self._node_of_fp.setdefault(fp, root)
        self._root_fp[root] = fp
        if self._find(other) != root:  # two groups arrived at the same template: one pattern
            self._union(other, root)
