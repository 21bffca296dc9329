"""The failure endpoints as agents call them."""

import uuid

import pytest

from failures.models import Failure
from lessons.models import Lesson
from lessons.services import lesson_record, lessons_seed
from tests.lessons.factories import LessonFactory

URL = "/api/v1/failures"
SEED_JSON = {
    "timestamp": "2026-02-01T11:00:00Z",
    "task": "fetch_user_data",
    "error_type": "rate_limit",
    "retry_safe": True,
    "retry_after": 60,
    "side_effects": [],
    "recovery_hint": "implement_backoff",
    "attempt_count": 3,
}


def failure(**overrides):
    return {**SEED_JSON, "agent": "agent-1", "error": "429 Too Many Requests", **overrides}


def test_record_takes_the_seed_json_and_answers_in_one_round_trip(api):
    lessons_seed()
    response = api.post(
        URL, failure(error="api rate limit hit: HTTP 429 Too Many Requests"), format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "id",
        "status",
        "pattern",
        "retry_advice",
        "lessons",
        "related",
        "has_resolution",
        "has_approved_resolution",
        "root_cause",
        "new_in",
    }
    assert body["status"] == "open" and body["root_cause"] is None and body["new_in"] == []
    assert set(body["pattern"]) == {"id", "fingerprint", "template"}
    assert body["retry_advice"] == {
        "retryable": True,
        "after_seconds": 60,
        "reason": "this agent reported this failure as safe to "
        "retry; across the fleet, 1 failure of this kind "
        "so far, none recovered yet; this task failed "
        "once with this error since its last success",
    }
    assert body["lessons"][0]["error_pattern"] == "api_429_rate_limit"
    assert body["lessons"][0]["status"] == "approved" and body["has_resolution"] is True
    assert body["has_approved_resolution"] is True
    stored = Failure.objects.get()
    assert stored.occurred_at.isoformat() == "2026-02-01T11:00:00+00:00"
    assert (stored.attempt_count, stored.retry_after, stored.recovery_hint) == (
        3,
        60,
        "implement_backoff",
    )


def test_lessons_linked_to_the_pattern_match_and_those_of_the_type_are_related(api):
    LessonFactory(
        error_pattern="generic", error_type="rate_limit", status="approved", effectiveness=1.0
    )
    lesson_record(
        error_pattern="openai_quota",
        error_type="quota",
        resolution="switch key",
        error_message="429 Too Many Requests",
    )
    Lesson.objects.filter(error_pattern="openai_quota").update(status="approved")
    body = api.post(URL, failure(), format="json").json()
    assert [(l["error_pattern"], l["match"]) for l in body["lessons"]] == [
        ("openai_quota", "pattern")
    ]
    # The approved lesson of the same type only is related: no resolution of its own.
    assert [(l["error_pattern"], l["match"]) for l in body["related"]] == [("generic", "type")]


def test_check_finds_a_lesson_through_another_message_of_its_pattern(api):
    api.post(
        URL,
        failure(error="Timeout after 30s calling https://api.twilio.com/2010/Calls"),
        format="json",
    )
    lesson_record(
        error_pattern="twilio_slow",
        error_type="timeout",
        resolution="raise timeout",
        error_message="Timeout after 30s calling https://api.twilio.com/2010/Calls",
    )
    found = api.get(
        "/api/v1/lessons/check",
        {"error_message": "Timeout after 45s calling https://api.twilio.com/2010/Messages"},
    ).json()
    assert [l["error_pattern"] for l in found["lessons"]] == ["twilio_slow"]
    assert found["lessons"][0]["match"] == "pattern"


def test_never_recovered_pattern_is_advised_non_retryable(api):
    for _ in range(2):
        api.post(URL, failure(retry_safe=None), format="json")
    advice = api.post(URL, failure(retry_safe=None), format="json").json()["retry_advice"]
    assert advice["retryable"] is False
    assert advice["reason"] == (
        "across the fleet, 3 failures of this kind and no retry has ever "
        "succeeded; this task failed 3 times with this error since its "
        "last success"
    )


def test_a_pattern_that_recovered_is_retryable(api):
    api.post(URL, failure(retry_safe=None), format="json")
    api.post(f"{URL}/resolve", {"agent": "agent-1", "task": "fetch_user_data"}, format="json")
    advice = api.post(URL, failure(retry_safe=None), format="json").json()["retry_advice"]
    assert advice["retryable"] is True and advice["after_seconds"] == 60


def test_list_filters_and_cursor_pages(api):
    for i in range(5):
        api.post(URL, failure(task=f"t{i}", timestamp=f"2026-02-01T11:0{i}:00Z"), format="json")
    api.post(URL, failure(agent="agent-2", error_type="timeout", error="Timed out"), format="json")
    first = api.get(URL, {"agent": "agent-1", "limit": 2}).json()
    assert [f["task"] for f in first["failures"]] == ["t4", "t3"]
    second = api.get(URL, {"agent": "agent-1", "limit": 2, "cursor": first["next_cursor"]}).json()
    assert [f["task"] for f in second["failures"]] == ["t2", "t1"]
    third = api.get(URL, {"agent": "agent-1", "limit": 2, "cursor": second["next_cursor"]}).json()
    assert [f["task"] for f in third["failures"]] == ["t0"] and third["next_cursor"] is None
    assert len(api.get(URL, {"error_type": "timeout"}).json()["failures"]) == 1
    assert (
        len(api.get(URL, {"since": "2026-02-01T11:03:00Z", "agent": "agent-1"}).json()["failures"])
        == 2
    )
    pattern = first["failures"][0]["pattern"]["id"]
    assert len(api.get(URL, {"pattern": pattern}).json()["failures"]) == 5


