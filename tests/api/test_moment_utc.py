"""config.moments.moment_utc: the one UTC rule for every moment the API is sent (filters,
outcomes, the failures cursor, job arguments)."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from config.moments import moment_utc

UTC = UTC


def at(*parts, hours: float = 0) -> datetime:
    return datetime(*parts, tzinfo=timezone(timedelta(hours=hours)))


@pytest.mark.parametrize(
    "name, moment, expected",
    [
        ("naive is taken as UTC", datetime(2026, 2, 16, 9, 30), at(2026, 2, 16, 9, 30)),
        ("UTC stays", at(2026, 2, 16, 9, 30), at(2026, 2, 16, 9, 30)),
        # Past PostgreSQL's ±15:59: shifted to UTC, never sent as written.
        ("largest offset", at(2026, 2, 16, 23, 59, hours=23 + 59 / 60), at(2026, 2, 16, 0, 0)),
        ("negative offset", at(2026, 2, 16, 0, 0, hours=-20), at(2026, 2, 16, 20, 0)),
    ],
)
def test_moments_come_out_in_utc(name, moment, expected):
    result = moment_utc(moment)
    assert result == expected and result.tzinfo is UTC


@pytest.mark.parametrize(
    "moment",
    [
        at(1, 1, 1, hours=1),  # before year 1 in UTC
        at(9999, 12, 31, 23, 0, hours=-2),  # after 9999 in UTC
    ],
)
def test_a_moment_without_a_utc_form_overflows(moment):
    with pytest.raises(OverflowError):
        moment_utc(moment)


@pytest.fixture
def local_time_far_from_utc(monkeypatch):
    """The process's local time zone five and a half hours ahead of UTC, for one test."""
    import time

    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-02-16T09:30:00Z", at(2026, 2, 16, 9, 30)),
        ("2026-02-16T09:30:00", at(2026, 2, 16, 9, 30)),  # no offset: UTC, not local time
        ("2026-02-16 09:30+05:30", at(2026, 2, 16, 4, 0)),  # an offset is converted
        ("2026-02-16", at(2026, 2, 16)),
    ],
)
def test_a_moment_in_text_comes_out_in_utc(local_time_far_from_utc, text, expected):
    from config.moments import moment_parsed

    result = moment_parsed(text)
    assert result == expected and result.tzinfo is UTC


def test_text_that_is_no_moment_is_refused():
    from config.moments import moment_parsed

    for text in ("yesterday", "2026-13-01T00:00", ""):
        with pytest.raises(ValueError):
            moment_parsed(text)
