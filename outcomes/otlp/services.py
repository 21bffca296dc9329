"""Recording an OTLP trace export: the spans' outcomes go through the ledger's own parse and
record (outcomes_parse, outcomes_record), as those of POST /outcomes/bulk do."""
from dataclasses import dataclass

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


def traces_record(*, export, api_key: ApiKey | None = None) -> Exported:
    """Record the outcomes of ``export``, an ExportTraceServiceRequest, as written by
    ``api_key``, in one transaction, in the order the spans ended. A span whose outcomes cannot
    be stored is refused with the reason; the others are stored."""
    mapped = request_map(export)
    refused: dict[str, str] = {span.span: span.problem for span in mapped if span.problem}
    owners = [span for span in mapped for _ in span.outcomes]
    raws = [outcome for span in mapped for outcome in span.outcomes]
    order = sorted(range(len(raws)), key=lambda i: raws[i]["occurred_at"])
    parsed = outcomes_parse(raw_items=[raws[i] for i in order])
    valid: list[tuple[Mapped, object]] = []
    for i, (item, errors) in zip(order, parsed):
        if item is None:
            refused.setdefault(owners[i].span, refusal_explain(errors))
        else:
            valid.append((owners[i], item))
    stored = replayed = 0
    recorded = outcomes_record(items=[item for _, item in valid], api_key=api_key) if valid else []
    for (owner, _), answer in zip(valid, recorded):
        if answer.status in ("forbidden", "conflict"):
            refused.setdefault(owner.span, answer.message)
        elif answer.status == "created":
            stored += 1
        else:
            replayed += 1
    quoted = [f"span {span}: {why}" for span, why in list(refused.items())[:QUOTED_REFUSALS]]
    more = len(refused) - len(quoted)
    message = "; ".join(quoted) + (f"; and {more} more" if more > 0 else "")
    return Exported(stored, replayed, len(refused), message)
