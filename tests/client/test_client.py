"""The sync and async clients against a live server: every operation, and its errors."""

import asyncio
import json
import uuid
from importlib import metadata

import pytest

from failures.models import Failure
from hindsight_client import (
    AsyncHindsight,
    Conflict,
    Forbidden,
    Hindsight,
    InvalidRequest,
    NotFound,
    Unauthorized,
)
from lessons.models import Application, Lesson
from outcomes.models import Outcome
from tests.client.conftest import AsyncRecording, Recording

# What an agent may paste into a check: it must not travel in a URL, which access logs keep.
MESSAGE = "auth failed for token ghp_" + "a1B2c3D4e5" * 4


def test_record_outcome_is_stored_with_a_generated_event_id(hs):
    answer = hs.record_outcome(42, "fix_bug", "success", result={"approach": "null check"})

    assert answer["spooled"] is False and answer["outcome"] == "success"
    stored = Outcome.objects.get(pk=answer["id"])
    assert str(stored.event_id) == answer["event_id"]
    assert (stored.agent, stored.task_id) == ("agent-1", "42")


def test_a_resent_event_id_is_stored_once(hs):
    event_id = str(uuid.uuid4())
    first = hs.record_outcome("t1", "fix_bug", "success", event_id=event_id)
    again = hs.record_outcome("t1", "fix_bug", "success", event_id=event_id)

    assert again["id"] == first["id"]
    assert Outcome.objects.filter(event_id=event_id).count() == 1


# Each write, given a lesson to report on and optionally the event id to send.
WRITES = {
    "record_outcome": lambda hs, lesson, **given: hs.record_outcome("t7", "x", "success", **given),
    "record_failure": lambda hs, lesson, **given: hs.record_failure(
        "t7", "HTTP 502 Bad Gateway from api.example.com", error_type="upstream", **given
    ),
    "record_lesson": lambda hs, lesson, **given: hs.record_lesson(
        "upstream_502", "upstream", "Retry after a minute.", **given
    ),
    "report_application": lambda hs, lesson, **given: hs.report_application(
        lesson, True, task_id="t7", **given
    ),
}


@pytest.mark.parametrize("operation", sorted(WRITES))
def test_a_write_answers_the_event_id_it_was_sent_with(
    gunicorn_server, write_key, tmp_path, operation
):
    recording = Recording()
    with Hindsight(
        gunicorn_server, write_key, agent="agent-1", spool_dir=tmp_path, transport=recording
    ) as hs:
        lesson = hs.record_lesson("applied", "upstream", "Wait, then retry.")["id"]
        first = WRITES[operation](hs, lesson)
        again = WRITES[operation](hs, lesson, event_id=first["event_id"])

    sent = [json.loads(request.content)["event_id"] for request in recording.sent[1:]]
    assert first["spooled"] is False and sent == [first["event_id"]] * 2
    assert uuid.UUID(first["event_id"]).version == 7
    assert again["id"] == first["id"]  # resent by the answer's event id: nothing new stored


def test_the_async_failure_answers_the_event_id_it_was_sent_with(
    gunicorn_server, write_key, tmp_path
):
    recording = AsyncRecording()

    async def run():
        async with AsyncHindsight(
            gunicorn_server,
            write_key,
            agent="async-agent",
            spool_dir=tmp_path,
            transport=recording,
        ) as client:
            first = await client.record_failure(
                "t1", "HTTP 502 Bad Gateway", error_type="upstream"
            )
            again = await client.record_failure(
                "t1", "HTTP 502 Bad Gateway", error_type="upstream", event_id=first["event_id"]
            )
            return first, again

    first, again = asyncio.run(run())

    assert first["event_id"] == json.loads(recording.sent[0].content)["event_id"]
    assert again["id"] == first["id"] and again["event_id"] == first["event_id"]
    assert Failure.objects.filter(agent="async-agent").count() == 1