def test_markdown_format_renders_the_seed_section(api):
    api.post(
        URL,
        failure(
            title="API rate limit",
            task_description="Fetch user data from /api/users",
            side_effects=["None (failed before request)"],
            recovery_hint="Implement exponential backoff",
        ),
        format="json",
    )
    response = api.get(URL, {"format": "markdown"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert (
        response.content.decode()
        == """## Failures

### 2026-02-01T11:00:00Z — API rate limit
- **Task:** Fetch user data from /api/users
- **Error:** 429 Too Many Requests
- **Retry safe:** Yes, after 60s
- **Side effects:** None (failed before request)
- **Recovery hint:** Implement exponential backoff
- **Attempt count:** 3
"""
    )


def test_resolve_and_status_filter(api):
    api.post(URL, failure(), format="json")
    api.post(URL, failure(task="other"), format="json")
    response = api.post(
        f"{URL}/resolve", {"agent": "agent-1", "task": "fetch_user_data"}, format="json"
    )
    assert response.json() == {"resolved": 1, "status": "resolved"}
    assert [f["task"] for f in api.get(URL, {"status": "open"}).json()["failures"]] == ["other"]
    abandoned = api.post(
        f"{URL}/resolve",
        {"agent": "agent-1", "task": "other", "status": "abandoned"},
        format="json",
    ).json()
    assert abandoned == {"resolved": 1, "status": "abandoned"}


def test_replay_and_conflict(api):
    event = str(uuid.uuid4())
    first = api.post(URL, failure(event_id=event), format="json")
    again = api.post(URL, failure(event_id=event), format="json")
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Failure.objects.count() == 1
    assert (
        api.post(URL, failure(event_id=event, attempt_count=4), format="json").status_code == 409
    )


def test_read_key_cannot_record(read_api):
    assert read_api.post(URL, failure(), format="json").status_code == 403
    assert read_api.get(URL).status_code == 200


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"retry_safe": "yes"}, "retry_safe"),
        ({"retry_safe": 1}, "retry_safe"),
        ({"retry_after": -1}, "retry_after"),
        ({"retry_after": "soon"}, "retry_after"),
        ({"attempt_count": 0}, "attempt_count"),
        ({"side_effects": "wrote 3 rows"}, "side_effects"),
        ({"side_effects": [{"rows": 3}]}, "side_effects"),
        ({"checkpoint": [1, 2]}, "checkpoint"),
        ({"timestamp": "yesterday"}, "timestamp"),
        ({"timestamp": "2026-02-30T11:00:00Z"}, "timestamp"),
        ({"error": "boom\x00"}, "error"),
        ({"agent": ""}, "agent"),
        ({"task": "t" * 201}, "task"),
        ({"status": "resolved"}, "status"),
    ],
)
def test_bad_failures_are_400_naming_the_field(api, overrides, field):
    response = api.post(URL, failure(**overrides), format="json")
    assert response.status_code == 400, response.content
    assert any(name.split(".")[0] == field for name in response.json()["fields"])
    assert not Failure.objects.exists()


@pytest.mark.parametrize(
    "params, field",
    [
        ({"cursor": "!!!"}, "cursor"),
        ({"limit": "0"}, "limit"),
        ({"status": "gone"}, "status"),
        ({"pattern": "x"}, "pattern"),
        ({"since": "later"}, "since"),
        ({"agent": "a\x00"}, "agent"),
    ],
)
def test_bad_list_parameters_are_400(api, params, field):
    response = api.get(URL, params)
    assert response.status_code == 400, response.content
    assert field in response.json()["fields"]


@pytest.mark.parametrize(
    "name",
    [
        "title",
        "task_description",
        "task_type",
        "skill_name",
        "release",
        "model",
        "prompt_version",
        "recovery_hint",
    ],
)
def test_an_optional_text_sent_blank_reads_as_not_sent(api, name):
    """As for an outcome: ``"release": ""`` is no release, not a 400."""
    response = api.post(
        "/api/v1/failures",
        {"agent": "blank-agent", "task": "t-1", "error": "Stripe timeout after 9 s", name: ""},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Failure.objects.values_list(name, flat=True).get() == ""


def test_the_schema_lets_an_optional_text_be_blank_and_a_required_one_not(anon_api):
    schema = anon_api.get("/api/v1/schema", {"format": "json"}).json()["components"]["schemas"]
    failure = schema["FailureInputRequest"]["properties"]
    outcome = schema["OutcomeInputRequest"]["properties"]
    for fields, optional, required in (
        (failure, ("release", "task_type", "title"), ("agent", "task", "error")),
        (outcome, ("release", "model", "prompt_version"), ("task_id", "task_type")),
    ):
        assert [name for name in optional if "minLength" in fields[name]] == []
        assert [fields[name].get("minLength") for name in required] == [1] * len(required)
