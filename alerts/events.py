"""What needs a human now, per kind of event: each finder reads the state the other apps' jobs
keep and names the subjects a rule alerts on, with a scrubbed title and text and the admin page
that explains them.

An event that happens once (a pattern judged a regression, a root-cause group opening, a lesson
flagged, a release found worse) is found while its moment is within the rule's window, so with one
alert per subject per window it is sent once. A new pattern is a state (it spreads now): it is
found while it crosses the rule's thresholds, so it is sent again at most once a window while it
keeps spreading.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.urls import reverse

from config.formats import counted, shortened
from config.scrubbing import scrub_text
from failures.live import live_pattern
from failures.models import (
    Failure,
    FailurePattern,
    Regression,
    RootCauseGroup,
    Version,
    VersionPattern,
)
from failures.releases import rule as releases
from failures.store.triage import muted_q
from lessons.models import Lesson

from .models import Rule

# A pattern first seen this recently is new.
NEW_PATTERN_HOURS = 24
# How much of a template an alert quotes.
QUOTED = 160


@dataclass(frozen=True)
class Found:
    subject: str
    title: str  # one line (a header of an e-mail), spaces folded
    text: str
    link: str  # an admin path

    def __post_init__(self):
        object.__setattr__(self, "title", " ".join(self.title.split()))


def found_for(rule: Rule, now: datetime) -> list[Found]:
    """The subjects ``rule``'s event names at ``now``."""
    since = now - timedelta(minutes=rule.window_minutes)
    return _FINDERS[rule.event](rule, since, now)


def _quoted(template: str) -> str:
    return "“" + shortened(scrub_text(template), QUOTED) + "”"


def _titled(text: str) -> str:
    """Agent text as a title's end: scrubbed and short."""
    return shortened(scrub_text(text), 80)


def _pattern_link(pattern_id: int) -> str:
    return reverse("admin:failures_failurepattern_change", args=[pattern_id])


def _new_patterns(rule: Rule, since: datetime, now: datetime) -> list[Found]:
    start = now - timedelta(minutes=rule.within_minutes)
    rows = (
        Failure.objects.filter(occurred_at__gt=start, occurred_at__lte=now)
        .annotate(live=live_pattern("pattern"))
        .values("live")
        .annotate(agents=Count("agent", distinct=True), failures=Count("id"))
    )
    crossing = Q()
    if rule.min_agents:
        crossing |= Q(agents__gte=rule.min_agents)
    if rule.min_failures:
        crossing |= Q(failures__gte=rule.min_failures)
    if not crossing:
        return []
    counts = {row["live"]: row for row in rows.filter(crossing)}
    patterns = FailurePattern.objects.filter(
        pk__in=counts,
        merged_into__isnull=True,
        first_seen__gte=now - timedelta(hours=NEW_PATTERN_HOURS),
    ).exclude(muted_q(now=now))  # a curator's ignored or snoozed pattern stays quiet
    found = []
    for pattern in patterns:
        seen = counts[pattern.pk]
        found.append(
            Found(
                subject=f"pattern:{pattern.pk}",
                title=f"New pattern spreading: {_titled(pattern.template)}",
                text=(
                    f"{_quoted(pattern.template)} ({scrub_text(pattern.error_type)}), first seen"
                    f" {_ago(pattern.first_seen, now)}: {counted(seen['failures'], 'failure')}"
                    f" from {counted(seen['agents'], 'agent')} in the last"
                    f" {counted(rule.within_minutes, 'minute')}."
                ),
                link=_pattern_link(pattern.pk),
            )
        )
    return found


