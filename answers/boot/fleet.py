"""The fleet part of the boot briefing: other agents' recent failures in the same task types.

The newest failures of a task type are the same for every agent that asks, so they are read for
all agents at once, cached for FLEET_CACHE_SECONDS and filtered per agent: a briefing's fleet
view may lag by that much, and costs a read of a few short cache keys (see _views) instead of a
multi-way query.
"""

import hashlib
import random
import uuid
from operator import itemgetter

from django.core.cache import cache

from failures.live import live_pattern
from failures.models import Failure
from failures.store.triage import is_muted

FLEET_PER_TYPE = 50  # other agents' newest failures read per task type
FLEET_CAP = 10  # fleet patterns listed, most agents first
# The fleet view need not be fresher than a few seconds.
FLEET_CACHE_SECONDS = 15
# Views read together expire together, and a briefing that finds several expired reads them all
# again at once; a lifetime drawn between this share of FLEET_CACHE_SECONDS and all of it
# spreads the reads out.
FLEET_CACHE_SPREAD = 0.8
# Rows cached per type: enough that, leaving out the asking agent's own, FLEET_PER_TYPE remain
# for nearly every agent.
FLEET_SCAN_PER_TYPE = 4 * FLEET_PER_TYPE


def fleet_build(*, agent, task_types, since, now) -> list[dict]:
    """Other agents' recent failures in these task types, aggregated per pattern; patterns a
    curator muted (failures.store.triage) are left out."""
    rows, patterns = _fleet_rows(agent, task_types, since, now)
    # pattern id -> [agents, failures, last seen, newest hint, the agent that wrote it]
    stats: dict[int, list] = {}
    for pattern_id, other, occurred_at, hint in sorted(rows, key=itemgetter(2), reverse=True):
        if is_muted(*patterns[pattern_id][2:], now=now):
            continue
        seen = stats.get(pattern_id)
        if seen is None:
            seen = stats[pattern_id] = [set(), 0, occurred_at, "", ""]
        seen[0].add(other)
        seen[1] += 1
        if not seen[3] and hint.strip():  # rows come newest first
            seen[3:] = [hint.strip(), other]
    top = sorted(
        stats.items(), key=lambda item: (len(item[1][0]), item[1][1], item[1][2]), reverse=True
    )[:FLEET_CAP]
    return [
        {
            "pattern": {"id": pk, "fingerprint": patterns[pk][0], "template": patterns[pk][1]},
            "agents": len(agents),
            "failures": failures,
            "last_seen": last_seen,
            "recovery_hint": hint,
            "recovery_hint_agent": by,
        }
        for pk, (agents, failures, last_seen, hint, by) in top
    ]


def _fleet_rows(agent, task_types, since, now) -> tuple[list[tuple], dict]:
    """(pattern id, agent, occurred_at, recovery_hint) of the newest FLEET_PER_TYPE failures of
    other agents per task type, each with its live pattern; and each pattern's
    (fingerprint, template)."""
    views = _views(task_types, since, now)
    rows, patterns = [], {}
    for task_type in task_types:
        view_rows, view_patterns = views[task_type]
        others = [row for row in view_rows if row[1] != agent and since <= row[2] <= now]
        rows.extend(others[:FLEET_PER_TYPE])
        patterns.update(view_patterns)
    return rows, patterns


# This process's copy of the current view of each type and window it read: key -> (name, view).
_copies: dict[str, tuple] = {}
COPIES_SIZE = 1024  # keys kept before starting afresh (types times windows asked for)


def _views(task_types, since, now) -> dict[str, tuple]:
    """The view of each type (see _fleet_scan) shared through the cache, scanning the missing.

    The cache holds, per type and window, the name (a cache key) of the type's current view,
    and under that name the view. A process keeps the current view of each key it read, so a
    briefing reads a few short names instead of ~30 kB per type; a copy is used only while the
    cache still names it, so it is exactly what the cache holds.
    """
    window = int((now - since).total_seconds())
    # v2: a view's patterns carry their triage (a view cached in the older shape is not read).
    keys = {
        t: f"boot:fleet:name:v2:{window}:{hashlib.sha1(t.encode()).hexdigest()}"
        for t in task_types
    }
    names = cache.get_many(list(keys.values()))
    views, unread = {}, {}
    for task_type, key in keys.items():
        copy = _copies.get(key)
        if copy is not None and key in names and copy[0] == names[key]:
            views[task_type] = copy[1]
        elif key in names:
            unread[names[key]] = task_type
    if len(_copies) >= COPIES_SIZE:
        _copies.clear()
    for name, view in (cache.get_many(list(unread)) if unread else {}).items():
        views[unread[name]] = view
        _copies[keys[unread[name]]] = (name, view)
    missing = [t for t in task_types if t not in views]
    if missing:
        _views_refresh(missing, keys, since, views)
    return views


def _views_refresh(task_types, keys, since, views) -> None:
    """Scan these types and share their views under new names, for a lifetime spread over the
    last part of FLEET_CACHE_SECONDS (see FLEET_CACHE_SPREAD)."""
    fresh = _fleet_scan(task_types, since)
    entries: dict[str, str | tuple[list[tuple], dict]] = {}  # key -> view's name, name -> view
    for task_type in task_types:
        name = f"boot:fleet:view:{uuid.uuid4().hex}"
        entries[keys[task_type]], entries[name] = name, fresh[task_type]
        views[task_type] = fresh[task_type]
        _copies[keys[task_type]] = (name, fresh[task_type])
    seconds = FLEET_CACHE_SECONDS * random.uniform(FLEET_CACHE_SPREAD, 1)
    cache.set_many(entries, max(1, round(seconds)))


def _fleet_scan(task_types, since) -> dict[str, tuple[list[tuple], dict]]:
    """Per type, its newest FLEET_SCAN_PER_TYPE failures since ``since`` of all agents as
    (pattern id, agent, occurred_at, recovery_hint), newest first, with each pattern's
    (fingerprint, template, triage status, snoozed until) once: the cached view of that type."""
    views: dict[str, tuple[list, dict]] = {t: ([], {}) for t in task_types}
    found = _scan(task_types, since)
    for live, other, occurred_at, hint, *pattern, task_type in sorted(
        found, key=lambda row: row[2], reverse=True
    ):
        rows, patterns = views[task_type]
        rows.append((live, other, occurred_at, hint))
        patterns[live] = tuple(pattern)
    return views


def _scan(task_types, since) -> list[tuple]:
    """Per type its newest FLEET_SCAN_PER_TYPE failures (the type index, newest first), all
    types in one read."""
    parts = [
        Failure.objects.filter(task_type=task_type, occurred_at__gte=since)
        # What the scan reads of each failure's live pattern (failures.live), by name: the
        # type checker follows annotations given as keywords, not from a dict.
        .annotate(
            live=live_pattern("pattern"),
            fingerprint=live_pattern("pattern", "fingerprint"),
            template=live_pattern("pattern", "template"),
            pattern_status=live_pattern("pattern", "status"),
            snoozed_until=live_pattern("pattern", "snoozed_until"),
        )
        .order_by("-occurred_at")
        .values_list(
            "live",
            "agent",
            "occurred_at",
            "recovery_hint",
            "fingerprint",
            "template",
            "pattern_status",
            "snoozed_until",
            "task_type",
        )[:FLEET_SCAN_PER_TYPE]
        for task_type in task_types
    ]
    return list(parts[0].union(*parts[1:], all=True))
