"""The dashboard's smaller sections (see failures.staff.dashboard): rising patterns, success rates,
the curation queue, the effectiveness distribution, recent loops and regressions, and refused
OpenTelemetry spans.

Each one reads a bounded window (a day, a week) or a capped sample, through an index.
"""

from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Exists, F, IntegerField, Max, OuterRef, Q, Sum, Value
from django.db.models.functions import Cast, Floor, Least

from failures.analysis import recurrence
from failures.analysis.loops import MIN_REPEAT, loop_detect
from failures.models import Failure, FailurePattern, Regression, Version
from failures.releases.selectors import releases_list
from failures.staff import report_sections
from failures.store.triage import triaged_q
from lessons.models import Lesson
from outcomes.insights import outcome_stats
from outcomes.models import Outcome, SpanRejection

# Rising: the last day against the day before, with the pattern report's thresholds.
RISING_WINDOW = timedelta(hours=24)
# Success rates: outcomes of the last week, at most the newest OUTCOME_SAMPLE of them, so a
# busy fleet costs the same as a quiet one; bars for the AGENTS_SHOWN busiest agents.
OUTCOME_DAYS = 7
OUTCOME_SAMPLE = 20_000
AGENTS_SHOWN = 15
TASK_TYPES_SHOWN = 20
# Twenty bins of 0.05: the flag threshold (0.35) and the "works" band (0.7) fall on bin edges.
EFFECTIVENESS_BINS = 20
# Loops: open failures of the last day, at most LOOP_ROWS_CAP of them (the boot window).
LOOP_WINDOW = timedelta(hours=24)
LOOP_ROWS_CAP = 20_000
# Rows in each list section.
LISTED = 10
REGRESSION_DAYS = 7
# Refused OpenTelemetry spans: the last day's, by reason.
REFUSED_WINDOW = timedelta(hours=24)
# Releases in the releases panel, newest first.
RELEASES_SHOWN = 8


def _pattern_ref(pattern: FailurePattern) -> dict:
    return {"id": pattern.pk, "template": pattern.template, "error_type": pattern.error_type}


def patterns_rising(*, now: datetime) -> list[dict]:
    """Patterns failing at least RISING_FACTOR times as often in the last day as the day before
    (and at least RISING_MIN_EVENTS times), largest rise first."""
    start = now - RISING_WINDOW
    rows = (
        Failure.objects.filter(occurred_at__gte=start - RISING_WINDOW, occurred_at__lte=now)
        .values_list("pattern_id")
        .annotate(
            current=Count("occurred_at", filter=Q(occurred_at__gte=start)),
            previous=Count("occurred_at", filter=Q(occurred_at__lt=start)),
        )
        .order_by()
    )
    rising = {
        pk: (current, previous)
        for pk, current, previous in rows
        if current >= report_sections.RISING_MIN_EVENTS
        and current >= report_sections.RISING_FACTOR * previous
    }
    ranked = sorted(rising, key=lambda pk: (rising[pk][1] - rising[pk][0], pk))[:LISTED]
    patterns = FailurePattern.objects.in_bulk(ranked)
    return [
        {
            **_pattern_ref(patterns[pk]),
            "current": rising[pk][0],
            "previous": rising[pk][1],
            "new": patterns[pk].first_seen >= start,
        }
        for pk in ranked
        if pk in patterns
    ]


def success_rates(*, now: datetime) -> dict:
    """Success rate by task type and by agent over the newest outcomes of the last week."""
    since = now - timedelta(days=OUTCOME_DAYS)
    # The OUTCOME_SAMPLE-th newest outcome's time: an index-only read of outcome_occurred_idx.
    cutoff = list(
        Outcome.objects.filter(occurred_at__gte=since, occurred_at__lte=now)
        .order_by("-occurred_at")
        .values_list("occurred_at", flat=True)[OUTCOME_SAMPLE - 1 : OUTCOME_SAMPLE]
    )
    since = cutoff[0] if cutoff else since
    # Task type, agent -> [outcomes, successes].
    by_type: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_agent: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in outcome_stats(since=since):
        for key, table in ((row["task_type"], by_type), (row["agent"], by_agent)):
            table[key][0] += row["total"]
            table[key][1] += row["successes"]
    total = sum(n for n, _ in by_type.values())
    return {
        "since": since,
        "outcomes": total,
        "successes": sum(s for _, s in by_type.values()),
        "by_task_type": _rates(by_type, TASK_TYPES_SHOWN),
        "by_agent": _rates(by_agent, AGENTS_SHOWN),
    }


