"""Regressions (a pattern that counted as fixed comes back) and fleet-wide loop detection.

A pattern counts as fixed from

* the latest approval of a lesson linked to it (``reviewed_at``, or ``created_at`` for lessons
  approved from the start, such as the seeded ones; editing an approved lesson re-approves
  it): any later failure is a regression of kind ``lesson_approved``;
* the moment its failures had all been closed (resolved or abandoned, at least one resolved):
  a failure at least QUIET after that, with no failure left open in between, is a regression
  of kind ``resolved``. Without the quiet time, every flaky pattern that a retry fixes would be
  flagged on its next failure.

Only patterns with failures since the job's watermark are looked at, and for each the earliest
of those failures is the candidate comeback: the job runs far more often than QUIET, so a second
comeback cannot hide behind the first. One Regression row per episode (pattern, kind, fixed_at):
re-running, or the same pattern failing on, never flags it twice. The first run starts the
watch; earlier history is not flagged.

Like the boot composer, this job reads lessons (their approvals) across apps.
"""
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, Count, DateTimeField, F, Max, Min, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from lessons.models import Lesson

from .jobstate import job_state_lock, watermark_settled
from .loops import MIN_REPEAT, loop_detect
from .models import Failure, FailurePattern, Regression

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
    flagged: int  # new regression episodes stored
    loops: int  # tasks looping across the fleet now


@dataclass(frozen=True)
class Episode:
    pattern_id: int
    kind: str
    fixed_at: datetime
    since: datetime
    evidence: dict


def regressions_detect(*, now: datetime | None = None) -> RegressionResult:
    """Flag the patterns that came back since the last run; count the fleet's loops."""
    now = now or timezone.now()
    with transaction.atomic():
        state = job_state_lock(name=JOB)
        failures = Failure.objects.filter(pk__gt=state.failure_watermark)
        firsts = dict(failures.annotate(live=_live()).values("live").annotate(
            first=Min("occurred_at")).values_list("live", "first"))
        episodes = [*_after_approval(firsts), *_after_resolution(firsts)]
        flagged = sum(_store(episode, now) for episode in episodes)
        state.failure_watermark = watermark_settled(
            rows=failures, time_field="recorded_at", now=now, current=state.failure_watermark)
        state.ran_at = now
        state.save()
    loops = loops_fleet_detect(now=now)
    return RegressionResult(patterns=len(firsts), flagged=flagged, loops=len(loops))


def _live() -> Coalesce:
    return Coalesce("pattern__merged_into_id", "pattern_id")


def _after_approval(firsts: dict[int, datetime]) -> list[Episode]:
    """Patterns with a failure after the latest approval of one of their lessons."""
    links = FailurePattern.lessons.through.objects.filter(
        failurepattern_id__in=firsts, lesson__status=Lesson.Status.APPROVED)
    approvals: dict[int, list[dict]] = defaultdict(list)
    fixed: dict[int, datetime] = {}
    for pattern_id, lesson_id, name, at in links.values_list(
            "failurepattern_id", "lesson_id", "lesson__error_pattern",
            Coalesce("lesson__reviewed_at", "lesson__created_at")):
        approvals[pattern_id].append({"id": str(lesson_id), "error_pattern": name,
                                      "approved_at": at.isoformat()})
        fixed[pattern_id] = max(at, fixed.get(pattern_id, at))
    if not fixed:
        return []
    after = Q()
    for pk, at in fixed.items():
        after |= Q(pattern_id=pk, occurred_at__gt=at)
    rows = Failure.objects.filter(after).values("pattern_id").annotate(
        since=Min("occurred_at"), failures=Count("id"), agents=Count("agent", distinct=True))
    return [Episode(row["pattern_id"], Regression.Kind.LESSON_APPROVED, fixed[row["pattern_id"]],
                    row["since"], {"lessons": approvals[row["pattern_id"]],
                                   "failures_since": row["failures"], "agents": row["agents"]})
            for row in rows]


def _after_resolution(firsts: dict[int, datetime]) -> list[Episode]:
    """Patterns whose earliest new failure came QUIET or more after all earlier ones closed."""
    episodes = []
    pending = sorted(firsts.items())
    for start in range(0, len(pending), CHUNK):
        chunk = dict(pending[start:start + CHUNK])
        cut = Case(*[When(pattern_id=pk, then=Value(at)) for pk, at in chunk.items()],
                   output_field=DateTimeField())
        rows = (Failure.objects.filter(pattern_id__in=chunk).annotate(cut=cut)
                .filter(occurred_at__lt=F("cut")).values("pattern_id").annotate(
                    unclosed=Count("id", filter=Q(status=Failure.Status.OPEN)
                                   | Q(resolved_at__gt=F("cut"))),
                    resolved=Count("id", filter=Q(status=Failure.Status.RESOLVED)),
                    fixed_at=Max("resolved_at")))
        for row in rows:
            first, fixed_at = chunk[row["pattern_id"]], row["fixed_at"]
            if row["unclosed"] or not row["resolved"] or fixed_at is None \
                    or first - fixed_at < QUIET:
                continue
            episodes.append(Episode(row["pattern_id"], Regression.Kind.RESOLVED, fixed_at, first, {
                "resolved_failures": row["resolved"],
                "quiet_hours": round((first - fixed_at) / timedelta(hours=1), 1)}))
    return episodes


def _store(episode: Episode, now: datetime) -> bool:
    """Store an episode unless it is known; True when it is new."""
    _, created = Regression.objects.get_or_create(
        pattern_id=episode.pattern_id, kind=episode.kind, fixed_at=episode.fixed_at,
        defaults={"since": episode.since, "detected_at": now, "evidence": episode.evidence})
    return created


def loops_fleet_detect(*, now: datetime | None = None) -> list[dict]:
    """Every agent's open tasks whose failures end in a loop (failures.loops), longest first."""
    now = now or timezone.now()
    rows = (Failure.objects.filter(status=Failure.Status.OPEN, occurred_at__gte=now - LOOP_WINDOW,
                                   occurred_at__lte=now).annotate(live=_live())
            .order_by("agent", "task", "occurred_at", "id")
            .values_list("agent", "task", "live", "occurred_at")[:LOOP_ROWS_CAP])
    tasks: dict[tuple[str, str], list[tuple[int, datetime]]] = defaultdict(list)
    for agent, task, pattern, at in rows:
        tasks[(agent, task)].append((pattern, at))
    min_repeat = getattr(settings, "HINDSIGHT_SKIP_AFTER", MIN_REPEAT)  # as boot's loops
    found = []
    for (agent, task), sequence in tasks.items():
        loop = loop_detect([pattern for pattern, _ in sequence], min_repeat=min_repeat)
        if loop is not None:
            found.append({"agent": agent, "task": task, "kind": loop.kind, "length": loop.length,
                          "since": sequence[loop.start][1], "patterns": list(loop.patterns)})
    templates = dict(FailurePattern.objects.filter(
        pk__in={pk for entry in found for pk in entry["patterns"]}).values_list("pk", "template"))
    for entry in found:
        entry["patterns"] = [{"id": pk, "template": templates.get(pk, "")}
                             for pk in entry["patterns"]]
    return sorted(found, key=lambda e: (-e["length"], e["agent"], e["task"]))
