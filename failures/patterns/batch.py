"""Batch mode: group a whole list of messages, answering after every merge has happened."""

from collections.abc import Iterable

from .grouper import PatternGrouper
from .normalise import template_of


def group_messages(messages: Iterable[str]) -> list[tuple[str, str]]:
    """``(pattern_fingerprint, pattern_template)`` for each message, in order."""
    grouper = PatternGrouper()
    fingerprints = [grouper.add(template_of(message)) for message in messages]
    final: dict[str, tuple[str, str]] = {}
    for fp in set(fingerprints):
        current = grouper.resolve(fp)
        final[fp] = (current, grouper.pattern_template(current))
    return [final[fp] for fp in fingerprints]
