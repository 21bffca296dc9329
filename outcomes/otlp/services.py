"""Recording an OTLP trace export: the spans' outcomes go through the ledger's own parse and
record (outcomes_parse, outcomes_record), as those of POST /outcomes/bulk do; one failure per
fault of a trace, filed under its nearest named agent (outcomes.otlp.faults); every refused
span counted, logged and kept for the dashboard by its reason."""

import logging
from collections import Counter
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from config.scrubbing import scrubbed
from config.writers import ANYONE, Writer, agent_refusal
from failures.records.selectors import failures_of_traces
from failures.records.traces import failures_agent_refile, failures_lineage_extend

from ..cache import history_generation_bump
from ..models import Outcome, SpanRejection
from ..services import outcomes_parse, outcomes_record
from ..validation import OutcomeIn, agent_clean
from .faults import Decision, Failed, Stored, faults_decide
from .mapping import Mapped, MappedExport, refusal_explain, request_map

logger = logging.getLogger(__name__)

# A refusal message quotes this many spans; the count covers them all.
QUOTED_REFUSALS = 5
# A stored example of a refusal is cut to this: it names a span and an attribute, no more.
MAX_EXAMPLE_CHARS = 1000
# The dashboard shows the last day; a week back is kept for a look at what changed since.
REJECTION_RETENTION_DAYS = 7


@dataclass(frozen=True)
class Exported:
    """What became of an export: how many spans were refused, and why (the first few)."""

    stored: int
    replayed: int
    rejected: int
    message: str = ""


def traces_record(*, export, writer: Writer = ANYONE) -> Exported:
    """Record the outcomes of ``export``, an ExportTraceServiceRequest, as written by
    ``writer``, in the order the spans ended. A span whose outcomes cannot be stored is
    refused with the reason; the others are stored. A failed span whose fault a descendant (or
    an ancestor stored earlier) already recorded gives its outcome, if it is one, but no second
    failure record. A failure stored earlier is re-filed under the agent of a nearer named
    ancestor the export brings (outcomes.otlp.faults).

    Three transactions, each safe to repeat when the exporter resends the export: what the
    export teaches about failures stored earlier, the outcomes (one transaction, as a bulk
    request's), and the refusals."""
    mapped = request_map(export)
    refused = {span.span: (span.problem, span.reason) for span in mapped.spans if span.problem}
    raws = [
        (span, outcome) for span in mapped.spans if not span.problem for outcome in span.outcomes
    ]
    order = sorted(range(len(raws)), key=lambda i: raws[i][1]["occurred_at"])
    items: dict[int, OutcomeIn] = {}
    parsed = outcomes_parse(raw_items=[raws[i][1] for i in order])
    for i, (item, errors) in zip(order, parsed, strict=True):
        if item is None:
            refused.setdefault(raws[i][0].span, refusal_explain(errors))
        else:
            items[i] = item
    failed = {i: raws[i][0] for i, item in items.items() if item.outcome == "failure"}
    decisions = _decide(list(failed.values()), mapped)
    for i, owner in failed.items():
        faulted = _with_fault(items[i], owner, decisions[owner.trace_id])
        if faulted is None:  # its fault is recorded already, and the span is no outcome
            del items[i]
        else:
            items[i] = faulted
    # First, so that the export's successes close the failures they now own.
    _trace_learn(decisions, mapped, writer)
    kept = [i for i in order if i in items]
    stored = replayed = 0
    recorded = outcomes_record(items=[items[i] for i in kept], writer=writer) if kept else []
    for i, answer in zip(kept, recorded, strict=True):  # one answer per item, in order
        if answer.status in ("forbidden", "conflict"):
            reason = (
                "agent not allowed for the key"
                if answer.status == "forbidden"
                else ("event id used for another outcome")
            )
            refused.setdefault(raws[i][0].span, (answer.message, reason))
        elif answer.status == "created":
            stored += 1
        else:
            replayed += 1
    spans_rejected_record(refused=refused, writer=writer)
    quoted = [f"span {span}: {why}" for span, (why, _) in list(refused.items())[:QUOTED_REFUSALS]]
    more = len(refused) - len(quoted)
    message = "; ".join(quoted) + (f"; and {more} more" if more > 0 else "")
    return Exported(stored, replayed, len(refused), message)


