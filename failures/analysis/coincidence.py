"""Which patterns start and stop together more often than chance allows; grouping them.
Pure, no Django.

**Bursts.** A pattern's failures (all agents together), in time order, form bursts: a failure
less than GAP after the previous one continues its burst, a longer pause starts a new one. A
burst has a start (first failure), an end (last failure so far) and the agents that failed in it.

**Coincidence.** A burst of A and a burst of B coincide when they start within TOLERANCE of each
other and end within TOLERANCE of each other, and at least MIN_AGENTS agents failed in both
(one agent's own run hitting two faults at once is not a shared cause). Only the times count,
never the clock: an incident inside one hour and one across an hour boundary are alike.
A burst still going on ends, so far, at its latest failure: symptoms are compared while they
last. A burst that starts as the observation starts has no known start and coincides with
nothing.

**Chance.** Independent faults coincide too, the more often the more bursts they have. For each
burst ``a`` of A, the chance that B coincides with it by accident is computed as if B's bursts,
keeping their lengths, started at random times: a burst of B of length ``d`` coincides with
``a`` (length ``D``) when it starts in a stretch of ``max(0, 2 * TOLERANCE - |D - d|)``. The
expected number of coinciding B bursts is the sum of those stretches over B's bursts divided by
the time they spread over: the observation span (the window, or less on a young install), or,
when it gives more, the NEIGHBOURHOOD either side of ``a`` with only B's bursts starting there
(not those close enough to coincide). So a fault that only began lately, or trickles for a few
hours, is judged by how busy it is there, not diluted over the week. The chance is
``1 - exp(-expected)``.

**Test.** Rarer coincidences weigh more: a sustained burst matched start and end is far less
likely than a single failure landing near another. Taking the observed coincidences of A from
the least to the most likely, for each threshold the observed count ``k`` is compared with the
number expected by chance over all bursts of A at least as unlikely (``mu``, the sum of their
chances): the p-value is the Poisson tail ``P(K >= k | mu)``, the smallest over thresholds
times the number of thresholds tried. The same is done from B's side; the larger p-value counts.
Two patterns are linked when it is at most MAX_P_VALUE, or at most FALSE_LINKS divided by the
number of pairs that coincide at all, when that is smaller: however many pairs are tested, the
false links expected among them stay under FALSE_LINKS.

An eight-minute outage seen by four agents, after a week of history, is one coincidence with a
chance near ``2 * TOLERANCE / week`` (about 1e-3): linked at its first occurrence. A pair of
trickles has many coincidences, but as many as their rates predict: not linked. On an install a
few hours old, a single coincidence is not rare enough; a second one links.

**Outages.** One coincidence carries more evidence than its pair test uses when several
patterns burst together, seen by the same agents. For each burst ``a`` (an anchor), the other
patterns that burst with it are counted: a burst of B starting within TOLERANCE of ``a``'s
start, continued by B's later bursts that start before ``a`` ends (a symptom that pauses
mid-outage resumes it), ending within TOLERANCE of ``a``'s end, with at least ``m`` of ``a``'s
agents failing in it. By chance, B starts a burst within TOLERANCE of ``a``'s start with the
chance its bursts' start rate gives (overall or local, as above; a burst's length is not used,
which only makes the chance larger), and one of those shares ``m`` agents with ``a`` with the
hypergeometric chance of drawing them among the fleet's agents (B's bursts at their largest).
The count of such patterns is Poisson with the sum of those chances; the p-value of the count
seen is its tail, for the ``m`` that makes it smallest, times the number of ``m`` tried. Only
three or more patterns together are judged so (a pair keeps the test above), and the anchor
passes at FALSE_LINKS divided by the number of anchors there are (every burst of the
observation), at most MAX_P_VALUE: a three-way burst of four agents in six, on an install
three hours old, has a chance near 1e-5 and is grouped at its first occurrence; independent
faults that happen to burst in the same minutes share too few agents, or too few of them do.
Its patterns are linked pairwise, with the anchor's p-value.

``components`` turns links into groups with a union-find that refuses any union putting a
forbidden pair (a human's split) into one group.
"""

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import accumulate, combinations
from math import comb, exp

