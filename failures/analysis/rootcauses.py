"""Root-cause groups: patterns that look like one cause with different symptoms.

Two live patterns are linked when, over the last WINDOW_DAYS,

* they **start and stop together**: bursts of their failures begin within minutes of each other
  and end within minutes of each other, with two or more agents failing in both, and this
  happens more often, or more rarely by its kind, than their own rates explain; or three or
  more of them burst together, seen by the same agents, more rarely than chance allows even
  once (an outage on an install a few hours old)
  (failures.analysis.coincidence has the rules and their thresholds). Whatever the clock: there
  are no hourly buckets, only the moments failures happened;
* or they **name the same dependency**: a host, endpoint, table or service found in their
  newest messages (failures.analysis.dependencies), unless so many patterns name it that it tells
  nothing (MAX_PATTERNS_PER_DEPENDENCY).

The job runs every five minutes (settings.HINDSIGHT_PERIODIC_JOBS). Symptoms are compared while
they last (a burst ends, so far, at its latest failure), so an incident's symptoms are grouped
by a run a few minutes after they start together, and at the latest by the first run after
they stop together: within 15 minutes of the start for an outage of up to ten minutes. A run
costs what is active: it reads the window's failures of the patterns with failures written
since its previous run (its watermark, failures.store.jobstate; the first run reads the window)
and of the members of its current suggestions, whose links it checks again.

Linked patterns are grouped (union-find) and stored with the evidence of every link.
Recomputing is idempotent: a suggested group with the same members keeps its id and row;
suggestions no longer supported by the window are dropped. Human decisions stay: a confirmed
group is kept as it is and its patterns are not suggested elsewhere; the pairs of a split group
are never linked again (RootCauseSplit), not even through a third pattern. Each pattern knows
its open (suggested or confirmed) group, ``FailurePattern.root_cause_group``, which the failure
answer and the boot briefing read (failures.analysis.rootcause_notes).
"""

import hashlib
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from django.db import transaction
from django.db.models import Count, F, Min, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from failures.analysis.coincidence import Burst, Link, burst_links, bursts_of, components
from failures.analysis.dependencies import dependencies_of
from failures.live import live_pattern
from failures.models import (
    Failure,
    FailurePattern,
    JobState,
    RootCauseGroup,
    RootCauseMembership,
    RootCauseSplit,
)
from failures.store.jobstate import watermark_settled

JOB = "root_causes"
# A week: the rates that say how often two faults coincide by chance are measured over it, and
# an incident of last week still counts.
WINDOW_DAYS = 7
# A pattern needs this many failures in the window for its dependencies to link it.
MIN_EVENTS = 3
# The active patterns considered, most failures since the previous run first; bounds a run on a
# fleet-wide outage.
MAX_PATTERNS = 500
# Newest messages read per pattern for the dependencies they name; templates mask most hosts.
MESSAGE_SAMPLES = 5
# A dependency named by more patterns than this is infrastructure everything touches (the main
# database): grouping all of them would bury the real groups. Coincidence still links them.
MAX_PATTERNS_PER_DEPENDENCY = 10
# Coincidences listed in a link's evidence, newest; the count is always given.
EVIDENCE_COINCIDENCES = 24


@dataclass(frozen=True)
class RootCauseResult:
    patterns: int  # active patterns considered
    groups: int  # suggested groups now
    created: int
    removed: int


def root_causes_detect(*, now: datetime | None = None, days: int = WINDOW_DAYS) -> RootCauseResult:
    """Recompute the suggested root-cause groups of the active patterns from the last ``days``
    of failures."""
    now = now or timezone.now()
    since = now - timedelta(days=days)
    with transaction.atomic():
        state = JobState.locked(JOB)
        confirmed, forbidden = _decisions()
        written = Failure.objects.filter(pk__gt=state.failure_watermark)
        patterns = _active(written, since, now, exclude=confirmed)
        failures = _failures_of(patterns, since, now)
        observed_since = _observed_since(since, now)
        links: dict[tuple, list[dict]] = defaultdict(list)
        # Keyed by pattern id, as the coincidence module's any hashable key.
        bursts: dict[Hashable, list[Burst]] = {
            pattern: bursts_of(rows) for pattern, rows in failures.items()
        }
        for link in burst_links(bursts, since=observed_since, until=now):
            links[(link.a, link.b)].append(_link_evidence(link))
        frequent = {pattern for pattern, rows in failures.items() if len(rows) >= MIN_EVENTS}
        for pair, dependency in _shared_dependencies(frequent, since, now).items():
            links[pair].append({"signal": "dependency", "dependency": dependency})
        groups = components(links.keys(), forbidden)
        window = {
            "since": since.isoformat(),
            "until": now.isoformat(),
            "observed_since": observed_since.isoformat(),
        }
        created, removed = _groups_store(groups, links, window, now)
        state.failure_watermark = watermark_settled(
            rows=written, time_field="recorded_at", now=now, current=state.failure_watermark
        )
        state.ran_at = now
        state.save(update_fields=["failure_watermark", "ran_at"])
    return RootCauseResult(
        patterns=len(failures), groups=len(groups), created=created, removed=removed
    )


