"""The release job: count what each release, model and prompt version ran and met, and judge
which patterns are new or gone in it (the rule: failures.releases.rule).

Everything is counted from the outcome ledger, so the tasks and the failures met are counted
over the same retention window; the job recomputes the whole picture each run (it is small: a
row per version and per pattern met in it) and replaces the stored one in one transaction.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from failures.live import live_pattern
from failures.models import JobState, Version, VersionPattern
from failures.releases import rule as releases
from outcomes.models import Outcome


@dataclass
class _Seen:
    """What one version ran (per task type) and met (per pattern and task type)."""

    name: str
    first_seen: datetime
    last_seen: datetime
    tasks: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    failures: int = 0
    patterns: dict[int, dict[str, int]] = field(default_factory=dict)
    pattern_times: dict[int, tuple[datetime, datetime]] = field(default_factory=dict)


JOB = "judge-releases"
# Each kind of version is read from the ledger's column of the same name.
KINDS = tuple(Version.Kind.values)


def versions_judge(*, now: datetime | None = None) -> dict[str, int]:
    """Recount and rejudge every release, model and prompt version; how many of each kind."""
    now = now or timezone.now()
    with transaction.atomic():
        JobState.locked(JOB)  # an overlapping run waits for this one
        tasks, met = _ledger_counts()
        judged = {kind: _judge_kind(kind, tasks, met, now) for kind in Version.Kind.values}
        JobState.objects.filter(name=JOB).update(ran_at=now)
    return judged


def _ledger_counts() -> tuple[list[dict], list[dict]]:
    """The ledger's tasks, and its failures per live pattern, counted per release, model,
    prompt version and task type together: two reads of the ledger serve all three kinds."""
    tagged = Outcome.objects.exclude(release="", model="", prompt_version="")
    tasks = tagged.values(*KINDS, "task_type").annotate(
        tasks=Count("id"),
        failed=Count("id", filter=Q(outcome=Outcome.Result.FAILURE)),
        failures=Count("failure_id"),
        first=Min("occurred_at"),
        last=Max("occurred_at"),
    )
    met = (
        tagged.filter(pattern__isnull=False)
        .annotate(live=live_pattern("pattern"))
        .values(*KINDS, "task_type", "live")
        .annotate(count=Count("id"), first=Min("occurred_at"), last=Max("occurred_at"))
    )
    return list(tasks), list(met)


def _judge_kind(kind: str, tasks: list[dict], met: list[dict], now: datetime) -> int:
    seen = _count(kind, tasks, met)
    ordered = sorted(seen.values(), key=lambda version: (version.first_seen, version.name))
    stored = _store_versions(kind, ordered, now)
    VersionPattern.objects.filter(version__kind=kind).delete()
    VersionPattern.objects.bulk_create(_verdicts(ordered, stored))
    Version.objects.filter(kind=kind).exclude(name__in=seen).delete()
    return len(ordered)


def _count(kind: str, tasks: list[dict], met: list[dict]) -> dict[str, _Seen]:
    """The ledger's counts folded per version of ``kind``."""
    seen: dict[str, _Seen] = {}
    for row in tasks:
        if not (name := row[kind]):
            continue
        version = seen.setdefault(name, _Seen(name, row["first"], row["last"]))
        version.first_seen = min(version.first_seen, row["first"])
        version.last_seen = max(version.last_seen, row["last"])
        task_type = row["task_type"]
        version.tasks[task_type] = version.tasks.get(task_type, 0) + row["tasks"]
        version.failed[task_type] = version.failed.get(task_type, 0) + row["failed"]
        version.failures += row["failures"]
    for row in met:
        if not (name := row[kind]):
            continue
        version = seen[name]
        by_type = version.patterns.setdefault(row["live"], {})
        by_type[row["task_type"]] = by_type.get(row["task_type"], 0) + row["count"]
        first, last = version.pattern_times.get(row["live"], (row["first"], row["last"]))
        version.pattern_times[row["live"]] = (min(first, row["first"]), max(last, row["last"]))
    return seen


def _store_versions(kind: str, ordered: list[_Seen], now: datetime) -> dict[str, Version]:
    """Upsert the versions with their counts and their previous ones; by name."""
    stored = {version.name: version for version in Version.objects.filter(kind=kind)}
    latest_of_line: dict[str, Version] = {}
    previous_seen: dict[str, _Seen] = {}
    for seen in ordered:
        line = releases.line_of(seen.name)
        row = stored.get(seen.name) or Version(kind=kind, name=seen.name)
        row.previous = latest_of_line.get(line)
        before = previous_seen.get(line)
        row.first_seen, row.last_seen = seen.first_seen, seen.last_seen
        row.tasks = sum(seen.tasks.values())
        row.failed = sum(seen.failed.values())
        row.failures = seen.failures
        row.worse_z = (
            releases.worse_z(
                releases.Health(seen.tasks, seen.failed),
                releases.Health(before.tasks, before.failed),
            )
            if before
            else None
        )
        row.worse_since = (row.worse_since or now) if row.worse else None
        row.judged_at = now
        row.save()
        stored[seen.name] = latest_of_line[line] = row
        previous_seen[line] = seen
    return stored


def _verdicts(ordered: list[_Seen], stored: dict[str, Version]) -> list[VersionPattern]:
    rows = []
    met_in_line: dict[str, set[int]] = defaultdict(set)
    previous_seen: dict[str, _Seen] = {}
    for seen in ordered:
        line = releases.line_of(seen.name)
        before = previous_seen.get(line)
        version = stored[seen.name]
        for pattern_id, failures in seen.patterns.items():
            first, last = seen.pattern_times[pattern_id]
            rows.append(
                VersionPattern(
                    version=version,
                    pattern_id=pattern_id,
                    verdict=releases.first_seen_verdict(
                        failures,
                        seen.tasks,
                        before.tasks if before else None,
                        seen_earlier=pattern_id in met_in_line[line],
                    ),
                    failures=sum(failures.values()),
                    first_seen=first,
                    last_seen=last,
                    tasks_compared=releases.tasks_of_types(before.tasks, failures)
                    if before
                    else 0,
                )
            )
        gone_from = before.patterns.items() if before else ()
        for pattern_id, failures in gone_from:
            if (
                before
                and pattern_id not in seen.patterns
                and releases.is_gone(failures, before.tasks, seen.tasks)
            ):
                rows.append(
                    VersionPattern(
                        version=version,
                        pattern_id=pattern_id,
                        verdict=VersionPattern.Verdict.GONE,
                        failures=0,
                        tasks_compared=releases.tasks_of_types(seen.tasks, failures),
                    )
                )
        met_in_line[line].update(seen.patterns)
        previous_seen[line] = seen
    return rows
