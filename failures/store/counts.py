"""A pattern's counters recomputed exactly from its failures: the one recount that the pattern
job, curation and re-filing an OpenTelemetry failure under another agent all use."""

from django.db.models import Count, Max, Min, Q

from failures.models import Failure, FailurePattern


def patterns_recount(*, pattern_ids: list[int] | None = None) -> int:
    """Recompute pattern counters exactly from their failures; return how many were updated.

    The write path counts new agents and tasks with an existence check, which two concurrent
    first failures can both pass; this recount is the exact, idempotent correction.
    """
    failures = Failure.objects.all()
    if pattern_ids is not None:
        failures = failures.filter(pattern_id__in=pattern_ids)
    stats = failures.values("pattern_id").annotate(
        events=Count("id"),
        agents=Count("agent", distinct=True),
        tasks=Count("task", distinct=True),
        first=Min("occurred_at"),
        last=Max("occurred_at"),
        resolved=Count("id", filter=Q(status=Failure.Status.RESOLVED)),
        unsafe=Count("id", filter=Q(retry_safe=False)),
    )
    updated = 0
    for row in stats:
        updated += FailurePattern.objects.filter(pk=row["pattern_id"]).update(
            event_count=row["events"],
            agent_count=row["agents"],
            task_count=row["tasks"],
            first_seen=row["first"],
            last_seen=row["last"],
            resolved_count=row["resolved"],
            unsafe_count=row["unsafe"],
        )
    return updated
