"""The reads behind a pattern-analysis report, one per section, each capped at SECTION_CAP.

Like the boot composer, the report reads across apps: lessons for their effectiveness and for
which patterns still have no approved lesson.
"""

from datetime import datetime, timedelta

from django.db.models import Count, F, Q

from failures.analysis import recurrence
from failures.live import live_pattern
from failures.models import Failure, FailurePattern, Regression, RootCauseGroup
from failures.store.triage import triaged_q
from lessons.models import Lesson

# Entries per section: a report is read by a human in a few minutes.
SECTION_CAP = 20
# Rising: at least this many failures in the window (fewer is noise) and at least this many
# times as many as in the window of the same length before it.
RISING_MIN_EVENTS = 5
RISING_FACTOR = 2.0
# A lesson's effectiveness "fell" when it dropped by this much or more since the job's previous
# computation: ten points is more than one unlucky application moves a lesson with history.
EFFECTIVENESS_DROP = 0.1
# The curation queue holds patterns seen within this long; older ones have stopped mattering.
CURATION_WINDOW = timedelta(days=30)


def _ref(pattern: FailurePattern) -> dict:
    return {"id": pattern.pk, "template": pattern.template}


def _pattern(pattern: FailurePattern) -> dict:
    return {
        **_ref(pattern),
        "error_type": pattern.error_type,
        "events": pattern.event_count,
        "agents": pattern.agent_count,
        "tasks": pattern.task_count,
        "first_seen": pattern.first_seen,
        "last_seen": pattern.last_seen,
    }


def new_patterns(*, since: datetime, until: datetime) -> list[dict]:
    """Live patterns first seen in the window, most failures first."""
    found = FailurePattern.objects.filter(
        merged_into__isnull=True, first_seen__gte=since, first_seen__lte=until
    )
    return [_pattern(p) for p in found.order_by("-event_count", "pk")[:SECTION_CAP]]


def rising_patterns(*, since: datetime, until: datetime) -> list[dict]:
    """Older patterns failing RISING_FACTOR times as often as in the window before, largest
    rise first."""
    rows = (
        Failure.objects.filter(occurred_at__gte=since - (until - since), occurred_at__lte=until)
        .annotate(live=live_pattern("pattern"))
        .values("live")
        .annotate(
            current=Count("id", filter=Q(occurred_at__gte=since)),
            previous=Count("id", filter=Q(occurred_at__lt=since)),
        )
    )
    rising = {
        row["live"]: row
        for row in rows
        if row["current"] >= RISING_MIN_EVENTS
        and row["current"] >= RISING_FACTOR * row["previous"]
    }
    patterns = FailurePattern.objects.filter(pk__in=rising, first_seen__lt=since)
    entries = [
        {
            **_ref(p),
            "error_type": p.error_type,
            "current": rising[p.pk]["current"],
            "previous": rising[p.pk]["previous"],
        }
        for p in patterns
    ]
    entries.sort(key=lambda e: (e["previous"] - e["current"], e["id"]))
    return entries[:SECTION_CAP]


def root_cause_groups(*, since: datetime) -> list[dict]:
    """Suggested groups, and confirmed ones with a member seen in the window; newest first."""
    groups = (
        RootCauseGroup.objects.filter(
            Q(status=RootCauseGroup.Status.SUGGESTED)
            | Q(status=RootCauseGroup.Status.CONFIRMED, patterns__last_seen__gte=since)
        )
        .distinct()
        .prefetch_related("patterns")
        .order_by("-detected_at", "pk")[:SECTION_CAP]
    )
    return [
        {
            "id": g.pk,
            "status": g.status,
            "detected_at": g.detected_at,
            "patterns": [_ref(p) for p in sorted(g.patterns.all(), key=lambda p: p.pk)],
            "signals": g.evidence.get("signals", []),
            "agents": g.evidence.get("agents", []),
            "dependencies": g.evidence.get("dependencies", []),
            "links": g.evidence.get("links", []),
        }
        for g in groups
    ]


def regressions(*, since: datetime, until: datetime) -> list[dict]:
    """Regressions (the fix stopped working, failures.analysis.recurrence) coming back or judged
    in the window; latest comeback first."""
    found = Regression.objects.filter(
        Q(since__range=(since, until)) | Q(regressed_at__range=(since, until)),
        verdict__in=recurrence.REGRESSED,
    )
    return _episodes(found)


def recurring_handled(*, since: datetime, until: datetime) -> list[dict]:
    """Fixed patterns that kept coming back in the window and that their lesson kept handling;
    latest comeback first."""
    found = Regression.objects.filter(
        verdict=Regression.Verdict.HANDLED, since__lte=until, pattern__last_seen__gte=since
    )
    return _episodes(found)


def _episodes(found) -> list[dict]:
    return [
        {
            "id": r.pk,
            "pattern": _ref(r.pattern),
            "kind": r.kind,
            "verdict": r.verdict,
            "label": recurrence.LABELS[r.verdict],
            "fixed_at": r.fixed_at,
            "since": r.since,
            "detected_at": r.detected_at,
            "regressed_at": r.regressed_at,
            "evidence": r.evidence,
        }
        for r in found.select_related("pattern").order_by("-since", "pk")[:SECTION_CAP]
    ]


def lessons_fell() -> list[dict]:
    """Lessons flagged for review or whose effectiveness dropped by EFFECTIVENESS_DROP or more;
    flagged first, then the largest drop."""
    dropped = Q(
        effectiveness_previous__isnull=False,
        effectiveness__lte=F("effectiveness_previous") - EFFECTIVENESS_DROP,
    )
    found = (
        Lesson.objects.filter(Q(flagged=True) | dropped)
        .exclude(status=Lesson.Status.REJECTED)
        .order_by(
            "-flagged",
            (F("effectiveness") - F("effectiveness_previous")).asc(nulls_last=True),
            "error_pattern",
        )[:SECTION_CAP]
    )
    return [
        {
            "id": str(lesson.pk),
            "error_pattern": lesson.error_pattern,
            "error_type": lesson.error_type,
            "status": lesson.status,
            "effectiveness": lesson.effectiveness,
            "previous": lesson.effectiveness_previous,
            "applications": lesson.applications_count,
            "flagged": lesson.flagged,
            "flagged_reason": lesson.flagged_reason,
        }
        for lesson in found
    ]


def curation_queue(*, until: datetime) -> list[dict]:
    """The most frequent live patterns seen lately with no approved lesson and not triaged
    (failures.store.triage), and how many unverified lessons already wait for review on each."""
    found = (
        FailurePattern.objects.filter(
            merged_into__isnull=True, last_seen__gte=until - CURATION_WINDOW
        )
        .exclude(lessons__status=Lesson.Status.APPROVED)
        .exclude(triaged_q(now=until))
        .annotate(unverified=Count("lessons", filter=Q(lessons__status=Lesson.Status.UNVERIFIED)))
        .order_by("-event_count", "pk")[:SECTION_CAP]
    )
    return [{**_pattern(p), "unverified_lessons": p.unverified} for p in found]