# Failures of one pattern closer than this belong to one burst: agents retry within a minute or
# two while a dependency is down, and a quiet spell longer than this ends the burst.
GAP = timedelta(minutes=5)
# Symptoms of one fault start (and stop) within this of each other: each agent meets each
# symptom on its next call to the broken dependency.
TOLERANCE = timedelta(minutes=3)
# Where a pattern's local rate is measured, either side of a burst of the other pattern.
NEIGHBOURHOOD = timedelta(hours=1)
# The "two or more agents": one agent's run can hit two faults at once by itself.
MIN_AGENTS = 2
# At most this p-value links two patterns: one expected false link per hundred independent pairs
# that coincide at all (the scan over thresholds is conservative, so fewer in practice)...
MAX_P_VALUE = 0.01
# ...and less when more pairs coincide: the threshold is at most this many false links expected
# among all the pairs tested (a busy fleet of hundreds of patterns tests thousands; a fleet where
# coincidences across two agents are rare, a few dozen, and keeps MAX_P_VALUE).
FALSE_LINKS = 0.2


@dataclass(frozen=True)
class Burst:
    start: datetime
    end: datetime
    failures: int
    agents: frozenset


@dataclass(frozen=True)
class Coincidence:
    start: datetime  # the earlier start of the two bursts
    end: datetime  # the later end
    agents: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    """Evidence that patterns ``a`` < ``b`` start and stop together beyond chance."""

    a: Hashable
    b: Hashable
    p_value: float
    expected: float  # coincidences expected by chance over all bursts (the larger side)
    coincidences: tuple[Coincidence, ...]  # oldest first

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(sorted({agent for c in self.coincidences for agent in c.agents}))


def bursts_of(failures: Iterable[tuple[datetime, str]], *, gap: timedelta = GAP) -> list[Burst]:
    """The bursts of one pattern's ``(occurred_at, agent)`` failures, given in time order."""
    bursts: list[Burst] = []
    # The open burst's first and latest failure: both None, or both set, before each failure.
    start: datetime | None = None
    end: datetime | None = None
    agents: set = set()
    count = 0
    for moment, agent in failures:
        if start is not None and end is not None and moment - end >= gap:
            bursts.append(Burst(start, end, count, frozenset(agents)))
            start, agents, count = None, set(), 0
        if start is None:
            start = moment
        end = moment
        agents.add(agent)
        count += 1
    if start is not None and end is not None:
        bursts.append(Burst(start, end, count, frozenset(agents)))
    return bursts


def poisson_tail(k: int, mu: float) -> float:
    """P(K >= k) for K ~ Poisson(mu)."""
    if k <= 0:
        return 1.0
    if mu <= 0:
        return 0.0
    term = exp(-mu)
    if k <= mu:  # the head is short and the tail is not small: subtract the head
        head = 0.0
        for i in range(k):
            head += term
            term *= mu / (i + 1)
        return max(0.0, 1.0 - head)
    for i in range(k):  # the first term of the tail, then the tail's terms until negligible
        term *= mu / (i + 1)
    tail, i = 0.0, k
    while term > 1e-18 * tail or tail == 0.0:
        tail += term
        i += 1
        term *= mu / i
        if term == 0.0:
            break
    return min(1.0, tail)


