"""Regressions (a pattern that counted as fixed comes back and the fix stopped working),
recurrences its lesson handles, and fleet-wide loop detection.

A pattern counts as fixed from

* the latest approval of a lesson linked to it (``reviewed_at``, or ``created_at`` for lessons
  approved from the start, such as the seeded ones; editing an approved lesson re-approves
  it): any later failure starts an episode of kind ``lesson_approved``;
* for a pattern with no approved lesson, the moment its failures had all been closed
  (resolved or abandoned, at least one resolved): a failure at least QUIET after that, with no
  failure left open in between, starts an episode of kind ``resolved``. Without the quiet
  time, every flaky pattern that a retry fixes would come back on its next failure.

Coming back is not a regression by itself: faults such as rate limits recur by nature. Each
episode is judged by failures.analysis.recurrence on the failures and the applications of the
pattern's lessons since the fix (its approved lessons; unverified ones where it has none): a
regression when the applications fail or the pattern is back at its pre-fix rate with none that
worked; "recurring, handled" when its lesson keeps working.

Only patterns with failures since the job's watermark are looked at (an application is reported
for a failure, so a new one comes with one), and each run judges their latest episodes again on
all the evidence so far. One Regression row per episode (pattern, kind, fixed_at); a regression
stays one, so re-running never flags it twice. The first run starts the watch; earlier history
is not flagged.

Like the boot composer, this job reads lessons (approvals, applications) across apps.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Count, DateTimeField, F, Max, Min, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from config.moments import moment_parsed
from failures.analysis import recurrence
from failures.analysis.loops import MIN_REPEAT, loop_detect
from failures.live import live_pattern
from failures.models import Failure, FailurePattern, JobState, Regression
from failures.store.jobstate import watermark_settled
from lessons.models import Application, Lesson

JOB = "regressions"
# A day without the pattern, after its last failure was closed, before it counts as gone.
QUIET = timedelta(hours=24)
# Patterns looked at per query of the resolution check; keeps each statement's CASE small.
CHUNK = 500
# Open failures older than this are not read for loops: a loop is about what happens now.
LOOP_WINDOW = timedelta(days=7)
# Open failures read for loops at most; a fleet stuck beyond that has bigger news than loops.
LOOP_ROWS_CAP = 100_000


@dataclass(frozen=True)
class RegressionResult:
    patterns: int  # patterns with new failures looked at
    flagged: int  # episodes newly judged regressions
    handled: int  # episodes judged recurring and handled by their lesson
    loops: int  # tasks looping across the fleet now


@dataclass(frozen=True)
class Episode:
    pattern_id: int
    kind: str
    fixed_at: datetime
    since: datetime
    evidence: dict


def regressions_detect(*, now: datetime | None = None) -> RegressionResult:
    """Judge the patterns that came back since the last run; count the fleet's loops."""
    now = now or timezone.now()
    with transaction.atomic():
        state = JobState.locked(JOB)
        failures = Failure.objects.filter(pk__gt=state.failure_watermark)
        firsts = dict(
            failures.annotate(live=live_pattern("pattern"))
            .values("live")
            .annotate(first=Min("occurred_at"))
            .values_list("live", "first")
        )
        lessons = _lessons(firsts)
        approved = {pk for pk, found in lessons.items() if found[0]["approved_at"]}
        unfixed = {pk: at for pk, at in firsts.items() if pk not in approved}
        episodes = [
            *_after_approval(firsts, lessons),
            *_latest(_after_resolution(unfixed), unfixed),
        ]
        judged = [
            _judge(episode, lessons.get(episode.pattern_id, []), now) for episode in episodes
        ]
        state.failure_watermark = watermark_settled(
            rows=failures, time_field="recorded_at", now=now, current=state.failure_watermark
        )
        state.ran_at = now
        state.save()
    loops = loops_fleet_detect(now=now)
    return RegressionResult(
        patterns=len(firsts),
        flagged=sum(new for _, new in judged),
        handled=sum(verdict == recurrence.HANDLED for verdict, _ in judged),
        loops=len(loops),
    )