def _ago(moment: datetime, now: datetime) -> str:
    minutes = max(0, int((now - moment).total_seconds() // 60))
    if minutes < 120:
        return f"{counted(minutes, 'minute')} ago"
    return f"{counted(minutes // 60, 'hour')} ago"


def _regressions(rule: Rule, since: datetime, now: datetime) -> list[Found]:
    rows = Regression.objects.filter(
        regressed_at__gt=since,
        regressed_at__lte=now,
        verdict__in=[Regression.Verdict.FAILING, Regression.Verdict.RETURNED],
    )
    found = []
    for row in rows.select_related("pattern"):
        how = (
            "applications of its lesson fail"
            if row.verdict == Regression.Verdict.FAILING
            else "it is back at its rate before the fix, and no lesson worked"
        )
        fixed = "its lesson was approved" if row.kind == row.Kind.LESSON_APPROVED else "resolved"
        found.append(
            Found(
                subject=f"regression:{row.pk}",
                title=f"Regression: {_titled(row.pattern.template)}",
                text=(
                    f"{_quoted(row.pattern.template)} failed again after it counted as fixed"
                    f" ({fixed}): {how}."
                ),
                link=reverse("admin:failures_regression_change", args=[row.pk]),
            )
        )
    return found


def _root_causes(rule: Rule, since: datetime, now: datetime) -> list[Found]:
    groups = RootCauseGroup.objects.filter(
        created_at__gt=since, created_at__lte=now, status=RootCauseGroup.Status.SUGGESTED
    ).prefetch_related("patterns")
    found = []
    for group in groups:
        patterns = sorted(group.patterns.all(), key=lambda pattern: pattern.pk)
        agents = group.evidence.get("agents", [])
        symptoms = "; ".join(_quoted(pattern.template) for pattern in patterns[:3])
        more = f" and {counted(len(patterns) - 3, 'more')}" if len(patterns) > 3 else ""
        together = f" ({counted(len(agents), 'agent')} met them together)" if agents else ""
        found.append(
            Found(
                subject=f"root_cause:{group.pk}",
                title=f"Possible shared root cause: {counted(len(patterns), 'pattern')}",
                text=(
                    f"{counted(len(patterns), 'pattern')} look like one root cause{together}:"
                    f" {symptoms}{more}. Confirm or split the group."
                ),
                link=reverse("admin:failures_rootcausegroup_change", args=[group.pk]),
            )
        )
    return found


def _lessons_flagged(rule: Rule, since: datetime, now: datetime) -> list[Found]:
    lessons = Lesson.objects.filter(flagged=True, flagged_at__gt=since, flagged_at__lte=now)
    return [
        Found(
            subject=f"lesson:{lesson.pk}",
            title=f"Lesson flagged: {_titled(lesson.error_pattern)}",
            text=(
                f"The lesson for {_quoted(lesson.error_pattern)} keeps failing:"
                f" {scrub_text(lesson.flagged_reason)}. Review or reject it."
            ),
            link=reverse("admin:lessons_lesson_change", args=[lesson.pk]),
        )
        for lesson in lessons
    ]


def _releases_worse(rule: Rule, since: datetime, now: datetime) -> list[Found]:
    versions = Version.objects.filter(
        worse_since__gt=since, worse_since__lte=now, worse_z__gt=releases.WORSE_Z
    ).select_related("previous")
    found = []
    for version in versions:
        new = VersionPattern.objects.filter(
            version=version, verdict=VersionPattern.Verdict.NEW
        ).count()
        kind = Version.Kind(version.kind).label.lower()
        rate, before = version.success_rate, _rate_of(version.previous)
        previous = scrub_text(version.previous.name) if version.previous else "the one before"
        found.append(
            Found(
                subject=f"{version.kind}:{version.pk}",
                title=f"{kind.capitalize()} {scrub_text(version.name)} does worse",
                text=(
                    f"{kind.capitalize()} {scrub_text(version.name)} fails more tasks than"
                    f" {previous}"
                    f" predicts for the same task types: {_percent(rate)} succeeded over"
                    f" {counted(version.tasks, 'task')}, against {before};"
                    f" {counted(new, 'pattern')} new in it."
                ),
                link=reverse("dashboard:index") + "#releases",
            )
        )
    return found


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.0f} %"


def _rate_of(version: Version | None) -> str:
    if version is None:
        return "nothing"
    return f"{_percent(version.success_rate)} in {scrub_text(version.name)}"


_FINDERS: dict[str, Callable[[Rule, datetime, datetime], list[Found]]] = {
    Rule.Event.NEW_PATTERN: _new_patterns,
    Rule.Event.REGRESSION: _regressions,
    Rule.Event.ROOT_CAUSE: _root_causes,
    Rule.Event.LESSON_FLAGGED: _lessons_flagged,
    Rule.Event.RELEASE_WORSE: _releases_worse,
}
