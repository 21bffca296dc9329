"""Root-cause groups: patterns that look like one cause with different symptoms.

Two live patterns are linked when, over the last WINDOW_DAYS,

* they **move together**: their hourly failure counts correlate and they failed in the same
  hour for two or more agents, in two or more hours (failures.correlation has the thresholds);
* or they **name the same dependency**: a host, endpoint, table or service found in their
  newest messages (failures.dependencies), unless so many patterns name it that it tells
  nothing (MAX_PATTERNS_PER_DEPENDENCY).

Linked patterns are grouped (union-find) and stored with the evidence of every link.
Recomputing is idempotent: a suggested group with the same members keeps its id and row;
suggestions no longer supported by the window are dropped. Human decisions stay: a confirmed
group is kept as it is and its patterns are not suggested elsewhere; the pairs of a split group
are never linked again (RootCauseSplit), not even through a third pattern.
"""
import hashlib
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from django.db import transaction
from django.db.models import Count, F, Window
from django.db.models.functions import Coalesce, RowNumber, TruncHour
from django.utils import timezone

from .correlation import CoMovement, co_movements, components
from .dependencies import dependencies_of
from .jobstate import job_state_lock
from .models import Failure, RootCauseGroup, RootCauseMembership, RootCauseSplit

JOB = "root_causes"
# A week of hourly buckets (169 with the partial first hour): daily rhythms show in it, and an
# incident of last week still counts.
WINDOW_DAYS = 7
BUCKET = timedelta(hours=1)
# A pattern with fewer failures in the window has no shape worth correlating.
MIN_EVENTS = 3
# The most frequent active patterns considered; bounds the job on a fleet-wide outage.
MAX_PATTERNS = 500
# Newest messages read per pattern for the dependencies they name; templates mask most hosts.
MESSAGE_SAMPLES = 5
# A dependency named by more patterns than this is infrastructure everything touches (the main
# database): grouping all of them would bury the real groups. Co-movement still links them.
MAX_PATTERNS_PER_DEPENDENCY = 10
# Shared hours listed in a link's evidence; the count is always given.
EVIDENCE_WINDOWS = 24



def _live() -> Coalesce:
    """A failure's live pattern: what its pattern was merged into, or the pattern itself."""
    return Coalesce("pattern__merged_into_id", "pattern_id")


@dataclass(frozen=True)
class RootCauseResult:
    patterns: int  # active patterns considered
    groups: int  # suggested groups now
    created: int
    removed: int


def root_causes_detect(*, now: datetime | None = None, days: int = WINDOW_DAYS) -> RootCauseResult:
    """Recompute the suggested root-cause groups from the last ``days`` of failures."""
    now = now or timezone.now()
    since = now - timedelta(days=days)
    with transaction.atomic():
        job_state_lock(name=JOB)
        confirmed, forbidden = _decisions()
        start = since.replace(minute=0, second=0, microsecond=0)
        counts = _bucket_counts(since, now, start, exclude=confirmed)
        patterns = {pattern for pattern, _, _ in counts}
        links: dict[tuple, list[dict]] = defaultdict(list)
        for movement in co_movements(counts, buckets=int((now - start) / BUCKET) + 1):
            links[(movement.a, movement.b)].append(_movement_evidence(movement, start))
        for pair, dependency in _shared_dependencies(patterns, since, now).items():
            links[pair].append({"signal": "dependency", "dependency": dependency})
        groups = components(links.keys(), forbidden)
        window = {"since": since.isoformat(), "until": now.isoformat(), "bucket_hours": 1}
        created, removed = _groups_store(groups, links, window, now)
    return RootCauseResult(patterns=len(patterns), groups=len(groups), created=created,
                           removed=removed)


def _decisions() -> tuple[set[int], list[tuple[int, int]]]:
    """Live ids of the patterns in confirmed groups, and the pairs humans split."""
    confirmed = set(RootCauseMembership.objects.filter(
        group__status=RootCauseGroup.Status.CONFIRMED).annotate(live=_live())
        .values_list("live", flat=True))
    return confirmed, list(RootCauseSplit.objects.values_list("pattern_low_id", "pattern_high_id"))


