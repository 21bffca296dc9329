"""POST /outcomes, POST /outcomes/bulk, insights and stats, as agents call them."""

import json
import uuid

import pytest

from config.api.idempotency import REPLAY_HEADER
from failures.models import Failure, FailurePattern
from lessons.models import Lesson
from outcomes.models import Outcome
from tests.lessons.factories import LessonFactory

URL = "/api/v1/outcomes"
BULK = "/api/v1/outcomes/bulk"


def outcome(**fields):
    return {
        "task_id": "42",
        "agent_name": "developer",
        "task_type": "fix_bug",
        "outcome": "success",
        **fields,
    }


def failed(message="Twilio API timeout after 30 seconds", **fields):
    return outcome(
        outcome="failure",
        context={"error_type": "api_timeout", "error_message": message},
        **fields,
    )


def test_record_a_success(api):
    response = api.post(
        URL, outcome(result={"approach": "null check"}, duration_ms=2500), format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "id",
        "event_id",
        "task_id",
        "agent",
        "task_type",
        "release",
        "model",
        "prompt_version",
        "outcome",
        "occurred_at",
        "resolved_failures",
        "failure",
    }
    assert (body["agent"], body["outcome"], body["failure"]) == ("developer", "success", None)
    assert (body["release"], body["model"], body["prompt_version"]) == ("", "", "")
    assert Outcome.objects.get().result == {"approach": "null check"}


def test_a_failed_outcome_answers_like_a_failure_in_one_round_trip(api):
    lesson = LessonFactory(
        error_pattern="twilio-timeout",
        error_type="api_timeout",
        resolution="raise the timeout",
        status=Lesson.Status.APPROVED,
    )
    response = api.post(URL, failed(), format="json")
    assert response.status_code == 201
    answer = response.json()["failure"]
    assert answer["pattern"]["template"] == "Twilio API timeout after <*> seconds"
    assert set(answer["retry_advice"]) == {"retryable", "after_seconds", "reason"}
    assert [item["id"] for item in answer["lessons"]] == [str(lesson.pk)]
    assert Failure.objects.get().pk == answer["id"]


def test_a_success_closes_the_tasks_open_failures(api):
    api.post(URL, failed(), format="json")
    body = api.post(URL, outcome(), format="json").json()
    assert body["resolved_failures"] == 1
    assert Failure.objects.get().status == "resolved"


def test_a_failure_posted_directly_appends_its_failed_outcome_once(api):
    payload = {
        "agent": "developer",
        "task": "42",
        "task_type": "fix_bug",
        "error": "boom 7",
        "error_type": "crash",
        "event_id": str(uuid.uuid4()),
    }
    first = api.post("/api/v1/failures", payload, format="json")
    again = api.post("/api/v1/failures", payload, format="json")
    assert first.status_code == again.status_code == 201
    appended = Outcome.objects.get()
    assert (appended.agent, appended.task_id, appended.task_type, appended.outcome) == (
        "developer",
        "42",
        "fix_bug",
        "failure",
    )
    assert appended.failure_id == first.json()["id"]
    assert appended.pattern_id == first.json()["pattern"]["id"]
    assert appended.context["error_message"] == "boom 7" and appended.error_type == "crash"


def test_event_id_replay_and_conflict(api):
    event = str(uuid.uuid4())
    first = api.post(URL, failed(event_id=event), format="json")
    again = api.post(URL, failed(event_id=event), format="json")
    assert first.status_code == again.status_code == 201
    assert again[REPLAY_HEADER] == "true" and REPLAY_HEADER not in first
    assert again.json()["id"] == first.json()["id"]
    assert Outcome.objects.count() == Failure.objects.count() == 1
    clash = api.post(URL, failed(event_id=event, task_id="43"), format="json")
    assert clash.status_code == 409 and event in clash.json()["error"]