class _Series:
    """One pattern's bursts as numbers (seconds): starts in order, and lengths sorted with
    prefix sums, so the expected coincidences with a burst of given length cost a bisection."""

    def __init__(self, bursts: Sequence[Burst]):
        self.bursts = sorted(bursts, key=lambda b: b.start)
        self.starts = [b.start.timestamp() for b in self.bursts]
        self.ends = [b.end.timestamp() for b in self.bursts]
        self.lengths = [e - s for s, e in zip(self.starts, self.ends, strict=True)]
        self.sorted_lengths = sorted(self.lengths)
        self.prefix = [0.0, *accumulate(self.sorted_lengths)]

    def overlap(self, length: float, width: float) -> float:
        """Sum over bursts of ``max(0, width - |length - d|)``: the stretch of start times in
        which a burst of length ``d`` would coincide with one of ``length``."""
        lo = bisect_left(self.sorted_lengths, length - width)
        mid = bisect_left(self.sorted_lengths, length)
        hi = bisect_right(self.sorted_lengths, length + width)
        below = (mid - lo) * (width - length) + (self.prefix[mid] - self.prefix[lo])
        above = (hi - mid) * (width + length) - (self.prefix[hi] - self.prefix[mid])
        return below + above

    def local_overlap(
        self, start: float, length: float, width: float, near: float, tolerance: float
    ) -> float:
        """As ``overlap``, over the bursts starting within ``near`` of ``start`` but not within
        ``tolerance`` of it."""
        total = 0.0
        for i in range(
            bisect_left(self.starts, start - near), bisect_right(self.starts, start + near)
        ):
            if abs(self.starts[i] - start) > tolerance:
                total += max(0.0, width - abs(length - self.lengths[i]))
        return total


class _Chance:
    """The chance that ``other`` coincides by accident with each burst of ``own`` (see the
    module: B's bursts, keeping their lengths, at random times, at its overall or local rate)."""

    def __init__(
        self, own: _Series, other: _Series, *, span: float, tolerance: float, near: float
    ):
        self.own, self.other, self.span, self.tolerance, self.near = (
            own,
            other,
            span,
            tolerance,
            near,
        )

    def __call__(self, index: int) -> float:
        width, tol = 2 * self.tolerance, self.tolerance
        start, length = self.own.starts[index], self.own.lengths[index]
        rate = max(
            self.other.overlap(length, width) / self.span,
            self.other.local_overlap(start, length, width, self.near, tol)
            / (2 * (self.near - tol)),
        )
        return 1.0 - exp(-rate)


def _p_value_at_least(chance: _Chance, observed: set[int]) -> float:
    """A lower bound of ``_side_p_value`` from the observed bursts' chances alone (the expected
    count only grows with the other bursts): cheap, and enough to rule most pairs out."""
    chances = sorted(chance(i) for i in observed)
    mu, best = 0.0, 1.0
    for k, value in enumerate(chances, 1):
        mu += value
        best = min(best, poisson_tail(k, mu))
    return best


def _side_p_value(chance: _Chance, observed: set[int]) -> tuple[float, float]:
    """(p-value, expected coincidences) from ``chance.own``'s side: ``observed`` are its bursts
    that coincide with one of ``chance.other``'s."""
    chances = [chance(i) for i in range(len(chance.own.starts))]
    order = sorted(range(len(chances)), key=chances.__getitem__)
    thresholds = sorted({chances[i] for i in observed})
    best, mu, k, position = 1.0, 0.0, 0, 0
    for threshold in thresholds:
        while position < len(order) and chances[order[position]] <= threshold:
            mu += chances[order[position]]
            k += order[position] in observed
            position += 1
        best = min(best, poisson_tail(k, mu))
    return min(1.0, best * len(thresholds)), sum(chances)