def _bucket_counts(since, now, start, *, exclude: set[int]) -> dict[tuple, int]:
    """``(pattern, hour index, agent) -> failures`` of the active patterns (MIN_EVENTS or more
    in the window, the MAX_PATTERNS most frequent), read through the recency index."""
    rows = (Failure.objects.filter(occurred_at__gte=since, occurred_at__lte=now)
            .annotate(live=_live(), hour=TruncHour("occurred_at"))
            .values("live", "hour", "agent").annotate(n=Count("id"))
            .values_list("live", "hour", "agent", "n"))
    counts, totals = {}, defaultdict(int)
    for pattern, hour, agent, n in rows:
        if pattern not in exclude:
            counts[(pattern, int((hour - start) / BUCKET), agent)] = n
            totals[pattern] += n
    active = sorted((p for p, n in totals.items() if n >= MIN_EVENTS),
                    key=lambda p: (-totals[p], p))[:MAX_PATTERNS]
    keep = set(active)
    return {cell: n for cell, n in counts.items() if cell[0] in keep}


def _movement_evidence(movement: CoMovement, start: datetime) -> dict:
    hours = [(start + index * BUCKET).isoformat() for index in movement.windows]
    return {"signal": "correlation", "correlation": movement.correlation,
            "windows": hours[:EVIDENCE_WINDOWS], "window_count": len(hours),
            "agents": list(movement.agents)}


def _shared_dependencies(patterns: set[int], since, now) -> dict[tuple[int, int], str]:
    """Pairs of patterns whose newest messages name one dependency, and the first such name."""
    if len(patterns) < 2:
        return {}
    newest = Window(RowNumber(), partition_by=[_live()], order_by=F("occurred_at").desc())
    rows = (Failure.objects.filter(occurred_at__gte=since, occurred_at__lte=now)
            .annotate(live=_live()).filter(live__in=patterns).annotate(rank=newest)
            .filter(rank__lte=MESSAGE_SAMPLES).values_list("live", "error"))
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
    existing = {g.members_key: g for g in RootCauseGroup.objects.select_for_update().filter(
        status=RootCauseGroup.Status.SUGGESTED)}
    created = 0
    for members in groups:
        evidence = _group_evidence(members, links, window)
        group = existing.pop(members_key(members), None)
        if group is not None:
            RootCauseGroup.objects.filter(pk=group.pk).update(evidence=evidence, detected_at=now)
            continue
        group = RootCauseGroup.objects.create(members_key=members_key(members),
                                              evidence=evidence, detected_at=now)
        RootCauseMembership.objects.bulk_create(
            [RootCauseMembership(group=group, pattern_id=pk) for pk in sorted(members)])
        created += 1
    RootCauseGroup.objects.filter(pk__in=[g.pk for g in existing.values()]).delete()
    return created, len(existing)


def _group_evidence(members: set, links: dict, window: dict) -> dict:
    """Every link between two members, with what supports it, and a summary of signals."""
    inside = [{"patterns": list(pair), **signal} for pair, signals in sorted(links.items())
              if set(pair) <= members for signal in signals]
    return {
        "window": window, "links": inside,
        "signals": sorted({link["signal"] for link in inside}),
        "agents": sorted({a for link in inside for a in link.get("agents", ())}),
        "dependencies": sorted({link["dependency"] for link in inside if "dependency" in link}),
    }


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
            [RootCauseSplit(pattern_low_id=a, pattern_high_id=b, group=group)
             for a, b in combinations(ids, 2)], ignore_conflicts=True)
        return _decide(group, RootCauseGroup.Status.SPLIT, user)


def _decide(group: RootCauseGroup, status: str, user) -> RootCauseGroup:
    if group.status != status:
        group.status, group.decided_at, group.decided_by = status, timezone.now(), user
        group.save(update_fields=["status", "decided_at", "decided_by"])
    return group
