"""Recording an OTLP trace export: the spans' outcomes go through the ledger's own parse and
record (outcomes_parse, outcomes_record), as those of POST /outcomes/bulk do."""
from dataclasses import dataclass

from django.conf import settings

from config.api.models import ApiKey

from ..services import outcomes_parse, outcomes_record
from .mapping import Mapped, refusal_explain, request_map

# A refusal message quotes this many spans; the count covers them all.
QUOTED_REFUSALS = 5


@dataclass(frozen=True)
class Exported:
    """What became of an export: how many spans were refused, and why (the first few)."""

    stored: int
    replayed: int
    rejected: int
    message: str = ""


def traces_record(request, *, api_key: ApiKey | None = None) -> Exported:
    """Record the outcomes of an ExportTraceServiceRequest as written by ``api_key``, in the
    order the spans ended, at most HINDSIGHT_BULK_MAX_ITEMS per transaction (an exporter's
    retry of a batch cut short replays what was stored). A span whose outcomes cannot be
    stored is refused with the reason; the others are stored."""
    mapped = request_map(request)
    refused: dict[str, str] = {span.span: span.problem for span in mapped if span.problem}
    owners = [span for span in mapped for _ in span.outcomes]
    raws = [outcome for span in mapped for outcome in span.outcomes]
    order = sorted(range(len(raws)), key=lambda i: raws[i]["occurred_at"])
    parsed = outcomes_parse([raws[i] for i in order])
    valid: list[tuple[Mapped, object]] = []
    for i, (item, errors) in zip(order, parsed):
        if item is None:
            refused.setdefault(owners[i].span, refusal_explain(errors))
        else:
            valid.append((owners[i], item))
    stored = replayed = 0
    size = settings.HINDSIGHT_BULK_MAX_ITEMS
    for start in range(0, len(valid), size):
        chunk = valid[start:start + size]
        for (owner, _), recorded in zip(chunk, outcomes_record([item for _, item in chunk],
                                                               api_key=api_key)):
            if recorded.status in ("forbidden", "conflict"):
                refused.setdefault(owner.span, recorded.message)
            elif recorded.status == "created":
                stored += 1
            else:
                replayed += 1
    quoted = [f"span {span}: {why}" for span, why in list(refused.items())[:QUOTED_REFUSALS]]
    more = len(refused) - len(quoted)
    message = "; ".join(quoted) + (f"; and {more} more" if more > 0 else "")
    return Exported(stored, replayed, len(refused), message)