def coincidence_links(
    bursts: Mapping[Hashable, Sequence[Burst]],
    *,
    since: datetime,
    until: datetime,
    tolerance: timedelta = TOLERANCE,
    near: timedelta = NEIGHBOURHOOD,
    min_agents: int = MIN_AGENTS,
    max_p_value: float = MAX_P_VALUE,
    false_links: float = FALSE_LINKS,
) -> list[Link]:
    """Pairs of patterns that start and stop together beyond chance (see the module), most
    significant first. ``bursts`` maps each pattern to its bursts observed from ``since`` to
    ``until``. A burst that starts within ``tolerance`` of ``since`` may have begun before it:
    its start is unknown, so it coincides with nothing (faults already failing when the
    observation began did not start together). Coincidences are found by one sweep over all
    bursts in start order, and only pairs that coincide are tested, so the cost follows
    coincidences rather than the square of the patterns."""
    series = {pattern: _Series(found) for pattern, found in bursts.items() if found}
    tol = tolerance.total_seconds()
    span = max((until - since).total_seconds(), 2 * tol)
    observed_from = since.timestamp() + tol
    starts = sorted(
        (s.starts[i], pattern, i)
        for pattern, s in series.items()
        for i in range(len(s.starts))
        if s.starts[i] > observed_from
    )
    times = [start for start, _, _ in starts]
    coinciding: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for index, (start, pattern, i) in enumerate(starts):
        for _, other, j in starts[index + 1 : bisect_right(times, start + tol)]:
            if other == pattern:
                continue
            (a, x), (b, y) = sorted(((pattern, i), (other, j)))
            if (
                abs(series[a].ends[x] - series[b].ends[y]) <= tol
                and len(series[a].bursts[x].agents & series[b].bursts[y].agents) >= min_agents
            ):
                coinciding[(a, b)].append((x, y))
    # Many pairs tested, some pass by chance: their threshold shrinks so that the false links
    # expected among them stay within ``false_links``.
    threshold = min(max_p_value, false_links / max(1, len(coinciding)))
    links = []
    for (a, b), pairs in sorted(coinciding.items()):
        sides = [
            (
                _Chance(series[a], series[b], span=span, tolerance=tol, near=near.total_seconds()),
                {x for x, _ in pairs},
            ),
            (
                _Chance(series[b], series[a], span=span, tolerance=tol, near=near.total_seconds()),
                {y for _, y in pairs},
            ),
        ]
        if any(_p_value_at_least(*side) > threshold for side in sides):
            continue
        (p_a, mu_a), (p_b, mu_b) = (_side_p_value(*side) for side in sides)
        if max(p_a, p_b) <= threshold:
            links.append(
                Link(
                    a,
                    b,
                    max(p_a, p_b),
                    round(max(mu_a, mu_b), 4),
                    tuple(
                        _coincidence(series[a].bursts[x], series[b].bursts[y])
                        for x, y in sorted(pairs)
                    ),
                )
            )
    return sorted(links, key=lambda link: (link.p_value, link.a, link.b))


# Fewest patterns bursting together that the outage test judges (fewer: the pair test).
OUTAGE_PATTERNS = 3


