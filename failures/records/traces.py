"""OpenTelemetry failures' place in their trace, learned as later exports bring their ancestors:
the longer lineage, and the agent of a nearer named ancestor (outcomes.otlp.faults decides)."""

from django.db import transaction

from failures.models import Failure, FailurePattern
from failures.store.counts import patterns_recount


def failures_lineage_extend(*, lineages: dict[int, tuple[str, ...]]) -> None:
    """Store the longer lineages of OpenTelemetry failures whose ancestors arrived since."""
    if not lineages:
        return
    with transaction.atomic():
        for pk, lineage in sorted(lineages.items()):
            Failure.objects.filter(pk=pk).update(lineage=list(lineage))


def failures_agent_refile(*, agents: dict[int, tuple[str, str]]) -> dict[int, str]:
    """File failures under another agent (``{failure: (agent, the span that named it)}``) and
    recount their patterns, whose agent counts change; answer ``{failure: its former agent}``
    for those that moved. The caller owns the transaction: the failed outcomes that came with
    them move in it too."""
    rows = {
        pk: (agent, pattern)
        for pk, agent, pattern in Failure.objects.select_for_update()
        .filter(pk__in=agents)
        .order_by("pk")
        .values_list("pk", "agent", "pattern_id")
    }
    if not rows:
        return {}
    pattern_ids = sorted({pattern for _, pattern in rows.values()})
    # Locked in id order, as every writer of patterns locks them (outcomes.services).
    list(
        FailurePattern.objects.select_for_update()
        .filter(pk__in=pattern_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for pk in sorted(rows):
        agent, span = agents[pk]
        Failure.objects.filter(pk=pk).update(agent=agent, agent_span=span)
    patterns_recount(pattern_ids=pattern_ids)
    return {pk: former for pk, (former, _) in rows.items() if former != agents[pk][0]}
