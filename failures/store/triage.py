"""A curator's triage of a failure pattern: resolve, ignore, snooze until a time, or reopen.

The rule, written once here:

* a pattern is *muted* while it is ignored, or snoozed and its ``snoozed_until`` is still ahead;
  a muted pattern is left out of what asks for attention: the curation queues (the dashboard's
  and the pattern report's), the boot briefing's recent failures and its fleet view (within
  the fleet view's cache lifetime, a few seconds);
* a resolved pattern is left out of the curation queue too, but it is not muted: when it fails
  again the failure write reopens it (``status`` back to open), and it shows everywhere again;
* triage never changes what the fleet is told about the fault itself: the lesson check and the
  failure answer still return a muted pattern's known lessons (a curator's triage is about
  what humans look at, not about what an agent should do when it meets the error).
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from failures.models import FailurePattern

Status = FailurePattern.Status


def muted_q(*, now: datetime, prefix: str = "") -> Q:
    """The patterns muted at ``now``, as a filter (``prefix`` reaches them through a relation,
    e.g. ``"pattern__"`` from failures)."""
    return Q(**{f"{prefix}status": Status.IGNORED}) | Q(
        **{f"{prefix}status": Status.SNOOZED, f"{prefix}snoozed_until__gt": now}
    )


def muted_sql(*, alias: str, now: str) -> str:
    """muted_q as an SQL condition on the pattern table's ``alias``, for a raw read that passes
    the time as the named parameter ``now`` (tests hold the two spellings to agree)."""
    return (
        f"({alias}.status = '{Status.IGNORED.value}' OR ({alias}.status ="
        f" '{Status.SNOOZED.value}' AND {alias}.snoozed_until > %({now})s))"
    )


def reopened_sql(*, alias: str, at: str) -> str:
    """The reopen rule as SQL assignments on the pattern table's ``alias``, for the failure
    write's counting statement (failures.queries): a resolved pattern that fails again is open
    again, by no one, at ``at`` (an SQL expression); any other state stays as it is."""
    resolved = f"{alias}.status = '{Status.RESOLVED.value}'"
    return (
        f"status = CASE WHEN {resolved} THEN '{Status.OPEN.value}' ELSE {alias}.status END,"
        f" triaged_by_id = CASE WHEN {resolved} THEN NULL ELSE {alias}.triaged_by_id END,"
        f" triaged_at = CASE WHEN {resolved} THEN {at} ELSE {alias}.triaged_at END"
    )


def triaged_q(*, now: datetime, prefix: str = "") -> Q:
    """The patterns a curator has dealt with at ``now``: muted, or resolved (and not failing
    since, or the write would have reopened it)."""
    return muted_q(now=now, prefix=prefix) | Q(**{f"{prefix}status": Status.RESOLVED})


def pattern_is_muted(pattern: FailurePattern, *, now: datetime | None = None) -> bool:
    """Whether the pattern is left out of what asks for attention (see the module's rule)."""
    return is_muted(pattern.status, pattern.snoozed_until, now=now or timezone.now())


def is_muted(status: str, snoozed_until: datetime | None, *, now: datetime) -> bool:
    """pattern_is_muted over the two columns, for reads that hold them without a model."""
    return status == Status.IGNORED or (
        status == Status.SNOOZED and snoozed_until is not None and snoozed_until > now
    )


def pattern_triage(
    *, pattern: FailurePattern, status: str, user, until: datetime | None = None
) -> FailurePattern:
    """Set a pattern's triage status; ``until`` is required for (and only kept by) a snooze, and
    must be in the future. Raises ValueError for a bad status or time, or a merged-away
    pattern."""
    if status not in Status.values:
        raise ValueError(f"unknown status {status!r}")
    now = timezone.now()
    if status == Status.SNOOZED and (until is None or until <= now):
        raise ValueError("snooze until a time in the future")
    with transaction.atomic():
        pattern = FailurePattern.objects.select_for_update().get(pk=pattern.pk)
        if pattern.merged_into_id is not None:  # its failures and lessons are the live one's
            raise ValueError(
                f"pattern {pattern.pk} is merged into {pattern.merged_into_id}: triage that one"
            )
        pattern.status = status
        pattern.snoozed_until = until if status == Status.SNOOZED else None
        pattern.triaged_by, pattern.triaged_at = user, now
        pattern.save(update_fields=["status", "snoozed_until", "triaged_by", "triaged_at"])
    return pattern