def outage_links(
    bursts: Mapping[Hashable, Sequence[Burst]],
    *,
    since: datetime,
    until: datetime,
    tolerance: timedelta = TOLERANCE,
    near: timedelta = NEIGHBOURHOOD,
    min_agents: int = MIN_AGENTS,
    max_p_value: float = MAX_P_VALUE,
    false_links: float = FALSE_LINKS,
) -> list[Link]:
    """Pairs of patterns that burst together with OUTAGE_PATTERNS or more, seen by the same
    agents, beyond chance (see the module), most significant first. Arguments as for
    ``coincidence_links``; a burst of unknown start is no anchor."""
    series = {pattern: _Series(found) for pattern, found in bursts.items() if found}
    tol, span = (
        tolerance.total_seconds(),
        max((until - since).total_seconds(), 2 * tolerance.total_seconds()),
    )
    observed_from = since.timestamp() + tol
    fleet = len({agent for s in series.values() for b in s.bursts for agent in b.agents})
    widest = {pattern: max(len(b.agents) for b in s.bursts) for pattern, s in series.items()}
    # Every burst start, in order: the patterns that may burst with an anchor start near it.
    starts = sorted(
        (s.starts[i], pattern) for pattern, s in series.items() for i in range(len(s.starts))
    )
    times = [start for start, _ in starts]
    # Only a burst that two or more agents failed in can be an anchor: the test is made (and
    # its threshold shared) only among those.
    anchors = [
        (pattern, i)
        for pattern, s in series.items()
        for i in range(len(s.starts))
        if s.starts[i] > observed_from and len(s.bursts[i].agents) >= min_agents
    ]
    threshold = min(max_p_value, false_links / max(1, len(anchors)))
    # (a, b) -> (p-value, patterns expected to burst so by chance, coincidences)
    found: dict[tuple, tuple[float, float, list[Coincidence]]] = {}

    def joint(pattern, burst: Burst) -> dict:
        """The other patterns bursting with ``burst``: each one's burst, continued."""
        start, end = burst.start.timestamp(), burst.end.timestamp()
        near_by = {
            other
            for _, other in starts[
                bisect_left(times, start - tol) : bisect_right(times, start + tol)
            ]
        }
        return {
            other: found
            for other in sorted(near_by - {pattern}, key=str)
            for found in [_continued(series[other], start, end, tol)]
            if found is not None and len(found.agents & burst.agents) >= min_agents
        }

    for pattern, i in anchors:
        anchor = series[pattern].bursts[i]
        together = joint(pattern, anchor)
        if len(together) < OUTAGE_PATTERNS - 1:
            continue
        group = {pattern: anchor, **together}
        judged = _outage_judged(
            series,
            group,
            pattern,
            joint,
            fleet=fleet,
            widest=widest,
            span=span,
            tol=tol,
            near=near.total_seconds(),
            min_agents=min_agents,
            threshold=threshold,
        )
        if judged is None:
            continue
        p_value, members, expected = judged
        for a, b in combinations(sorted(members, key=str), 2):
            best = found.get((a, b))
            coincidence = _coincidence(group[a], group[b])
            if best is None or p_value < best[0]:
                found[(a, b)] = (p_value, expected, [*(best[2] if best else []), coincidence])
            else:
                best[2].append(coincidence)
    links = [
        Link(
            a,
            b,
            p_value,
            round(expected, 4),
            tuple(sorted(set(coincidences), key=lambda c: c.start)),
        )
        for (a, b), (p_value, expected, coincidences) in found.items()
    ]
    return sorted(links, key=lambda link: (link.p_value, link.a, link.b))


def burst_links(
    bursts: Mapping[Hashable, Sequence[Burst]], *, since: datetime, until: datetime
) -> list[Link]:
    """Both tests' links (``coincidence_links`` and ``outage_links``), one per pair of
    patterns: the more significant where both link it."""
    best: dict[tuple, Link] = {}
    for link in [
        *coincidence_links(bursts, since=since, until=until),
        *outage_links(bursts, since=since, until=until),
    ]:
        if (link.a, link.b) not in best or link.p_value < best[(link.a, link.b)].p_value:
            best[(link.a, link.b)] = link
    return sorted(best.values(), key=lambda link: (link.p_value, link.a, link.b))


def _continued(series: _Series, start: float, end: float, tol: float) -> Burst | None:
    """A burst of ``series`` starting within ``tol`` of ``start``, continued by its later
    bursts that start before ``end``, when it ends within ``tol`` of ``end``; else None."""
    first = bisect_left(series.starts, start - tol)
    if first == len(series.starts) or series.starts[first] > start + tol:
        return None
    last = max(first, bisect_right(series.starts, end) - 1)
    if abs(max(series.ends[first : last + 1]) - end) > tol:
        return None
    parts = series.bursts[first : last + 1]
    return Burst(
        parts[0].start,
        max(part.end for part in parts),
        sum(part.failures for part in parts),
        frozenset(agent for part in parts for agent in part.agents),
    )