def _rates(table: dict, limit: int) -> list[dict]:
    busiest = sorted(table.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
    return [
        {
            "name": name or "(none)",
            "total": total,
            "successes": good,
            "rate": round(100.0 * good / total, 1),
        }
        for name, (total, good) in busiest
    ]


def curation_queue(*, now: datetime) -> list[dict]:
    """The most frequent live patterns seen in the pattern report's curation window that have
    no approved lesson and are not triaged (failures.store.triage), with how many unverified
    lessons already wait on each."""
    approved = Lesson.patterns.through.objects.filter(
        failurepattern_id=OuterRef("pk"), lesson__status=Lesson.Status.APPROVED
    )
    # Read most frequent first from pattern_frequent_idx, stopping after LISTED rows: no count
    # or sort over every pattern (which the report's own query does, once a day).
    queue = list(
        FailurePattern.objects.filter(
            merged_into__isnull=True, last_seen__gte=now - report_sections.CURATION_WINDOW
        )
        .exclude(Exists(approved))
        .exclude(triaged_q(now=now))
        .order_by("-event_count", "pk")[:LISTED]
    )
    unverified = dict(
        Lesson.patterns.through.objects.filter(
            failurepattern_id__in=[p.pk for p in queue], lesson__status=Lesson.Status.UNVERIFIED
        )
        .values_list("failurepattern_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return [
        {
            **_pattern_ref(p),
            "events": p.event_count,
            "agents": p.agent_count,
            "last_seen": p.last_seen,
            "unverified_lessons": unverified.get(p.pk, 0),
        }
        for p in queue
    ]


def effectiveness_distribution() -> dict:
    """Lessons (rejected ones left out) per effectiveness bin, approved and unverified apart."""
    bin_of = Least(
        Cast(Floor(F("effectiveness") * EFFECTIVENESS_BINS), IntegerField()),
        Value(EFFECTIVENESS_BINS - 1),
    )
    rows = (
        Lesson.objects.exclude(status=Lesson.Status.REJECTED)
        .annotate(bin=bin_of)
        .values_list("bin", "status")
        .annotate(n=Count("pk"), untried=Count("pk", filter=Q(applications_count=0)))
        .order_by()
    )
    counts = {
        status: [0] * EFFECTIVENESS_BINS
        for status in (Lesson.Status.APPROVED, Lesson.Status.UNVERIFIED)
    }
    untried = 0
    for index, status, n, never in rows:
        counts[status][index] += n
        untried += never
    width = 1 / EFFECTIVENESS_BINS
    return {
        "edges": [round(i * width, 2) for i in range(EFFECTIVENESS_BINS + 1)],
        "approved": counts[Lesson.Status.APPROVED],
        "unverified": counts[Lesson.Status.UNVERIFIED],
        "never_applied": untried,
        "flagged": Lesson.objects.filter(flagged=True)
        .exclude(status=Lesson.Status.REJECTED)
        .count(),
    }


def loops_recent(*, now: datetime) -> dict:
    """Tasks whose open failures of the last day end in a loop (failures.analysis.loops),
    longest first.

    Read from failure_open_covering_idx alone, ordered in SQL: decoding the timestamps of
    every row would cost more than the query, so only the listed loops' times are read.
    """
    open_recent = Failure.objects.filter(
        status=Failure.Status.OPEN, occurred_at__lte=now, occurred_at__gte=now - LOOP_WINDOW
    )
    rows = open_recent.order_by("agent", "task", "occurred_at", "pattern_id").values_list(
        "agent", "task", "pattern_id"
    )[:LOOP_ROWS_CAP]
    tasks: dict[tuple, list] = defaultdict(list)
    for agent, task, pattern in rows:
        tasks[(agent, task)].append(pattern)
    min_repeat = getattr(settings, "HINDSIGHT_SKIP_AFTER", MIN_REPEAT)  # as boot's loops
    found = []
    for (agent, task), sequence in tasks.items():
        loop = loop_detect(sequence, min_repeat=min_repeat)
        if loop is not None:
            found.append(
                {
                    "agent": agent,
                    "task": task,
                    "kind": loop.kind,
                    "length": loop.length,
                    "start": loop.start,
                    "patterns": list(loop.patterns),
                }
            )
    found.sort(key=lambda e: (-e["length"], e["agent"], e["task"]))
    listed = found[:LISTED]
    _loops_describe(listed, open_recent)
    return {"count": len(found), "entries": listed}


def _loops_describe(loops: list[dict], open_recent) -> None:
    """Add when each listed loop started and its patterns' templates."""
    times = defaultdict(list)
    for agent, task, at in (
        open_recent.filter(
            agent__in={e["agent"] for e in loops}, task__in={e["task"] for e in loops}
        )
        .order_by("occurred_at", "pattern_id")
        .values_list("agent", "task", "occurred_at")
    ):
        times[(agent, task)].append(at)
    templates = dict(
        FailurePattern.objects.filter(
            pk__in={pk for entry in loops for pk in entry["patterns"]}
        ).values_list("pk", "template")
    )
    for entry in loops:
        entry["since"] = times[(entry["agent"], entry["task"])][entry.pop("start")]
        entry["patterns"] = [
            {"id": pk, "template": templates.get(pk, "")} for pk in entry["patterns"]
        ]


def regressions_recent(*, now: datetime) -> dict:
    """How many regressions were judged in the last REGRESSION_DAYS, how many fixed patterns
    kept recurring in them handled by their lesson (not regressions:
    failures.analysis.recurrence), and the latest of both."""
    week = now - timedelta(days=REGRESSION_DAYS)
    regressed = Regression.objects.filter(verdict__in=recurrence.REGRESSED, regressed_at__gte=week)
    handled = Regression.objects.filter(
        verdict=Regression.Verdict.HANDLED, pattern__last_seen__gte=week
    )
    latest = (
        Regression.objects.filter(verdict__in=(*recurrence.REGRESSED, Regression.Verdict.HANDLED))
        .select_related("pattern")
        .order_by("-detected_at", "-pk")[:LISTED]
    )
    return {
        "count": regressed.count(),
        "handled": handled.values("pattern_id").distinct().count(),
        "entries": [
            {
                "id": r.pk,
                "pattern": _pattern_ref(r.pattern),
                "kind": r.kind,
                "verdict": r.verdict,
                "label": recurrence.LABELS[r.verdict],
                "regression": r.verdict in recurrence.REGRESSED,
                "since": r.since,
                "fixed_at": r.fixed_at,
                "detected_at": r.detected_at,
                "failures_since": r.evidence.get("failures_since"),
                "applications": r.evidence.get("applications"),
                "worked": r.evidence.get("worked"),
            }
            for r in latest
        ],
    }


def spans_refused(*, now: datetime) -> list[dict]:
    """OpenTelemetry spans refused in the last day, by reason, most first: how many, when last,
    and the latest refusal in full (exporters never show an export's partial success)."""
    rows = (
        SpanRejection.objects.filter(at__gte=now - REFUSED_WINDOW, at__lte=now)
        .values("reason")
        .annotate(spans=Sum("count"), exports=Count("id"), last=Max("at"))
        .order_by("-spans", "reason")[:LISTED]
    )
    reasons = [row["reason"] for row in rows]
    examples = {}
    for reason, example in (
        SpanRejection.objects.filter(reason__in=reasons, at__gte=now - REFUSED_WINDOW, at__lte=now)
        .order_by("reason", "-at")
        .distinct("reason")
        .values_list("reason", "example")
    ):
        examples[reason] = example
    return [{**row, "example": examples.get(row["reason"], "")} for row in rows]


def releases_latest() -> list[dict]:
    """The latest RELEASES_SHOWN releases with their health and the patterns new in each
    (failures.releases.selectors)."""
    return releases_list(kind=Version.Kind.RELEASE, limit=RELEASES_SHOWN)


def summary(data: dict) -> dict:
    """Headline figures, from the sections already read (no query of its own)."""
    over_time, success = data["failures_over_time"], data["success"]
    effectiveness = data["effectiveness"]
    return {
        "failures_window": over_time["total"],
        "failures_today": over_time["totals"][-1],
        "success_rate": (
            round(100.0 * success["successes"] / success["outcomes"], 1)
            if success["outcomes"]
            else None
        ),
        "outcomes": success["outcomes"],
        "lessons_unverified": sum(effectiveness["unverified"]),
        "lessons_flagged": effectiveness["flagged"],
        "loops": data["loops"]["count"],
        "regressions": data["regressions"]["count"],
        "recurring_handled": data["regressions"]["handled"],
        "queue": len(data["curation_queue"]),
        "spans_refused": sum(row["spans"] for row in data["spans_refused"]),
        "releases_worse": sum(release["worse_than_previous"] for release in data["releases"]),
    }