@pytest.mark.parametrize(
    "body, field",
    [
        (outcome(outcome="maybe"), "outcome"),
        (outcome(task_id=None), "task_id"),
        (outcome(context="oops"), "context"),
        (outcome(context={"retry_after": "soon"}), "context.retry_after"),
        (outcome(occurred_at="last tuesday"), "occurred_at"),
        (outcome(surprise=1), "surprise"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(api, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["fields"] and field in response.json()["error"]
    assert not Outcome.objects.exists()


def test_writing_needs_a_write_key(anon_api, read_api):
    assert anon_api.post(URL, outcome(), format="json").status_code == 401
    assert read_api.post(URL, outcome(), format="json").status_code == 403
    assert read_api.post(BULK, {"outcomes": [outcome()]}, format="json").status_code == 403


def test_bulk_answers_per_item(api):
    event = str(uuid.uuid4())
    api.post(URL, outcome(event_id=event), format="json")
    items = [
        failed(task_id="1"),
        outcome(task_id="1"),
        outcome(outcome="nope"),
        outcome(event_id=event),
        outcome(event_id=event, task_id="other"),
    ]
    response = api.post(BULK, {"outcomes": items}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["created"], body["replayed"], body["invalid"], body["conflict"]) == (2, 1, 1, 1)
    statuses = [result["status"] for result in body["results"]]
    assert statuses == ["created", "created", "invalid", "replayed", "conflict"]
    assert [result["index"] for result in body["results"]] == [0, 1, 2, 3, 4]
    assert body["results"][0]["failure_id"] == Failure.objects.get().pk
    assert body["results"][1]["resolved_failures"] == 1
    assert body["results"][2]["fields"] == {"outcome": ["Must be one of: success, failure."]}
    assert Outcome.objects.count() == 3


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"outcomes": []},
        {"outcomes": "x"},
        {"outcomes": [outcome()], "extra": 1},
        [outcome()],
    ],
)
def test_bulk_needs_a_list_of_outcomes(api, body):
    response = api.post(BULK, body, format="json")
    assert response.status_code == 400 and response.json()["fields"]


def test_bulk_takes_at_most_1000_and_more_is_a_413_naming_the_limit(api, settings):
    response = api.post(
        BULK, {"outcomes": [outcome(task_id=str(i)) for i in range(1001)]}, format="json"
    )
    assert response.status_code == 413
    assert response.json() == {
        "error": "1001 outcomes in one request; at most 1000 are taken "
        "(HINDSIGHT_BULK_MAX_ITEMS): send them in several.",
        "fields": {},
    }
    assert not Outcome.objects.exists()
    ok = api.post(
        BULK, {"outcomes": [outcome(task_id=str(i)) for i in range(1000)]}, format="json"
    )
    assert ok.json()["created"] == 1000 and Outcome.objects.count() == 1000
    assert api.post(BULK, {"outcomes": []}, format="json").status_code == 400
    settings.HINDSIGHT_BULK_MAX_ITEMS = 2
    response = api.post(
        BULK, {"outcomes": [outcome(task_id=str(i)) for i in range(3)]}, format="json"
    )
    assert response.status_code == 413 and "at most 2" in response.json()["error"]


def test_bulk_accepts_bodies_above_the_single_limit_up_to_its_own(api, settings):
    big = [outcome(task_id=str(i), result={"log": "x" * 1500}) for i in range(800)]
    body = json.dumps({"outcomes": big})
    assert settings.HINDSIGHT_MAX_BODY_BYTES < len(body) < settings.HINDSIGHT_MAX_BULK_BODY_BYTES
    assert api.post(BULK, body, content_type="application/json").status_code == 200
    assert (
        api.post(
            URL,
            json.dumps(outcome(result={"log": "x" * 1_100_000})),
            content_type="application/json",
        ).status_code
        == 413
    )
    settings.HINDSIGHT_MAX_BULK_BODY_BYTES = 1000
    assert api.post(BULK, body, content_type="application/json").status_code == 413


def test_insights_in_the_seeds_shape(api):
    lesson = LessonFactory(
        error_pattern="twilio", resolution="raise the timeout", status=Lesson.Status.APPROVED
    )
    for n in range(3):
        api.post(
            URL,
            outcome(
                task_id=str(n),
                context={"error_type": "null_pointer", "file_path": "src/capture.js"},
                result={"approach": "Added null check"},
                duration_ms=2000,
            ),
            format="json",
        )
    for n in range(3):
        api.post(
            URL,
            failed(
                message=f"Twilio API timeout after {n + 10} seconds",
                task_id=f"t{n}",
                duration_ms=5000,
            ),
            format="json",
        )
    lesson.patterns.add(FailurePattern.objects.get())
    api.post(URL, outcome(task_type="other"), format="json")
    body = api.get(f"{URL}/insights", {"task_type": "fix_bug"}).json()
    assert body["task_type"] == "fix_bug"
    assert (body["total_outcomes"], body["success_count"], body["failure_count"]) == (6, 3, 3)
    assert body["success_rate"] == 50.0 and body["avg_duration_ms"] == 3500
    assert body["context_patterns"] == {
        "null_pointer": {"total": 3, "successes": 3, "success_rate": 100},
        "api_timeout": {"total": 3, "successes": 0, "success_rate": 0},
    }
    assert body["success_patterns"] == ["Successfully handled: capture.js", "Added null check"]
    assert body["failure_patterns"] == ["Twilio API timeout after <*> seconds"]
    assert body["recommendations"] == [
        "Continue using successful approaches: Added null check",
        "Avoid common failure pattern: Twilio API timeout after <*> seconds",
        "Known fix for Twilio API timeout after <*> seconds (approved lesson): raise the timeout",
        "Low success rate for api_timeout errors (0%): check known fixes before retrying",
    ]
    assert (
        api.get(f"{URL}/insights", {"task_type": "fix_bug", "limit": 2}).json()["total_outcomes"]
        == 2
    )
    empty = api.get(f"{URL}/insights", {"task_type": "none"}).json()
    assert empty["total_outcomes"] == 0 and empty["success_rate"] == 0


def test_stats_by_agent_and_task_type(api):
    for agent, result in [("a", "success"), ("a", "failure"), ("b", "success")]:
        api.post(URL, outcome(agent_name=agent, outcome=result), format="json")
    api.post(URL, outcome(agent_name="c", occurred_at="2020-01-01T00:00:00Z"), format="json")
    body = api.get(f"{URL}/stats").json()
    assert body["rows"] == [
        {"agent": "b", "task_type": "fix_bug", "total": 1, "successes": 1, "success_rate": 100.0},
        {"agent": "a", "task_type": "fix_bug", "total": 2, "successes": 1, "success_rate": 50.0},
    ]
    since = api.get(f"{URL}/stats", {"since": "2019-01-01T00:00:00Z"}).json()
    assert len(since["rows"]) == 3
    assert api.get(f"{URL}/stats", {"since": "soon"}).status_code == 400


def test_agent_and_agent_name_naming_two_agents_is_a_400_naming_both(api):
    response = api.post(URL, outcome(agent="builder"), format="json")
    assert response.status_code == 400
    body = response.json()
    assert sorted(body["fields"]) == ["agent", "agent_name"]
    assert body["error"].startswith("Invalid input in agent, agent_name")
    assert not Outcome.objects.exists()
    assert api.post(URL, outcome(agent="developer"), format="json").status_code == 201


def test_a_bulk_item_naming_two_agents_is_invalid_on_its_own(api):
    items = [outcome(task_id="1", agent="builder"), outcome(task_id="2", agent="developer")]
    results = api.post(BULK, {"outcomes": items}, format="json").json()["results"]
    assert [r["status"] for r in results] == ["invalid", "created"]
    assert sorted(results[0]["fields"]) == ["agent", "agent_name"]
    assert list(Outcome.objects.values_list("task_id", "agent")) == [("2", "developer")]


def test_one_bad_item_does_not_sink_the_bulk(api):
    items = [
        outcome(task_id="ok"),
        outcome(task_id="a\x00b"),
        outcome(context={"k": "\ud800"}),
        {**outcome(), "bad\x00key": 1, "\ud800": 2},
        outcome(task_id="ok2"),
    ]
    body = api.post(BULK, json.dumps({"outcomes": items}), content_type="application/json").json()
    assert [r["status"] for r in body["results"]] == [
        "created",
        "invalid",
        "invalid",
        "invalid",
        "created",
    ]
    assert "task_id" in body["results"][1]["fields"]
    assert "context" in body["results"][2]["fields"]
    assert sorted(body["results"][3]["fields"]) == ["\\ud800", "bad\\x00key"]


def test_an_item_too_deep_is_invalid_on_its_own(api):
    deep: dict = {}
    for _ in range(25):
        deep = {"a": deep}
    response = api.post(BULK, {"outcomes": [outcome(context=deep), outcome()]}, format="json")
    assert [r["status"] for r in response.json()["results"]] == ["invalid", "created"]
    assert Outcome.objects.count() == 1


def test_insights_see_the_same_files_as_the_history(api):
    api.post(
        URL, outcome(context={"files": ["src/a/report.py", "./src/a/report.py"]}), format="json"
    )
    body = api.get(f"{URL}/insights", {"task_type": "fix_bug"}).json()
    assert body["success_patterns"] == ["Successfully handled: report.py"]