def _outage_judged(
    series: Mapping[Hashable, _Series],
    group: Mapping[Hashable, Burst],
    anchor,
    joint,
    *,
    threshold: float,
    **chances,
) -> tuple[float, set, float] | None:
    """(p-value, members, expected) of the patterns that burst together in ``group`` (each
    pattern's burst, the ``anchor``'s first), or None. The anchor's test picks its members; then
    each member is tested as an anchor in its turn, over all that bursts with its own burst
    (``joint``): the members are those every member counts, three or more, each passing. A
    fault that happened to burst in those minutes sees the outage's new symptoms as rare, but
    they, seen from their own bursts, count one another and not it. The p-value is the
    largest of the members', with the patterns that test expected by chance."""
    p_value, counted, expected = _outage_p_value(
        series, anchor, group[anchor], {p: b for p, b in group.items() if p != anchor}, **chances
    )
    if p_value > threshold:
        return None
    members = {anchor, *counted}
    worst = (p_value, expected)
    for member in sorted(members - {anchor}, key=str):
        if member not in members:
            continue
        theirs_p, theirs, theirs_expected = _outage_p_value(
            series, member, group[member], joint(member, group[member]), **chances
        )
        if theirs_p > threshold:
            return None
        members &= {member, *theirs}
        worst = max(worst, (theirs_p, theirs_expected))
        if len(members) < OUTAGE_PATTERNS or anchor not in members:
            return None
    return worst[0], members, worst[1]


def _outage_p_value(
    series: Mapping[Hashable, _Series],
    pattern,
    burst: Burst,
    joint: Mapping[Hashable, Burst],
    *,
    fleet: int,
    widest: Mapping,
    span: float,
    tol: float,
    near: float,
    min_agents: int,
) -> tuple[float, list, float]:
    """(p-value, the patterns counted, the count chance expected) of the patterns bursting with
    ``pattern``'s ``burst`` (``joint``), see the module: for each number of shared agents ``m``
    and each chance ``t`` of one of them, those as unlikely as ``t`` or less are counted against
    the sum of the chances of every pattern's doing so; the smallest Poisson tail, times the
    number of (``m``, ``t``) tried."""
    start, agents = burst.start.timestamp(), burst.agents
    # The chance that each other pattern starts a burst within tol of the burst's start.
    starting = {}
    for other, s in series.items():
        if other == pattern:
            continue
        local = sum(
            1
            for j in range(
                bisect_left(s.starts, start - near), bisect_right(s.starts, start + near)
            )
            if abs(s.starts[j] - start) > tol
        )
        rate = max(len(s.starts) / span, local / (2 * (near - tol)))
        starting[other] = 1.0 - exp(-rate * 2 * tol)
    shared = {other: len(found.agents & agents) for other, found in joint.items()}
    best, members, expected, tried = 1.0, [], 0.0, 0
    for m in range(min_agents, len(agents) + 1):
        chances = {
            other: chance * _sharing(fleet, len(agents), min(widest[other], fleet), m)
            for other, chance in starting.items()
        }
        seen = sorted((chances[other], str(other), other) for other, n in shared.items() if n >= m)
        if len(seen) < OUTAGE_PATTERNS - 1:
            break
        every = sorted(chances.values())
        for k in range(OUTAGE_PATTERNS - 1, len(seen) + 1):
            tried += 1
            mu = sum(every[: bisect_right(every, seen[k - 1][0])])
            p_value = poisson_tail(k, mu)
            if p_value < best:
                best, members, expected = p_value, [other for _, _, other in seen[:k]], mu
    return min(1.0, best * max(1, tried)), members, expected


def _sharing(fleet: int, drawn: int, other: int, at_least: int) -> float:
    """The chance that ``other`` agents drawn at random among ``fleet`` include at least
    ``at_least`` of ``drawn`` given ones (hypergeometric tail)."""
    total = comb(fleet, other)
    return (
        sum(
            comb(drawn, x) * comb(fleet - drawn, other - x)
            for x in range(at_least, min(drawn, other) + 1)
        )
        / total
        if total
        else 0.0
    )


def _coincidence(x: Burst, y: Burst) -> Coincidence:
    return Coincidence(
        min(x.start, y.start), max(x.end, y.end), tuple(sorted(x.agents | y.agents))
    )


def components(
    pairs: Iterable[tuple[Hashable, Hashable]], forbidden: Iterable[tuple[Hashable, Hashable]] = ()
) -> list[set]:
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