def test_failure_lesson_check_and_application_round_trip(hs):
    lesson = hs.record_lesson(
        "client_rate_limit",
        "rate_limit",
        "Wait 60s, then retry.",
        error_message="HTTP 429 Too Many Requests from api.example.com",
    )
    failure = hs.record_failure(
        "fetch_user_data",
        "HTTP 429 Too Many Requests from api.example.com",
        error_type="rate_limit",
        retry_safe=True,
        retry_after=60,
        checkpoint={"done": 47, "resume_from": 48},
    )
    known = hs.check_known_errors(
        error_type="rate_limit", error_message="HTTP 429 Too Many Requests from api.example.com"
    )
    applied = hs.report_application(
        lesson["id"], True, task_id="fetch_user_data", failure_id=failure["id"]
    )

    assert lesson["created"] is True and failure["status"] == "open"
    assert failure["retry_advice"]["after_seconds"] == 60
    assert known["available"] is True and known["lessons"][0]["id"] == lesson["id"]
    assert applied["worked"] is True
    assert Application.objects.filter(lesson_id=lesson["id"], failure_id=failure["id"]).exists()


def test_a_lesson_recorded_with_other_wordings_is_found_for_each(hs):
    wordings = [
        "Deadlock found when trying to get lock; try restarting transaction",
        "deadlock detected: Process 4121 waits for ShareLock on transaction 99120",
    ]
    # A pattern neither wording fits: the lesson is found through the links its wordings made.
    lesson = hs.record_lesson(
        "lock contention between writers",
        "deadlock",
        "Retry after a short random pause.",
        error_messages=wordings,
    )
    for message in wordings:
        found = hs.check_known_errors(error_message=message)["lessons"]
        assert [(each["id"], each["match"]) for each in found] == [(lesson["id"], "pattern")]


def test_boot_and_history_answer_for_the_agent(hs):
    hs.record_outcome(
        "t9",
        "fix_bug",
        "failure",
        context={"error_type": "timeout", "error_message": "read timed out"},
    )
    briefing = hs.boot()
    history = hs.history(task_type="fix_bug")

    assert briefing["available"] is True and briefing["agent"] == "agent-1"
    assert [f["task"] for f in briefing["recent_failures"]] == ["t9"]
    assert history["available"] is True and "read timed out" in history["historyContext"]


def test_bad_input_raises_invalid_request_naming_the_field(hs):
    with pytest.raises(InvalidRequest) as caught:
        hs.record_outcome("t1", "fix_bug", "maybe")

    assert caught.value.status == 400 and "outcome" in caught.value.fields


def test_error_statuses_raise_their_exceptions(gunicorn_server, make_key, write_key, tmp_path):
    read_only = Hindsight(
        gunicorn_server, make_key("read", name="r"), agent="a", spool_dir=tmp_path
    )
    nobody = Hindsight(gunicorn_server, "not-a-key", agent="a", spool_dir=tmp_path)
    writer = Hindsight(gunicorn_server, write_key, agent="a", spool_dir=tmp_path)
    event_id = str(uuid.uuid4())
    writer.record_outcome("t1", "x", "success", event_id=event_id)

    with pytest.raises(Unauthorized):
        nobody.check_known_errors(error_type="x")
    with pytest.raises(Forbidden):
        read_only.record_outcome("t1", "x", "success")
    with pytest.raises(NotFound):
        writer.report_application(str(uuid.uuid4()), True)
    with pytest.raises(Conflict):
        writer.record_outcome("t1", "x", "failure", event_id=event_id)


def test_configured_from_the_environment(gunicorn_server, write_key, tmp_path, monkeypatch):
    monkeypatch.setenv("HINDSIGHT_URL", gunicorn_server)
    monkeypatch.setenv("HINDSIGHT_API_KEY", write_key)
    monkeypatch.setenv("HINDSIGHT_AGENT", "env-agent")
    monkeypatch.setenv("HINDSIGHT_SPOOL_DIR", str(tmp_path / "env-spool"))

    answer = Hindsight().record_outcome("t1", "x", "success")

    assert Outcome.objects.get(pk=answer["id"]).agent == "env-agent"


