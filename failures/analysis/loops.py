"""Failure loops in one task's history since its last success. Pure, no Django.

The input is the chronological sequence of pattern ids of a task's failures since it last
succeeded. A task is looping when the tail of that sequence keeps coming back the same way:

* ``repeat``: the same pattern again and again (retrying changes nothing);
* ``alternating``: exactly two patterns taking turns, A, B, A, B (the fix for A causes B and the
  fix for B brings back A).

Only the tail counts: a loop that was broken by a different failure is not a loop any more.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

REPEAT = "repeat"
ALTERNATING = "alternating"
# Three identical failures in a row: the same threshold as the boot briefing's skip rule.
MIN_REPEAT = 3
# Two full A, B cycles: one A, B, A could still be a coincidence, A, B, A, B is a pattern.
MIN_ALTERNATING = 4


@dataclass(frozen=True)
class Loop:
    """A loop at the tail of a sequence."""

    kind: str  # REPEAT or ALTERNATING
    patterns: tuple  # the one or two patterns, in the order they first appear in the loop
    length: int  # how many failures the loop spans
    start: int  # index in the sequence of the loop's first failure


def repeat_tail(sequence: Sequence[Hashable]) -> int:
    """How many items at the end of ``sequence`` equal its last item (0 when empty)."""
    length = 0
    for item in reversed(sequence):
        if item != sequence[-1]:
            break
        length += 1
    return length


def alternating_tail(sequence: Sequence[Hashable]) -> int:
    """Length of the longest suffix that alternates between exactly two different items.

    Each item of such a suffix equals the one two places later, and the last two differ;
    0 when the last two items are equal or there are fewer than two.
    """
    size = len(sequence)
    if size < 2 or sequence[-1] == sequence[-2]:
        return 0
    length = 2
    while length < size and sequence[size - 1 - length] == sequence[size + 1 - length]:
        length += 1
    return length


def loop_detect(
    sequence: Sequence[Hashable],
    *,
    min_repeat: int = MIN_REPEAT,
    min_alternating: int = MIN_ALTERNATING,
) -> Loop | None:
    """The loop at the tail of ``sequence``, or None. At most one: a tail cannot both repeat
    (its last two items equal) and alternate (its last two items differ)."""
    if min_repeat < 2 or min_alternating < 3:
        raise ValueError("a loop needs min_repeat >= 2 and min_alternating >= 3")
    size = len(sequence)
    repeated = repeat_tail(sequence)
    if repeated >= min_repeat:
        return Loop(REPEAT, (sequence[-1],), repeated, size - repeated)
    alternated = alternating_tail(sequence)
    if alternated >= min_alternating:
        start = size - alternated
        return Loop(ALTERNATING, (sequence[start], sequence[start + 1]), alternated, start)
    return None
