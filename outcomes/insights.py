"""What the ledger says about a task type: the seed's ``learnFromPastOutcomes`` and its
success-rate SQL, as reads."""

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from posixpath import basename
from typing import Any

from django.db.models import Count, Q

from failures.models import FailurePattern
from failures.patterns import template_of
from lessons.selectors import lessons_best_by_pattern

from .history_markdown import one_line
from .models import Outcome
from .validation import files_of

# How many success and failure patterns an answer lists, and how many failure patterns get a
# recommendation of their own.
PATTERNS_LISTED = 5
FAILURES_RECOMMENDED = 3
# An error type whose outcomes succeed less often than this (in percent), over at least
# LOW_RATE_MIN_TOTAL outcomes, gets a recommendation to look before retrying.
LOW_RATE_PERCENT = 50
LOW_RATE_MIN_TOTAL = 3
# An outcome as these functions read it: the columns outcome_insights reads, by name.
_Row = Mapping[str, Any]


def _rate(part: int, whole: int, digits: int | None = 2):
    return round(100.0 * part / whole, digits) if whole else 0


def outcome_insights(
    *, task_type: str | None = None, agent: str | None = None, limit: int = 50
) -> dict:
    """Totals, rates, per-error-type success, what worked, what failed (as patterns), and
    recommendations, over the latest ``limit`` outcomes."""
    outcomes = Outcome.objects.all()
    if task_type:
        outcomes = outcomes.filter(task_type=task_type)
    if agent:
        outcomes = outcomes.filter(agent=agent)
    rows = list(
        outcomes.order_by("-occurred_at").values(
            "outcome", "duration_ms", "error_type", "context", "result", "pattern_id"
        )[:limit]
    )
    successes = [row for row in rows if row["outcome"] == "success"]
    durations = [row["duration_ms"] for row in rows if row["duration_ms"] is not None]
    failure_patterns = _failure_patterns([row for row in rows if row["outcome"] == "failure"])
    approaches = _approaches(successes)
    return {
        "task_type": task_type,
        "agent": agent,
        "total_outcomes": len(rows),
        "success_count": len(successes),
        "failure_count": len(rows) - len(successes),
        "success_rate": _rate(len(successes), len(rows)),
        "avg_duration_ms": round(sum(durations) / len(durations)) if durations else None,
        "context_patterns": _context_patterns(rows),
        "success_patterns": _success_patterns(successes, approaches),
        "failure_patterns": [template for template, _ in failure_patterns],
        "recommendations": _recommendations(rows, approaches, failure_patterns),
    }


def _context_patterns(rows: Sequence[_Row]) -> dict:
    totals: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for row in rows:
        if row["error_type"]:
            totals[row["error_type"]] += 1
            wins[row["error_type"]] += row["outcome"] == "success"
    return {
        kind: {
            "total": total,
            "successes": wins[kind],
            "success_rate": _rate(wins[kind], total, None),
        }
        for kind, total in totals.most_common()
    }


def _approaches(successes: Sequence[_Row]) -> list[str]:
    found: Counter[str] = Counter()
    for row in successes:
        approach = (
            (row["result"] or {}).get("approach") if isinstance(row["result"], dict) else None
        )
        if isinstance(approach, str) and approach.strip():
            found[one_line(approach)] += 1
    return [approach for approach, _ in found.most_common(PATTERNS_LISTED)]


def _success_patterns(successes: Sequence[_Row], approaches: list[str]) -> list[str]:
    # The same files the history sees (validation.files_of), each counted once per outcome.
    files = Counter(
        one_line(basename(path), 100)
        for row in successes
        for path in files_of(row["context"], row["result"], strict=False)
    )
    handled = [f"Successfully handled: {name}" for name, _ in files.most_common(PATTERNS_LISTED)]
    return (handled + approaches)[: PATTERNS_LISTED * 2]


def _failure_patterns(failures: Sequence[_Row]) -> list[tuple[str, int | None]]:
    """(template, pattern id) of the most frequent failure shapes, by the pattern engine."""
    stored = dict(
        FailurePattern.objects.filter(
            pk__in={row["pattern_id"] for row in failures if row["pattern_id"]}
        ).values_list("pk", "template")
    )
    shapes: Counter = Counter()
    for row in failures:
        if row["pattern_id"] in stored:
            shapes[(stored[row["pattern_id"]], row["pattern_id"])] += 1
            continue
        context = row["context"] if isinstance(row["context"], dict) else {}
        message = context.get("error_message") or context.get("error")
        if isinstance(message, str) and message.strip():
            shapes[(template_of(message), None)] += 1
    return [(one_line(template), pk) for (template, pk), _ in shapes.most_common(PATTERNS_LISTED)]


def _recommendations(rows, approaches, failure_patterns) -> list[str]:
    if not rows:
        return ["No outcomes recorded yet; record outcomes to learn from them."]
    advice = []
    if approaches:
        advice.append(f"Continue using successful approaches: {approaches[0]}")
    fixes = lessons_best_by_pattern([pk for _, pk in failure_patterns if pk])
    for template, pk in failure_patterns[:FAILURES_RECOMMENDED]:
        advice.append(f"Avoid common failure pattern: {template}")
        if pk in fixes:
            resolution, approved = fixes[pk]
            label = "approved lesson" if approved else "unverified lesson, not yet reviewed"
            advice.append(f"Known fix for {template} ({label}): {one_line(resolution)}")
    for kind, stats in _context_patterns(rows).items():
        if stats["total"] >= LOW_RATE_MIN_TOTAL and stats["success_rate"] < LOW_RATE_PERCENT:
            advice.append(
                f"Low success rate for {one_line(kind, 100)} errors "
                f"({stats['success_rate']}%): check known fixes before retrying"
            )
    return advice


def outcome_stats(*, since: datetime) -> list[dict]:
    """Success rate by agent and task type since a moment (the seed's SQL), best first."""
    groups = (
        Outcome.objects.filter(occurred_at__gte=since)
        .values("agent", "task_type")
        .annotate(total=Count("pk"), successes=Count("pk", filter=Q(outcome="success")))
        .order_by()
    )
    rows = [
        {**group, "success_rate": _rate(group["successes"], group["total"])} for group in groups
    ]
    return sorted(
        rows, key=lambda r: (-r["success_rate"], -r["total"], r["agent"], r["task_type"])
    )