def test_async_client_round_trip(gunicorn_server, write_key, tmp_path):
    async def run():
        async with AsyncHindsight(
            gunicorn_server, write_key, agent="async-agent", spool_dir=tmp_path
        ) as client:
            recorded = await client.record_lesson("async_lesson", "io", "Reopen the file.")
            known = await client.check_known_errors(
                error_type="io", error_message="async_lesson: file closed"
            )
            outcome = await client.record_outcome("t1", "x", "success")
            return recorded, known, outcome

    recorded, known, outcome = asyncio.run(run())

    assert [lesson["id"] for lesson in known["lessons"]] == [recorded["id"]]
    assert Lesson.objects.filter(error_pattern="async_lesson").exists()
    assert Outcome.objects.get(pk=outcome["id"]).agent == "async-agent"


def _check_sent_in_the_body(request) -> None:
    assert (request.method, request.url.path, request.url.query) == (
        "POST",
        "/api/v1/lessons/check",
        b"",
    )
    assert MESSAGE in request.content.decode()


def test_a_check_sends_its_message_in_the_body_not_the_url(gunicorn_server, write_key, tmp_path):
    recording = Recording()
    with Hindsight(gunicorn_server, write_key, spool_dir=tmp_path, transport=recording) as hs:
        known = hs.check_known_errors(error_message=MESSAGE, error_type="auth", limit=3)
    assert known["available"] is True and known["has_resolution"] is False
    [request] = recording.sent
    _check_sent_in_the_body(request)


def test_the_async_check_sends_its_message_in_the_body(gunicorn_server, write_key, tmp_path):
    recording = AsyncRecording()

    async def run():
        async with AsyncHindsight(
            gunicorn_server, write_key, spool_dir=tmp_path, transport=recording
        ) as client:
            return await client.check_known_errors(error_message=MESSAGE)

    assert asyncio.run(run())["available"] is True
    [request] = recording.sent
    _check_sent_in_the_body(request)


def test_requests_name_the_client_and_its_installed_version(gunicorn_server, write_key, tmp_path):
    recording = Recording()
    with Hindsight(gunicorn_server, write_key, spool_dir=tmp_path, transport=recording) as hs:
        hs.check_known_errors(error_type="x")

    [request] = recording.sent
    installed = metadata.version("hindsight-client")
    assert request.headers["user-agent"] == f"hindsight-client/{installed}"


def test_the_release_model_and_prompt_version_travel_with_every_write(
    gunicorn_server, write_key, tmp_path, monkeypatch
):
    monkeypatch.setenv("HINDSIGHT_MODEL", "env-model")
    monkeypatch.setenv("HINDSIGHT_PROMPT_VERSION", "env-prompts")
    hs = Hindsight(
        gunicorn_server, write_key, agent="rel-agent", release="1.4.2", spool_dir=tmp_path
    )
    outcome = hs.record_outcome("t1", "x", "success")
    failure = hs.record_failure("t2", "HTTP 502 Bad Gateway", model="call-model")
    stored_outcome = Outcome.objects.get(pk=outcome["id"])
    stored_failure = Failure.objects.get(pk=failure["id"])
    # The constructor's release, the environment's model and prompts, a call's own model.
    assert (stored_outcome.release, stored_outcome.model, stored_outcome.prompt_version) == (
        "1.4.2",
        "env-model",
        "env-prompts",
    )
    assert (stored_failure.release, stored_failure.model) == ("1.4.2", "call-model")
    assert stored_failure.outcomes.get().release == "1.4.2"  # its ledger entry too
    assert failure["new_in"] == []
    briefing = hs.boot()
    assert (briefing["release"], briefing["new_in_release"]) == ("1.4.2", [])
