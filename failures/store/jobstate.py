"""Periodic jobs' watermarks, which only pass settled rows (a job's state row, locked while it
runs: failures.models.JobState.locked).

A job reads the rows with an id above its watermark (a primary-key range: its cost follows what
is new, not the history). Ids are handed out when a row is inserted, not when it commits, so a
row with a lower id may become visible after a higher one was read. The watermark therefore only
moves past rows written more than SETTLE before the run: newer rows are read again by the next
run, which the jobs tolerate because everything they do is a recompute (idempotent).
This assumes no transaction that writes failures stays open longer than SETTLE.
"""

from datetime import datetime, timedelta

from django.db.models import Max, Min, QuerySet

# Failure writes are single short transactions (milliseconds); five minutes leaves a wide margin
# for a stalled one while keeping the re-read tail of each run small.
SETTLE = timedelta(minutes=5)


def watermark_settled(*, rows: QuerySet, time_field: str, now: datetime, current: int) -> int:
    """The new watermark over ``rows`` (those above ``current``): just below the first row
    written within SETTLE of ``now``, or the last row when all are settled."""
    cutoff = now - SETTLE
    first_unsettled = rows.filter(**{f"{time_field}__gte": cutoff}).aggregate(pk=Min("pk"))["pk"]
    if first_unsettled is not None:
        return max(current, first_unsettled - 1)
    return rows.aggregate(pk=Max("pk"))["pk"] or current