def _lessons(firsts: dict[int, datetime]) -> dict[int, list[dict]]:
    """Per pattern, the lessons whose applications judge it: its approved lessons (with when
    each was approved), or, where it has none, its unverified ones (approved_at None)."""
    found: dict[int, list[dict]] = defaultdict(list)
    links = FailurePattern.lessons.through.objects.filter(failurepattern_id__in=firsts).exclude(
        lesson__status=Lesson.Status.REJECTED
    )
    for pattern_id, lesson_id, name, status, at in links.values_list(
        "failurepattern_id",
        "lesson_id",
        "lesson__error_pattern",
        "lesson__status",
        Coalesce("lesson__reviewed_at", "lesson__created_at"),
    ).order_by("lesson_id"):
        approved_at = at.isoformat() if status == Lesson.Status.APPROVED else None
        found[pattern_id].append(
            {"id": str(lesson_id), "error_pattern": name, "approved_at": approved_at}
        )
    return {
        pk: [lesson for lesson in entries if lesson["approved_at"]] or entries
        for pk, entries in found.items()
    }


def _after_approval(firsts: dict[int, datetime], lessons: dict[int, list[dict]]) -> list[Episode]:
    """Patterns with a failure after the latest approval of one of their lessons."""
    fixed = {
        pk: max(moment_parsed(lesson["approved_at"]) for lesson in entries)
        for pk, entries in lessons.items()
        if entries[0]["approved_at"]
    }
    if not fixed:
        return []
    after = Q()
    for pk, at in fixed.items():
        after |= Q(pattern_id=pk, occurred_at__gt=at)
    rows = Failure.objects.filter(after).values("pattern_id").annotate(since=Min("occurred_at"))
    return [
        Episode(
            row["pattern_id"],
            Regression.Kind.LESSON_APPROVED,
            fixed[row["pattern_id"]],
            row["since"],
            {"lessons": lessons[row["pattern_id"]]},
        )
        for row in rows
    ]


def _after_resolution(firsts: dict[int, datetime]) -> list[Episode]:
    """Patterns whose earliest new failure came QUIET or more after all earlier ones closed."""
    episodes = []
    pending = sorted(firsts.items())
    for start in range(0, len(pending), CHUNK):
        chunk = dict(pending[start : start + CHUNK])
        cut = Case(
            *[When(pattern_id=pk, then=Value(at)) for pk, at in chunk.items()],
            output_field=DateTimeField(),
        )
        rows = (
            Failure.objects.filter(pattern_id__in=chunk)
            .annotate(cut=cut)
            .filter(occurred_at__lt=F("cut"))
            .values("pattern_id")
            .annotate(
                unclosed=Count(
                    "id", filter=Q(status=Failure.Status.OPEN) | Q(resolved_at__gt=F("cut"))
                ),
                resolved=Count("id", filter=Q(status=Failure.Status.RESOLVED)),
                fixed_at=Max("resolved_at"),
            )
        )
        for row in rows:
            first, fixed_at = chunk[row["pattern_id"]], row["fixed_at"]
            if (
                row["unclosed"]
                or not row["resolved"]
                or fixed_at is None
                or first - fixed_at < QUIET
            ):
                continue
            episodes.append(
                Episode(
                    row["pattern_id"],
                    Regression.Kind.RESOLVED,
                    fixed_at,
                    first,
                    {
                        "resolved_failures": row["resolved"],
                        "quiet_hours": round((first - fixed_at) / timedelta(hours=1), 1),
                    },
                )
            )
    return episodes


def _latest(found: list[Episode], patterns: dict[int, datetime]) -> list[Episode]:
    """The latest ``resolved`` episode of each of these patterns: one found now, or the one
    stored before, judged again on the evidence since (unless it is a regression already)."""
    latest = {episode.pattern_id: episode for episode in found}
    for row in Regression.objects.filter(
        pattern_id__in=patterns, kind=Regression.Kind.RESOLVED
    ).order_by("pattern_id", "-fixed_at"):
        if row.pattern_id not in latest or latest[row.pattern_id].fixed_at < row.fixed_at:
            latest[row.pattern_id] = Episode(
                row.pattern_id, row.kind, row.fixed_at, row.since, row.evidence
            )
    return list(latest.values())


