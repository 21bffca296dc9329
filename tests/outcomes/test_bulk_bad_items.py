"""A bad item of a bulk request is answered ``invalid`` in its own result, whatever is wrong
with it, and the good items around it are stored.

The body is one JSON document, so what no item may hold (a number beyond the float range, NaN,
a NUL, nesting past the limit) must not fail the whole body either: it is named in its item.
"""

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from outcomes.models import Outcome

BULK = "/api/v1/outcomes/bulk"


def good(n: int, **extra) -> dict:
    return {
        "task_id": f"task-{n}",
        "agent": "agent-1",
        "task_type": "fix_bug",
        "outcome": "failure",
        "event_id": str(uuid.uuid4()),
        "context": {"error_type": "timeout", "error_message": f"Timed out after {n} s"},
        **extra,
    }


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def far_future() -> str:
    return (timezone.now() + timedelta(days=2)).isoformat()


# (name, the bad item as JSON text, the field its result names). JSON text, not a dict, so that
# what json.dumps cannot write (1e400, NaN) is sent as an agent would send it.
GOOD_TEXT = json.dumps(good(0))[:-1]  # an item left open, to add one bad field to it
BAD_ITEMS = [
    ("1e400 in a context value", GOOD_TEXT.replace('"timeout"', "1e400", 1) + "}", "context"),
    ("-1e400 deep in result", GOOD_TEXT + ', "result": {"a": [1, {"b": -1e400}]}}', "result"),
    ("NaN as duration", GOOD_TEXT + ', "duration_ms": NaN}', "duration_ms"),
    ("Infinity as task id", GOOD_TEXT.replace('"task-0"', "Infinity") + "}", "task_id"),
    ("-Infinity in context", GOOD_TEXT + ', "result": {"n": -Infinity}}', "result"),
    ("5000-digit integer", GOOD_TEXT + ', "duration_ms": ' + "9" * 5000 + "}", "duration_ms"),
    ("huge number as a timestamp", GOOD_TEXT + ', "occurred_at": 1e999}', "occurred_at"),
    ("1e400 in an unknown field", GOOD_TEXT + ', "extra": 1e400}', "extra"),
    ("duration beyond a week", GOOD_TEXT + ', "duration_ms": 1e300}', "duration_ms"),
    ("wrong type for outcome", GOOD_TEXT.replace('"failure"', "[1]") + "}", "outcome"),
    ("object as task id", GOOD_TEXT.replace('"task-0"', '{"x": 1}') + "}", "task_id"),
    ("list as context", GOOD_TEXT + ', "result": [1, 2]}', "result"),
    ("bool as duration", GOOD_TEXT + ', "duration_ms": true}', "duration_ms"),
    ("negative duration", GOOD_TEXT + ', "duration_ms": -1}', "duration_ms"),
    ("NUL in the task id", GOOD_TEXT.replace('"task-0"', '"t\\u0000"') + "}", "task_id"),
    ("NUL in a context key", GOOD_TEXT + ', "result": {"k\\u0000": 1}}', "result"),
    ("lone surrogate", GOOD_TEXT + ', "result": {"k": "\\ud800"}}', "result"),
    (
        "context 20 levels deep",
        GOOD_TEXT + ', "result": ' + json.dumps(nested(20)) + "}",
        "result",
    ),
    (
        "context 200 levels deep",
        GOOD_TEXT + ', "result": ' + json.dumps(nested(200)) + "}",
        "result",
    ),
    ("month 13", GOOD_TEXT + ', "occurred_at": "2026-13-01T00:00:00Z"}', "occurred_at"),
    (
        "timestamp two days ahead",
        GOOD_TEXT + f', "occurred_at": "{far_future()}"}}',
        "occurred_at",
    ),
    ("year 9999", GOOD_TEXT + ', "occurred_at": "9999-12-31T23:59:59Z"}', "occurred_at"),
    (
        "before year 1 in UTC",
        GOOD_TEXT + ', "occurred_at": "0001-01-01T00:00:00+01:00"}',
        "occurred_at",
    ),
    (
        "bad event id",
        GOOD_TEXT.replace(json.loads(GOOD_TEXT + "}")["event_id"], "nope") + "}",
        "event_id",
    ),
    (
        "unknown lesson applied",
        GOOD_TEXT + f', "applied_lesson": "{uuid.uuid4()}"}}',
        "applied_lesson",
    ),
    (
        "retry_after as 1e400",
        GOOD_TEXT.replace('"timeout"', '"timeout", "retry_after": 1e400', 1) + "}",
        "context",
    ),
    (
        "bad retry_after",
        GOOD_TEXT.replace('"timeout"', '"timeout", "retry_after": "soon"', 1) + "}",
        "context.retry_after",
    ),
    (
        "files not a list",
        GOOD_TEXT.replace('"timeout"', '"timeout", "files": {"a": 1}', 1) + "}",
        "context.files",
    ),
    ("missing outcome", GOOD_TEXT.replace('"outcome": "failure", ', "") + "}", "outcome"),
    ("a list for an item", "[1, 2]", "non_field_errors"),
    ("a number for an item", "1e400", "non_field_errors"),
    ("null for an item", "null", "non_field_errors"),
]


def post(api, items: list[str]):
    body = '{"outcomes": [' + ", ".join(items) + "]}"
    response = api.generic("POST", BULK, body, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(
    "bad, field", [pytest.param(text, field, id=name) for name, text, field in BAD_ITEMS]
)
def test_a_bad_item_is_invalid_and_the_good_ones_are_stored(api, bad, field):
    items = [json.dumps(good(1)), bad, json.dumps(good(2))]
    body = post(api, items)

    assert [result["status"] for result in body["results"]] == ["created", "invalid", "created"]
    assert (body["created"], body["invalid"]) == (2, 1)
    assert field in body["results"][1]["fields"], body["results"][1]
    assert sorted(Outcome.objects.values_list("task_id", flat=True)) == ["task-1", "task-2"]


def test_999_good_items_and_one_1e400_store_the_999(api):
    items = [json.dumps(good(n)) for n in range(999)]
    items.insert(500, GOOD_TEXT + ', "result": {"score": 1e400}}')
    body = post(api, items)

    assert (body["created"], body["invalid"]) == (999, 1)
    bad = body["results"][500]
    assert bad["status"] == "invalid"
    assert bad["fields"] == {
        "result": ["score: The number 1e400 is not finite or is out of range."]
    }
    assert Outcome.objects.count() == 999


def test_an_event_sent_twice_in_one_batch_is_answered_in_its_own_result(api):
    first = good(1)
    changed = {**first, "task_id": "other"}
    body = post(
        api, [json.dumps(first), json.dumps(first), json.dumps(changed), json.dumps(good(2))]
    )

    assert [r["status"] for r in body["results"]] == ["created", "replayed", "conflict", "created"]
    assert Outcome.objects.count() == 2


def test_a_body_the_decoder_cannot_nest_is_refused_whole(api):
    response = api.generic(
        "POST",
        BULK,
        '{"outcomes": [' + "[" * 100_000 + "]" * 100_000 + "]}",
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"error", "fields"}
    assert not Outcome.objects.exists()
