"""The one rule for a moment the service is given: in UTC, a moment without an offset taken as
UTC (never as the server's local time), one with an offset converted, never kept as written.
Python takes UTC offsets up to ±23:59, PostgreSQL only up to ±15:59, so a moment is compared,
stored and shown in UTC. Pure: no Django."""

from datetime import UTC, datetime

# Why a moment has no UTC form, e.g. 0001-01-01T00:00:00+01:00, before year 1 in UTC.
OUT_OF_RANGE = "Date and time is out of range."


def moment_utc(moment: datetime) -> datetime:
    """``moment`` in UTC, a naive one taken as UTC. OverflowError when it has no UTC form."""
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def moment_parsed(text: str) -> datetime:
    """An ISO 8601 date and time (``2026-02-16T09:30:00Z``, ``2026-02-16 09:30+05:30``, or a
    date alone, at midnight) in UTC by ``moment_utc``. ValueError when the text is no such
    moment, OverflowError when it has no UTC form."""
    return moment_utc(datetime.fromisoformat(text))
