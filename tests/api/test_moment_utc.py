"""config.api.fields.moment_utc: the one UTC rule for every moment the API is sent (filters,
outcomes, the failures cursor, job arguments)."""

from datetime import datetime, timedelta, timezone

import pytest

from config.api.fields import moment_utc

UTC = timezone.utc


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