def _judge(episode: Episode, lessons: list[dict], now: datetime) -> tuple[str, bool]:
    """Store the episode's verdict on the evidence so far (a regression stays one); the
    verdict, and whether it newly became a regression."""
    row, created = Regression.objects.get_or_create(
        pattern_id=episode.pattern_id,
        kind=episode.kind,
        fixed_at=episode.fixed_at,
        defaults={"since": episode.since, "detected_at": now},
    )
    if not created and row.verdict in recurrence.REGRESSED:
        return row.verdict, False
    evidence = _evidence(episode, [lesson["id"] for lesson in lessons], now)
    row.verdict = recurrence.verdict_of(evidence)
    row.evidence = {**episode.evidence, **evidence.as_json()}
    regressed = row.verdict in recurrence.REGRESSED
    row.regressed_at = now if regressed else None
    row.save(update_fields=["verdict", "evidence", "regressed_at"])
    return row.verdict, regressed


def _evidence(episode: Episode, lesson_ids: list[str], now: datetime) -> recurrence.Evidence:
    """The pattern's failures since the fix and over the spans before and after it, and the
    applications of its lessons since the fix (to its failures, or to none named)."""
    pk, fixed_at = episode.pattern_id, episode.fixed_at
    span = recurrence.span_of(now - fixed_at)
    after = Q(occurred_at__gt=fixed_at, occurred_at__lte=now)
    failures = Failure.objects.filter(pattern_id=pk).aggregate(
        since=Count("id", filter=after),
        recent=Count("id", filter=after & Q(occurred_at__gte=now - span)),
        before=Count("id", filter=Q(occurred_at__gte=fixed_at - span, occurred_at__lt=fixed_at)),
    )
    applications = Application.objects.filter(
        Q(failure__isnull=True) | Q(failure__pattern_id=pk),
        lesson_id__in=lesson_ids,
        applied_at__gt=fixed_at,
        applied_at__lte=now,
    )
    totals = applications.aggregate(all=Count("id"), worked=Count("id", filter=Q(worked=True)))
    recent = list(
        applications.order_by("-applied_at", "-id").values_list("worked", flat=True)[
            : recurrence.RECENT_APPLICATIONS
        ]
    )
    return recurrence.Evidence(
        failures_since=failures["since"],
        failures_recent=failures["recent"],
        failures_before=failures["before"],
        span_hours=round(span / timedelta(hours=1), 2),
        applications=totals["all"],
        worked=totals["worked"],
        recent_applications=len(recent),
        recent_worked=sum(recent),
    )


def loops_fleet_detect(*, now: datetime | None = None) -> list[dict]:
    """Every agent's open tasks whose failures end in a loop
    (failures.analysis.loops), longest first."""
    now = now or timezone.now()
    rows = (
        Failure.objects.filter(
            status=Failure.Status.OPEN, occurred_at__gte=now - LOOP_WINDOW, occurred_at__lte=now
        )
        .annotate(live=live_pattern("pattern"))
        .order_by("agent", "task", "occurred_at", "id")
        .values_list("agent", "task", "live", "occurred_at")[:LOOP_ROWS_CAP]
    )
    tasks: dict[tuple[str, str], list[tuple[int, datetime]]] = defaultdict(list)
    for agent, task, pattern, at in rows:
        tasks[(agent, task)].append((pattern, at))
    min_repeat = getattr(settings, "HINDSIGHT_SKIP_AFTER", MIN_REPEAT)  # as boot's loops
    found: list[dict[str, Any]] = []
    for (agent, task), sequence in tasks.items():
        loop = loop_detect([pattern for pattern, _ in sequence], min_repeat=min_repeat)
        if loop is not None:
            found.append(
                {
                    "agent": agent,
                    "task": task,
                    "kind": loop.kind,
                    "length": loop.length,
                    "since": sequence[loop.start][1],
                    "patterns": list(loop.patterns),
                }
            )
    templates = dict(
        FailurePattern.objects.filter(
            pk__in={pk for entry in found for pk in entry["patterns"]}
        ).values_list("pk", "template")
    )
    for entry in found:
        entry["patterns"] = [
            {"id": pk, "template": templates.get(pk, "")} for pk in entry["patterns"]
        ]
    return sorted(found, key=lambda e: (-e["length"], e["agent"], e["task"]))
