"""Which patterns rise and fall together, and grouping them. Pure, no Django.

Input is the failure count of each (pattern, time bucket, agent) cell over a window. Two
patterns *move together* when

* the Pearson correlation of their per-bucket totals is high (they rise and fall together), and
* they failed in the same bucket for at least ``min_agents`` agents, in at least
  ``min_windows`` buckets: one agent, or one shared hour, can be a coincidence.

Pairs are only formed from cells two patterns share, so the cost follows co-occurrences rather
than the square of the number of patterns. ``components`` turns pairs into groups with a
union-find that refuses any union putting a forbidden pair (a human's split) into one group.
"""
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import sqrt

# A correlation of 0.8 means the two series share ~64% of their variance (r squared): a
# common driver, where independent faults of a busy fleet stay well below 0.5.
MIN_CORRELATION = 0.8
# The "across agents": the same pair failing together for one agent is one incident.
MIN_AGENTS = 2
# Rising and falling *together* needs two shared buckets at least; one is one coincidence.
MIN_WINDOWS = 2


@dataclass(frozen=True)
class CoMovement:
    """Evidence that patterns ``a`` < ``b`` move together."""

    a: Hashable
    b: Hashable
    correlation: float
    windows: tuple[int, ...]  # buckets where both failed for the same agent
    agents: tuple[str, ...]  # agents for which both failed in one bucket


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson correlation of two equally long series; 0.0 when either is constant."""
    if len(xs) != len(ys):
        raise ValueError("series must have the same length")
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    if vx == 0 or vy == 0:  # a flat series rises and falls with nothing
        return 0.0
    return cov / sqrt(vx * vy)


def series_of(counts: Mapping[tuple, int], *, buckets: int) -> dict[Hashable, list[int]]:
    """Per pattern, its total count in each bucket ``0 .. buckets - 1``."""
    series: dict[Hashable, list[int]] = {}
    for (pattern, bucket, _agent), n in counts.items():
        series.setdefault(pattern, [0] * buckets)[bucket] += n
    return series


def co_movements(counts: Mapping[tuple, int], *, buckets: int,
                 min_correlation: float = MIN_CORRELATION, min_agents: int = MIN_AGENTS,
                 min_windows: int = MIN_WINDOWS) -> list[CoMovement]:
    """Pairs of patterns that move together, strongest first; ``counts`` maps
    ``(pattern, bucket, agent)`` to a failure count."""
    cells: dict[tuple[int, str], set] = defaultdict(set)
    for (pattern, bucket, agent), n in counts.items():
        if n > 0:
            cells[(bucket, agent)].add(pattern)
    shared: dict[tuple, tuple[set, set]] = {}
    for (bucket, agent), patterns in cells.items():
        ordered = sorted(patterns)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                windows, agents = shared.setdefault((a, b), (set(), set()))
                windows.add(bucket)
                agents.add(agent)
    series = series_of(counts, buckets=buckets)
    found = []
    for (a, b), (windows, agents) in shared.items():
        if len(agents) < min_agents or len(windows) < min_windows:
            continue
        r = pearson(series[a], series[b])
        if r >= min_correlation:
            found.append(CoMovement(a, b, round(r, 4), tuple(sorted(windows)),
                                    tuple(sorted(agents))))
    return sorted(found, key=lambda m: (-m.correlation, m.a, m.b))


def components(pairs: Iterable[tuple[Hashable, Hashable]],
               forbidden: Iterable[tuple[Hashable, Hashable]] = ()) -> list[set]:
    """Groups (of two or more) joined by ``pairs``, taken in order; a pair that would put both
    sides of a ``forbidden`` pair into one group is skipped."""
    parent: dict = {}
    members: dict = {}
    apart: dict = defaultdict(set)
    for x, y in forbidden:
        apart[x].add(y)
        apart[y].add(x)

    def find(node):
        parent.setdefault(node, node)
        members.setdefault(node, {node})
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        small, large = sorted((ra, rb), key=lambda root: len(members[root]))
        if any(apart[node] & members[large] for node in members[small]):
            continue
        parent[small] = large
        members[large] |= members.pop(small)
    return [group for root, group in members.items() if parent[root] == root and len(group) > 1]
