"""What a pattern's admin page shows, in the manner of an error tracker's issue page: failures
per day, who and what hit it, the latest messages, the lessons that answer it and its root-cause
groups. A staff page, so it reads lessons too (as the dashboard does).

Every read is bounded: the last WINDOW_DAYS of the pattern's failures through its
(pattern, occurred_at) index, top lists capped at TOP_ROWS.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import Count, Max
from django.db.models.functions import TruncDate

from failures.models import Failure, FailurePattern, RootCauseGroup, Version, VersionPattern
from failures.releases.selectors import pattern_versions
from lessons.models import Lesson, PatternLink
from lessons.scoring import effectiveness_text

# A month of daily bars, today included, as on the dashboard.
WINDOW_DAYS = 30
# Rows in each breakdown (agents, task types) and latest messages shown.
TOP_ROWS = 10
LATEST = 10


@dataclass(frozen=True)
class Day:
    day: date
    count: int
    height: int  # percent of the busiest day's bar


@dataclass(frozen=True)
class LessonRow:
    lesson: Lesson
    effectiveness: str  # "83% of 12 applications"


@dataclass(frozen=True)
class GroupRow:
    group: RootCauseGroup
    others: list[FailurePattern]  # the group's other patterns


@dataclass(frozen=True)
class PatternOverview:
    days: list[Day]
    window_total: int
    peak: int  # the busiest day's failures
    by_agent: list[tuple[str, int, datetime]]  # (agent, failures, last seen)
    by_task_type: list[tuple[str, int, datetime]]
    latest: list[Failure]
    lessons: list[LessonRow]
    # Links the fleet's reports suggest and no curator decided yet (lessons.links): a lesson
    # that worked here, not yet answering the pattern's checks.
    candidates: list[PatternLink]
    groups: list[GroupRow]
    # The releases and models it was seen in (or is gone from), first seen first.
    releases: list[VersionPattern]
    models: list[VersionPattern]


def pattern_overview(*, pattern: FailurePattern, now: datetime) -> PatternOverview:
    """The pattern page's sections (see the module's docstring)."""
    today = now.astimezone(UTC).date()
    first = today - timedelta(days=WINDOW_DAYS - 1)
    window = Failure.objects.filter(
        pattern=pattern,
        occurred_at__gte=datetime.combine(first, time.min, UTC),
        occurred_at__lte=now,
    )
    counts = dict(
        window.annotate(day=TruncDate("occurred_at", tzinfo=UTC))
        .values_list("day")
        .annotate(n=Count("*"))
        .order_by()
    )
    busiest = max(counts.values(), default=0)
    days = [
        Day(
            day=d,
            count=counts.get(d, 0),
            height=round(100 * counts.get(d, 0) / busiest) if busiest else 0,
        )
        for d in (first + timedelta(days=i) for i in range(WINDOW_DAYS))
    ]
    versions = pattern_versions(pattern.pk)
    return PatternOverview(
        days=days,
        window_total=sum(counts.values()),
        peak=busiest,
        by_agent=_breakdown(window, "agent"),
        by_task_type=_breakdown(window, "task_type"),
        latest=list(
            Failure.objects.filter(pattern=pattern).order_by("-occurred_at", "-id")[:LATEST]
        ),
        lessons=[
            LessonRow(lesson, effectiveness_text(lesson.effectiveness, lesson.applications_count))
            for lesson in pattern.lessons.order_by("-rank_score", "-occurrences", "error_pattern")
        ],
        candidates=list(
            pattern.lesson_links.filter(state=PatternLink.State.CANDIDATE)
            .exclude(lesson__status=Lesson.Status.REJECTED)
            .select_related("lesson")
            .order_by("-successes", "-keys", "pk")
        ),
        groups=[
            GroupRow(
                group,
                sorted(
                    (p for p in group.patterns.all() if p.pk != pattern.pk), key=lambda p: p.pk
                ),
            )
            for group in pattern.root_cause_groups.exclude(status=RootCauseGroup.Status.SPLIT)
            .prefetch_related("patterns")
            .order_by("-detected_at", "-pk")
        ],
        releases=versions[Version.Kind.RELEASE],
        models=versions[Version.Kind.MODEL],
    )


def _breakdown(window, column: str) -> list[tuple[str, int, datetime]]:
    """The window's failures per value of ``column``, most first."""
    return list(
        window.values_list(column)
        .annotate(n=Count("*"), last=Max("occurred_at"))
        .order_by("-n", column)[:TOP_ROWS]
    )
