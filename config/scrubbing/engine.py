"""The scrubbing engine: one trigger scan over the lowercased text, then each rule tried only
where its triggers occur (see ``Rule``), in ``RULES`` order.  The walk of JSON-like values is
in ``walk``."""

from __future__ import annotations

import re

from .commands import COMMAND_RULES
from .context import CONTEXT_RULES
from .normalise import normalise
from .providers import PROVIDER_RULES
from .rule import Rule, marker
from .tokens import TOKEN_RULES

# Token rules first: a provider token inside a URL, header or key=value is named by its
# provider, and whole PEM blocks go before anything inside them is matched piecemeal.
RULES: tuple[Rule, ...] = TOKEN_RULES + PROVIDER_RULES + CONTEXT_RULES + COMMAND_RULES


def _trie_pattern(words: list[str]) -> str:
    """Regex matching any of ``words``, written as a trie ("sk-(?:ant-)?")
    so ``re`` decides on one character at a time instead of retrying every
    word at every position; optional tails are greedy, so the LONGEST
    trigger at a position is the one captured."""
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alternatives = [
            re.escape(char) + emit(child) for char, child in sorted(node.items()) if char
        ]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        if "" in node:  # a trigger ends here; a longer one may continue
            return ("(?:" + body + ")?") if len(alternatives) == 1 else body + "?"
        return body

    return emit(root)


_ALL_TRIGGERS = sorted({trigger for rule in RULES for trigger in rule.triggers})
# One regex over the lowercase text finds every trigger occurrence; this
# single scan is the fast pre-check (text with no trigger is returned right
# after it).  It starts with a plain character set, so re skips
# non-candidate characters in C; a zero-width "(?=(...))" form would also
# report overlapping triggers but disables that skip (~1.6x slower), so
# overlaps are handled by resuming the search one character after each hit.
_TRIGGER_SCAN = re.compile(_trie_pattern(_ALL_TRIGGERS))
# Longest trigger found at a position -> indices of the rules whose triggers
# occur there (every trigger that is a prefix of the found one).
_RULES_AT: dict[str, tuple[int, ...]] = {
    found: tuple(
        index
        for index, rule in enumerate(RULES)
        if any(found.startswith(trigger) for trigger in rule.triggers)
    )
    for found in _ALL_TRIGGERS
}
# Rules with case-sensitive triggers instead (see Rule): (index, those triggers, shortest match).
_EXACT: tuple[tuple[int, tuple[str, ...], int], ...] = tuple(
    (index, rule.exact_triggers, rule.min_length)
    for index, rule in enumerate(RULES)
    if rule.exact_triggers
)
# Any exact trigger: one search in C, so that text without one costs a single call; text
# shorter than every exact rule's shortest match skips even that, and each rule is only
# searched in text as long as its shortest match.
_EXACT_MIN = min((shortest for _, _, shortest in _EXACT), default=0)
_EXACT_SCAN = re.compile(
    "|".join(re.escape(trigger) for _, exact, _ in _EXACT for trigger in exact)
)
# Per rule: the secret group indices (see Rule), computed once.
_SECRET_GROUPS: tuple[tuple[int, ...], ...] = tuple(rule.secret_groups() for rule in RULES)


def _candidates(text: str, lowered: str) -> dict[int, list[int]]:
    """Rule index -> where to try it: the positions of its triggers, or [0] for a rule with
    exact triggers of which one occurs in ``text`` (such a rule is searched, not anchored)."""
    hits = _find_triggers(lowered)
    if len(text) >= _EXACT_MIN and _EXACT_SCAN.search(text) is not None:
        size = len(text)
        for index, exact, shortest in _EXACT:
            if size >= shortest and any(trigger in text for trigger in exact):
                hits[index] = [0]
    return hits


def _find_triggers(lowered: str) -> dict[int, list[int]]:
    """Rule index -> ascending positions where one of its triggers starts."""
    hits: dict[int, list[int]] = {}
    search = _TRIGGER_SCAN.search
    found = search(lowered)
    while found is not None:
        position = found.start()
        for index in _RULES_AT[found.group()]:
            hits.setdefault(index, []).append(position)
        # Resume right after the hit's first character, not after the hit:
        # "secretaccesskey" holds "secret" and "access", "csrftoken" holds
        # "token", and each may anchor a different rule.
        found = search(lowered, position + 1)
    return hits


# An edit: the span [start, end) of the text was replaced by a marker of
# length new_length.  Only the secret itself is an edit; the kept parts of a
# match (key, scheme, host) keep their positions.
_Edit = tuple[int, int, int]


def _secret_span(groups: tuple[int, ...], match: re.Match[str]) -> tuple[int, int] | None:
    """Span of the participating, non-empty secret group, if any."""
    for index in groups:
        start, end = match.span(index)
        if start != -1 and end > start:
            return start, end
    return None