def _decisions() -> tuple[set[int], list[tuple[int, int]]]:
    """Live ids of the patterns in confirmed groups, and the pairs humans split."""
    confirmed = set(
        RootCauseMembership.objects.filter(group__status=RootCauseGroup.Status.CONFIRMED)
        .annotate(live=live_pattern("pattern"))
        .values_list("live", flat=True)
    )
    return confirmed, list(RootCauseSplit.objects.values_list("pattern_low_id", "pattern_high_id"))


def _active(written, since, now, *, exclude: set[int]) -> set[int]:
    """Live ids of the patterns with failures in the window written since the last run (the
    MAX_PATTERNS with most), and of the members of the suggested groups."""
    recent = (
        written.filter(occurred_at__gte=since, occurred_at__lte=now)
        .annotate(live=live_pattern("pattern"))
        .values("live")
        .annotate(n=Count("id"))
        .order_by("-n", "live")
        .values_list("live", flat=True)[:MAX_PATTERNS]
    )
    suggested = (
        RootCauseMembership.objects.filter(group__status=RootCauseGroup.Status.SUGGESTED)
        .annotate(live=live_pattern("pattern"))
        .values_list("live", flat=True)
    )
    return (set(recent) | set(suggested)) - exclude


def _failures_of(patterns: set[int], since, now) -> dict[int, list[tuple]]:
    """``live pattern -> [(occurred_at, agent)]`` in time order, over the window, read through
    the (pattern, occurred_at) index of each pattern and of those merged into it."""
    if not patterns:
        return {}
    live_of = dict(
        FailurePattern.objects.filter(Q(pk__in=patterns) | Q(merged_into__in=patterns))
        .annotate(live=live_pattern())
        .values_list("pk", "live")
    )
    rows = (
        Failure.objects.filter(
            pattern_id__in=live_of, occurred_at__gte=since, occurred_at__lte=now
        )
        .order_by("occurred_at", "id")
        .values_list("pattern_id", "occurred_at", "agent")
    )
    failures: dict[int, list[tuple]] = defaultdict(list)
    for pattern, occurred_at, agent in rows.iterator(chunk_size=5000):
        failures[live_of[pattern]].append((occurred_at, agent))
    return failures


def _observed_since(since, now) -> datetime:
    """The start of what the fleet has observed: the window's start, or the first failure in it
    on a younger install (rates over a week would make its recent faults look rare)."""
    first = Failure.objects.filter(occurred_at__gte=since, occurred_at__lte=now).aggregate(
        first=Min("occurred_at")
    )["first"]
    return max(since, first or now)


def _link_evidence(link: Link) -> dict:
    newest = link.coincidences[-EVIDENCE_COINCIDENCES:]
    return {
        "signal": "coincidence",
        "p_value": float(f"{link.p_value:.3g}"),
        "expected": link.expected,
        "coincidence_count": len(link.coincidences),
        "coincidences": [
            {"start": c.start.isoformat(), "end": c.end.isoformat(), "agents": list(c.agents)}
            for c in newest
        ],
        "agents": list(link.agents),
    }


def _shared_dependencies(patterns: set[int], since, now) -> dict[tuple[int, int], str]:
    """Pairs of patterns whose newest messages name one dependency, and the first such name."""
    if len(patterns) < 2:
        return {}
    newest = Window(
        RowNumber(), partition_by=[live_pattern("pattern")], order_by=F("occurred_at").desc()
    )
    rows = (
        Failure.objects.filter(occurred_at__gte=since, occurred_at__lte=now)
        .annotate(live=live_pattern("pattern"))
        .filter(live__in=patterns)
        .annotate(rank=newest)
        .filter(rank__lte=MESSAGE_SAMPLES)
        .values_list("live", "error")
    )
    named: dict[str, set[int]] = defaultdict(set)
    for pattern, message in rows:
        for dependency in dependencies_of(message):
            named[dependency].add(pattern)
    pairs: dict[tuple[int, int], str] = {}
    for dependency in sorted(named):
        if len(named[dependency]) <= MAX_PATTERNS_PER_DEPENDENCY:
            for pair in combinations(sorted(named[dependency]), 2):
                pairs.setdefault(pair, dependency)
    return pairs


