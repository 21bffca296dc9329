"""The fleet part of the boot briefing: other agents' recent failures in the same task types.

The newest failures of a task type are the same for every agent that asks, so they are read for
all agents at once, cached for FLEET_CACHE_SECONDS and filtered per agent: a briefing's fleet
view may lag by that much, and costs one cache read instead of a multi-way query.
"""
import hashlib

from django.core.cache import cache
from django.db import connection
from django.db.models.functions import Coalesce

from .models import Failure

FLEET_PER_TYPE = 50  # other agents' newest failures read per task type
FLEET_CAP = 10  # fleet patterns listed, most agents first
# The fleet view need not be fresher than a few seconds.
FLEET_CACHE_SECONDS = 15
# Rows cached per type: enough that, leaving out the asking agent's own, FLEET_PER_TYPE remain
# for nearly every agent.
FLEET_SCAN_PER_TYPE = 4 * FLEET_PER_TYPE


def fleet_build(*, agent, task_types, since, now) -> list[dict]:
    """Other agents' recent failures in these task types, aggregated per pattern."""
    stats: dict[int, dict] = {}
    rows = sorted(_fleet_rows(agent, task_types, since, now), key=lambda row: row[2], reverse=True)
    for pattern_id, other, occurred_at, hint, fingerprint, template in rows:  # newest first
        seen = stats.setdefault(pattern_id, {
            "pattern": {"id": pattern_id, "fingerprint": fingerprint, "template": template},
            "agents": set(), "failures": 0, "last_seen": occurred_at, "recovery_hint": ""})
        seen["agents"].add(other)
        seen["failures"] += 1
        seen["recovery_hint"] = seen["recovery_hint"] or hint.strip()  # the newest hint
    top = sorted(stats.values(), key=lambda seen: (len(seen["agents"]), seen["failures"],
                                                   seen["last_seen"]), reverse=True)
    return [{**seen, "agents": len(seen["agents"])} for seen in top[:FLEET_CAP]]


def _fleet_rows(agent, task_types, since, now) -> list[tuple]:
    """(pattern id, agent, occurred_at, recovery_hint, fingerprint, template) of the newest
    FLEET_PER_TYPE failures of other agents per task type, merged patterns followed one hop.

    The newest failures of a task type are the same for every agent that asks, so they are
    read for all agents at once, cached for FLEET_CACHE_SECONDS and filtered per agent here.
    """
    window = int((now - since).total_seconds())
    keys = {t: f"boot:fleet:{window}:{hashlib.sha1(t.encode()).hexdigest()}" for t in task_types}
    cached = cache.get_many(list(keys.values()))
    missing = [t for t in task_types if keys[t] not in cached]
    if missing:
        fresh = _fleet_scan(missing, since)
        cache.set_many({keys[t]: fresh[t] for t in missing}, FLEET_CACHE_SECONDS)
        cached.update({keys[t]: fresh[t] for t in missing})
    rows = []
    for task_type in task_types:
        others = [row for row in cached[keys[task_type]]
                  if row[1] != agent and since <= row[2] <= now]
        rows.extend(others[:FLEET_PER_TYPE])
    return rows


def _fleet_scan(task_types, since) -> dict[str, list[tuple]]:
    """The newest FLEET_SCAN_PER_TYPE failures of each type since ``since``, all agents: one
    UNION ALL query, or one query per type where parts of a UNION cannot be limited."""
    scans = [
        Failure.objects.filter(task_type=task_type, occurred_at__gte=since).annotate(
            live=Coalesce("pattern__merged_into_id", "pattern_id"),
            live_fingerprint=Coalesce("pattern__merged_into__fingerprint", "pattern__fingerprint"),
            live_template=Coalesce("pattern__merged_into__template", "pattern__template"),
        ).values_list("live", "agent", "occurred_at", "recovery_hint", "live_fingerprint",
                      "live_template", "task_type").order_by("-occurred_at")[:FLEET_SCAN_PER_TYPE]
        for task_type in task_types
    ]
    if len(scans) > 1 and connection.features.supports_slicing_ordering_in_compound:
        found = list(scans[0].union(*scans[1:], all=True))
    else:
        found = [row for scan in scans for row in scan]
    per_type: dict[str, list[tuple]] = {t: [] for t in task_types}
    for row in sorted(found, key=lambda row: row[2], reverse=True):
        per_type[row[6]].append(row[:6])
    return per_type