def _marker_for(
    rule: Rule, groups: tuple[int, ...], match: re.Match[str], text: str
) -> tuple[int, int, str] | None:
    """(start, end, marker) for the secret in ``match``, or None if the rule
    declines this match or its secret group is empty."""
    span = _secret_span(groups, match)
    if span is None:
        return None
    kind = rule.accept(match, text) if rule.accept is not None else rule.name
    if kind is None:
        return None
    return span[0], span[1], marker(kind)


def _apply_at(
    rule: Rule, groups: tuple[int, ...], text: str, positions: list[int]
) -> tuple[str, list[_Edit]]:
    """Try the rule's regex only at ``positions`` (see Rule.anchored)."""
    match_at = rule.regex.match
    pieces: list[str] = []
    edits: list[_Edit] = []
    done = 0  # text[:done] is emitted; a later match may not start before it
    skip_from = skip_until = 0  # inside a declined value (see below)
    for position in positions:
        if position < done or skip_from <= position < skip_until:
            continue
        match = match_at(text, position)
        if match is None:
            continue
        found = _marker_for(rule, groups, match, text)
        if found is None:
            # Declined ("pwd=/home/x", "token: expired").  Later anchors in
            # the key part or at the value's first character still get a
            # try ("Basic Basic <b64>"), but not those strictly inside the
            # declined value: that keeps the work linear on inputs like
            # "pwd=/pwd=/pwd=/..." where every value contains the next key.
            span = _secret_span(groups, match)
            if span is not None:
                skip_from, skip_until = span[0] + 1, span[1]
            continue
        start, end, marker = found
        pieces.append(text[done:start])
        pieces.append(marker)
        edits.append((start, end, len(marker)))
        done = match.end()
        pieces.append(text[end:done])
    if not edits:
        return text, edits
    pieces.append(text[done:])
    return "".join(pieces), edits


def _apply_searched(rule: Rule, groups: tuple[int, ...], text: str) -> str:
    """Run the rule's regex over the whole text (see Rule.anchored)."""

    def replace(match: re.Match[str]) -> str:
        found = _marker_for(rule, groups, match, text)
        if found is None:
            return match.group(0)
        start, end, marker = found
        return text[match.start() : start] + marker + text[end : match.end()]

    return rule.regex.sub(replace, text)


def _shift(positions: list[int], edits: list[_Edit]) -> list[int]:
    """Map positions through ``edits`` (ascending, non-overlapping): drop the
    ones inside a replaced secret, move later ones by the length change."""
    shifted: list[int] = []
    edit_index = 0
    delta = 0
    for position in positions:
        while edit_index < len(edits) and edits[edit_index][1] <= position:
            start, end, new_length = edits[edit_index]
            delta += new_length - (end - start)
            edit_index += 1
        if edit_index < len(edits) and edits[edit_index][0] <= position:
            continue  # inside a secret that is now a marker
        shifted.append(position + delta)
    return shifted


# Short texts seen before in which no rule can match (agent names, task types, error types,
# file paths, approaches: agents send the same ones again and again), so each costs one dict
# lookup the next time.  Only texts that hold no secret and need no normalising are kept;
# cleared when full.
_CLEAN: dict[str, None] = {}
_CLEAN_MAX, _CLEAN_MAX_LENGTH = 8192, 256


def scrub_text(text: str) -> str:
    """Return ``text`` normalised (``normalise``), with every recognised secret replaced by a
    marker.

    Text with nothing to remove and in which no rule can match is returned as the same object.
    """
    if not text or text in _CLEAN:
        return text
    sent = text
    text = normalise(text)
    lowered = text.lower()
    hits = _candidates(text, lowered)
    if not hits:
        if text is sent and len(text) <= _CLEAN_MAX_LENGTH:
            if len(_CLEAN) >= _CLEAN_MAX:
                _CLEAN.clear()
            _CLEAN[text] = None
        return text
    # str.lower() changes the length of a few non-ASCII characters
    # ("İ" -> "i̇"), which would misplace anchor positions; such text uses the
    # plain regex search for every rule (slower, same result).
    aligned = len(lowered) == len(text)
    # Only the rules found at the start: an edit only removes trigger positions, or adds
    # those inside a marker, which no rule matches (scrubbing is idempotent).
    for index in sorted(hits):
        positions = hits.get(index)
        if not positions:
            continue
        rule, groups = RULES[index], _SECRET_GROUPS[index]
        if rule.anchored and aligned:
            text, edits = _apply_at(rule, groups, text, positions)
            if edits:
                hits = {i: _shift(p, edits) for i, p in hits.items() if i > index}
        else:
            new_text = _apply_searched(rule, groups, text)
            if new_text != text:
                text = new_text
                lowered = text.lower()
                aligned = len(lowered) == len(text)
                hits = {i: p for i, p in _candidates(text, lowered).items() if i > index}
    return text