def _decide(failed: list[Mapped], mapped: MappedExport) -> dict[str, Decision]:
    """faults_decide for each trace of the export, against what earlier exports stored: a
    span that neither failed nor names an agent may still link a stored failure to its
    ancestors."""
    traces = {trace for trace, _ in mapped.parents}
    parents: dict[str, dict[str, str]] = {trace: {} for trace in traces}
    for (trace, span), parent in mapped.parents.items():
        if trace in parents:
            parents[trace][span] = parent
    stored: dict[str, list[Stored]] = {trace: [] for trace in traces}
    for pk, trace, span, fault, lineage, agent_span in failures_of_traces(trace_ids=traces):
        stored[trace].append(Stored(pk, span, fault, tuple(lineage or ()), agent_span))
    by_trace: dict[str, list[Failed]] = {trace: [] for trace in traces}
    for owner in failed:
        by_trace[owner.trace_id].append(Failed(owner.span_id, owner.parent_id, owner.fault))
    named: dict[str, set[str]] = {trace: set() for trace in traces}
    for trace, span in mapped.agents:
        named[trace].add(span)
    return {
        trace: faults_decide(
            by_trace[trace], parents[trace], stored[trace], frozenset(named[trace])
        )
        for trace in traces
    }


def _trace_learn(decisions: dict[str, Decision], mapped: MappedExport, writer: Writer) -> None:
    """Store what the export taught about failures stored earlier: their longer lineages, and
    the agent of a nearer named ancestor, for the failure and the failed outcome that came
    with it (an agent the ledger would refuse, or the key may not write for, moves nothing)."""
    agents = {}
    for trace, decision in decisions.items():
        for pk, span in decision.refiled.items():
            agent = agent_clean(mapped.agents[(trace, span)])
            if agent and agent_refusal(writer, agent) is None:
                agents[pk] = (agent, span)
    with transaction.atomic():
        failures_lineage_extend(
            lineages={
                pk: lineage
                for decision in decisions.values()
                for pk, lineage in decision.extended.items()
            }
        )
        if not agents:
            return
        former = failures_agent_refile(agents=agents)
        for pk in sorted(former):
            Outcome.objects.filter(failure_id=pk).update(agent=agents[pk][0])
        # Both agents' histories changed.
        history_generation_bump(set(former.values()) | {agents[pk][0] for pk in former})


def _with_fault(item: OutcomeIn, owner: Mapped, decision: Decision) -> OutcomeIn | None:
    """A failed outcome as the ledger stores it: with its span's place in the trace when it
    records a failure; without an error (no failure record) when its fault is recorded
    already, and then only if the span is an outcome."""
    if owner.span_id in decision.folded:
        return replace(item, error="") if owner.is_outcome else None
    return replace(
        item,
        failure_extras={
            **item.failure_extras,
            "trace_id": owner.trace_id,
            "span_id": owner.span_id,
            "fault": owner.fault,
            "lineage": decision.lineages[owner.span_id],
            "agent_span": owner.agent_span,
        },
    )


def spans_rejected_record(*, refused: dict[str, tuple[str, str]], writer: Writer = ANYONE) -> None:
    """Log and keep the refused spans of one export (``{span: (why, reason)}``): one WARNING
    and one SpanRejection per reason, with its count and the first span's refusal."""
    if not refused:
        return
    counts = Counter(reason for _, reason in refused.values())
    examples: dict[str, str] = {}
    for span, (why, reason) in refused.items():
        examples.setdefault(reason, scrubbed(f"span {span}: {why}", MAX_EXAMPLE_CHARS))
    now = timezone.now()
    for reason, count in counts.items():
        logger.warning(
            "OpenTelemetry export: %d span(s) refused (%s), e.g. %s",
            count,
            reason,
            examples[reason],
        )
    SpanRejection.objects.bulk_create(
        [
            SpanRejection(
                at=now,
                reason=reason[:200],
                count=count,
                example=examples[reason],
                api_key_id=writer.key_id,
            )
            for reason, count in counts.items()
        ]
    )


def span_rejections_prune(*, older_than_days: int = REJECTION_RETENTION_DAYS) -> int:
    """Forget refused spans kept longer than ``older_than_days``; answer how many rows went."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    return SpanRejection.objects.filter(at__lt=cutoff).delete()[0]