def members_key(pattern_ids) -> str:
    """The key of a member set: equal sets, equal keys."""
    return hashlib.sha1(",".join(map(str, sorted(pattern_ids))).encode()).hexdigest()


def _groups_store(groups: list[set], links: dict, window: dict, now) -> tuple[int, int]:
    """Store the groups as suggestions, keeping the rows of unchanged ones; drop the rest."""
    existing = {
        g.members_key: g
        for g in RootCauseGroup.objects.select_for_update().filter(
            status=RootCauseGroup.Status.SUGGESTED
        )
    }
    created = 0
    for members in groups:
        evidence = _group_evidence(members, links, window)
        group = existing.pop(members_key(members), None)
        if group is not None:
            RootCauseGroup.objects.filter(pk=group.pk).update(evidence=evidence, detected_at=now)
            continue
        group = RootCauseGroup.objects.create(
            members_key=members_key(members), evidence=evidence, detected_at=now
        )
        RootCauseMembership.objects.bulk_create(
            [RootCauseMembership(group=group, pattern_id=pk) for pk in sorted(members)]
        )
        FailurePattern.objects.filter(pk__in=members).update(root_cause_group=group)
        created += 1
    # Their patterns' root_cause_group is set to null with them.
    RootCauseGroup.objects.filter(pk__in=[g.pk for g in existing.values()]).delete()
    return created, len(existing)


def _group_evidence(members: set, links: dict, window: dict) -> dict:
    """Every link between two members, with what supports it, and a summary of signals."""
    inside = [
        {"patterns": list(pair), **signal}
        for pair, signals in sorted(links.items())
        if set(pair) <= members
        for signal in signals
    ]
    return {
        "window": window,
        "links": inside,
        "signals": sorted({link["signal"] for link in inside}),
        "agents": sorted({a for link in inside for a in link.get("agents", ())}),
        "dependencies": sorted({link["dependency"] for link in inside if "dependency" in link}),
        "latest": _latest_episode(inside),
    }


def _latest_episode(links: list[dict]) -> dict | None:
    """The group's latest joint burst: the newest coincidence of its links merged with those
    overlapping it (start, end, agents); None for a group linked by dependencies only."""
    spans = sorted(
        (c["start"], c["end"], c["agents"]) for link in links for c in link.get("coincidences", ())
    )
    if not spans:
        return None
    since, until, agents = spans[0][0], spans[0][1], set(spans[0][2])
    for start, end, seen in spans[1:]:
        if start > until:  # ISO timestamps of one zone sort as the moments they name
            since, until, agents = start, end, set()
        until = max(until, end)
        agents |= set(seen)
    return {"since": since, "until": until, "agents": sorted(agents)}


def root_cause_group_confirm(*, group: RootCauseGroup, user=None) -> RootCauseGroup:
    """A human agrees the group is one root cause: recomputes keep it as it is."""
    with transaction.atomic():
        group = RootCauseGroup.objects.select_for_update().get(pk=group.pk)
        if group.status == RootCauseGroup.Status.SPLIT:
            raise ValueError("a split group cannot be confirmed; its pairs were ruled out")
        return _decide(group, RootCauseGroup.Status.CONFIRMED, user)


def root_cause_group_split(*, group: RootCauseGroup, user=None) -> RootCauseGroup:
    """A human says the group is not one root cause: none of its pairs is suggested again."""
    with transaction.atomic():
        group = RootCauseGroup.objects.select_for_update().get(pk=group.pk)
        ids = sorted(group.memberships.values_list("pattern_id", flat=True))
        RootCauseSplit.objects.bulk_create(
            [
                RootCauseSplit(pattern_low_id=a, pattern_high_id=b, group=group)
                for a, b in combinations(ids, 2)
            ],
            ignore_conflicts=True,
        )
        FailurePattern.objects.filter(root_cause_group=group).update(root_cause_group=None)
        return _decide(group, RootCauseGroup.Status.SPLIT, user)


def _decide(group: RootCauseGroup, status: str, user) -> RootCauseGroup:
    if group.status != status:
        group.status, group.decided_at, group.decided_by = status, timezone.now(), user
        group.save(update_fields=["status", "decided_at", "decided_by"])
    return group
