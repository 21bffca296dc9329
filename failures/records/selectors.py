"""Reads of failures and patterns: the keyset-paged list, pattern lookup and retry advice."""

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from config.api.filtering import filtered
from config.errors import InvalidInput, NotFound
from config.formats import counted
from config.moments import moment_parsed
from failures.live import live_of, live_pattern
from failures.models import MAX_ID, Failure, FailurePattern, FailureTemplate, PatternReport
from failures.patterns import fingerprint_of, template_of
from failures.records.filters import FailureFilter
from failures.store.patterns import pattern_covering

# A pattern with at least this many failures and not one of them ever resolved by a later
# success is advised non-retryable: three tries is where "flaky" stops being the likely story.
NEVER_RECOVERED_MIN = 3


@dataclass(frozen=True)
class Page:
    items: list
    next_cursor: str | None


def _cursor_encode(failure: Failure) -> str:
    raw = f"{failure.occurred_at.isoformat()}|{failure.pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _cursor_decode(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        moment_text, pk_text = raw.split("|")
        # The API gives out aware moments and ids a bigint holds.
        if not 1 <= int(pk_text) <= MAX_ID or datetime.fromisoformat(moment_text).tzinfo is None:
            raise ValueError(raw)
        return moment_parsed(moment_text), int(pk_text)
    except (ValueError, OverflowError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput.from_fields({"cursor": ["Not a cursor this API gave out."]}) from None


def failure_list(*, filters, cursor: str | None = None, limit: int = 50) -> Page:
    """Failures matching ``filters``, newest first, ``limit`` at a time after ``cursor``."""
    failures = filtered(FailureFilter, filters, Failure.objects.select_related("pattern"))
    if cursor:
        moment, pk = _cursor_decode(cursor)
        failures = failures.filter(Q(occurred_at__lt=moment) | Q(occurred_at=moment, pk__lt=pk))
    items = list(failures.order_by("-occurred_at", "-id")[: limit + 1])
    more = len(items) > limit
    items = items[:limit]
    return Page(items, _cursor_encode(items[-1]) if more else None)


def pattern_of_message(*, message: str) -> FailurePattern | None:
    """The stored pattern a message belongs to (its template's, or one covering it), if any;
    creates nothing."""
    template = template_of(message)
    # The live pattern is read only when the template's was merged away (live_of); joined on
    # every check, it loaded a second pattern row that is nearly always empty.
    known = (
        FailureTemplate.objects.select_related("pattern")
        .filter(fingerprint=fingerprint_of(template))
        .first()
    )
    return live_of(known.pattern) if known else pattern_covering(template=template)


def pattern_id_of_message(*, message: str) -> int | None:
    """The id of pattern_of_message's answer, read as one value when the template is stored."""
    template = template_of(message)
    for pk in FailureTemplate.objects.filter(fingerprint=fingerprint_of(template)).values_list(
        live_pattern("pattern"), flat=True
    )[:1]:
        return pk
    covering = pattern_covering(template=template)
    return covering.pk if covering else None


def retry_advice(
    *, pattern: FailurePattern, failure: Failure, task_failures: int | None = None
) -> dict:
    """Whether to retry a failure of this pattern, after how long, and why, in words that say
    whose each count is: this task's (``task_failures``: its failures of this pattern since its
    last success, counted from ``failure`` when not given), this agent's word for this failure,
    or the fleet's (the pattern's counts).

    The agent's own word for this failure comes first; then the pattern's history: any report
    of "unsafe to retry", or a pattern that never recovered in NEVER_RECOVERED_MIN tries.
    """
    after = failure.retry_after or pattern.retry_after
    if task_failures is None:
        task_failures = task_failures_count(failure=failure)
    task = f"this task failed {_times(task_failures)} with this error since its last success"
    events, recovered = pattern.event_count, min(pattern.resolved_count, pattern.event_count)
    if failure.retry_safe is False:
        return _advice(False, None, f"this agent reported this failure as unsafe to retry; {task}")
    if pattern.unsafe_count:
        return _advice(
            False,
            None,
            "across the fleet, failures of this kind were reported unsafe "
            f"to retry {_times(pattern.unsafe_count)}; {task}",
        )
    failures = counted(events, "failure")
    if events >= NEVER_RECOVERED_MIN and not recovered:
        return _advice(
            False,
            None,
            f"across the fleet, {failures} of this kind and no retry has ever succeeded; {task}",
        )
    if recovered:
        return _advice(
            True,
            after,
            f"across the fleet, a retry succeeded after {recovered} of "
            f"{failures} of this kind; {task}",
        )
    so_far = f"across the fleet, {failures} of this kind so far, none recovered yet"
    if failure.retry_safe:
        return _advice(
            True, after, f"this agent reported this failure as safe to retry; {so_far}; {task}"
        )
    return _advice(
        None,
        after,
        f"{so_far}: too few to advise ({NEVER_RECOVERED_MIN} with no "
        f"recovery would mean do not retry); {task}",
    )


def task_failures_count(*, failure: Failure) -> int:
    """How often the failure's task failed with its pattern since the task's last success: its
    agent's open failures of that task whose pattern is, or was merged into, the failure's."""
    return (
        Failure.objects.alias(live=live_pattern("pattern"))
        .filter(
            Q(pattern_id=failure.pattern_id) | Q(live=failure.pattern_id),
            agent=failure.agent,
            task=failure.task,
            status=Failure.Status.OPEN,
        )
        .count()
    )


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _advice(retryable: bool | None, after: int | None, reason: str) -> dict:
    return {"retryable": retryable, "after_seconds": after, "reason": reason}


def failure_named(*, failure_id: int, field: str = "failure_id") -> Failure:
    """The failure a request names in ``field``; an unknown id is invalid input (the request's
    fault, not a missing resource)."""
    failure = Failure.objects.filter(pk=failure_id).first()
    if failure is None:
        raise InvalidInput.from_fields({field: [f"No failure with id {failure_id}."]})
    return failure


def reports_newest_first() -> QuerySet[PatternReport]:
    """Stored pattern reports, newest window first, without their markdown (a list shows the
    summary of their data)."""
    return PatternReport.objects.order_by("-until", "-pk").defer("markdown")


def report_get(*, pk: int) -> PatternReport:
    """One stored report; NotFound when there is none."""
    try:
        return PatternReport.objects.get(pk=pk)
    except PatternReport.DoesNotExist:
        raise NotFound("No such report.") from None


def failures_of_traces(
    *, trace_ids: set[str]
) -> list[tuple[int, str, str, str, list[str] | None, str]]:
    """``(id, trace_id, span_id, fault, lineage, agent_span)`` of the failures recorded from
    spans of these OpenTelemetry traces (through failure_trace_idx); lineage is None for
    failures sent otherwise."""
    if not trace_ids:
        return []
    return list(
        Failure.objects.filter(trace_id__in=sorted(trace_ids)).values_list(
            "pk", "trace_id", "span_id", "fault", "lineage", "agent_span"
        )
    )
