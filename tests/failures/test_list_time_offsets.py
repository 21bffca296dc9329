"""The failure list's ``since`` takes every UTC offset ISO 8601 allows and compares in UTC.

PostgreSQL refuses offsets beyond ±15:59 that Python parses (up to ±23:59); such a value used to
reach the query as written and answer a 500. The same holds for the moment inside a cursor.
"""

import base64

import pytest

from failures.models import Failure

URL = "/api/v1/failures"


def _record(api, task: str, timestamp: str) -> None:
    response = api.post(
        URL,
        {
            "agent": "agent-1",
            "task": task,
            "error": "Timed out",
            "error_type": "timeout",
            "timestamp": timestamp,
        },
        format="json",
    )
    assert response.status_code == 201, response.content


def test_since_with_an_offset_beyond_postgresqls_range_is_compared_in_utc(api):
    _record(api, "old", "2026-01-01T00:00:00Z")
    _record(api, "new", "2026-01-02T00:00:00Z")
    # 2025-12-31T03:00-22:00 is 2026-01-01T01:00Z: after "old", before "new".
    response = api.get(URL, {"since": "2025-12-31T03:00:00-22:00"})
    assert response.status_code == 200, response.content
    assert [failure["task"] for failure in response.json()["failures"]] == ["new"]


def test_a_timestamp_with_a_large_offset_is_stored_in_utc(api):
    _record(api, "far-west", "2026-01-01T00:00:00-20:00")
    [listed] = api.get(URL, {"task": "far-west"}).json()["failures"]
    assert listed["timestamp"] == "2026-01-01T20:00:00Z"


def test_since_before_year_one_in_utc_is_400_naming_since(api):
    response = api.get(URL, {"since": "0001-01-01T00:00:00+01:00"})
    assert response.status_code == 400, response.content
    assert "since" in response.json()["fields"]


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_a_cursor_with_a_large_offset_pages_in_utc(api):
    for task in ("old", "middle", "new"):
        _record(
            api,
            task,
            {
                "old": "2026-01-01T00:00:00Z",
                "middle": "2026-01-01T12:00:00Z",
                "new": "2026-01-02T00:00:00Z",
            }[task],
        )
    middle = Failure.objects.get(task="middle")
    # 2026-01-01T12:00Z written with -23:59 and with +20:00: the same moment.
    for moment in ("2025-12-31T12:01:00-23:59", "2026-01-02T08:00:00+20:00"):
        response = api.get(URL, {"cursor": _cursor(f"{moment}|{middle.pk}")})
        assert response.status_code == 200, response.content
        assert [failure["task"] for failure in response.json()["failures"]] == ["old"]


@pytest.mark.parametrize(
    "text",
    [
        "0001-01-01T00:00:00+01:00|5",  # before year 1 in UTC
        "9999-12-31T23:59:59-01:00|5",  # after year 9999 in UTC
        "2026-01-01T00:00:00|5",  # no offset: not a cursor the API gave out
        "2026-01-01T00:00:00+00:00|99999999999999999999",  # beyond a bigint
        "2026-01-01T00:00:00+00:00|-1",
    ],
)
def test_a_cursor_the_api_did_not_give_out_is_400_naming_it(api, text):
    response = api.get(URL, {"cursor": _cursor(text)})
    assert response.status_code == 400, response.content
    assert list(response.json()["fields"]) == ["cursor"]
