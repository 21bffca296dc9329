"""What the agent runs (release, model, prompt version) travels with the client's writes: from
its constructor, else the environment, a call's own values first; boot sends the release; the
async client, the guard and the MCP tools alike. Against a live server."""

import asyncio
import json

import pytest

from failures.models import Failure
from hindsight_client import AsyncHindsight, Guard, Hindsight
from outcomes.models import Outcome
from tests.client.conftest import AsyncRecording, Recording
from tests.client.test_mcp import _session

VERSIONS = ("release", "model", "prompt_version")
BUILT = {"release": "coder@1.4.2", "model": "claude-sonnet-4-5", "prompt_version": "p7"}
ENV = {"release": "env@2.0.0", "model": "env-model", "prompt_version": "env-prompts"}
CALL = {"release": "call@3.0.0", "model": "call-model", "prompt_version": "call-prompts"}


def versions_of(row) -> dict:
    return {name: getattr(row, name) for name in VERSIONS}


def sent_versions(request) -> dict:
    body = json.loads(request.content)
    return {name: body[name] for name in VERSIONS if name in body}


def env_set(monkeypatch, values: dict) -> None:
    for name, value in values.items():
        monkeypatch.setenv(f"HINDSIGHT_{name.upper()}", value)


@pytest.fixture(autouse=True)
def no_versions_in_the_environment(monkeypatch):
    for name in VERSIONS:
        monkeypatch.delenv(f"HINDSIGHT_{name.upper()}", raising=False)


def test_the_constructors_values_go_with_every_write_and_the_release_with_boot(
    gunicorn_server, write_key, tmp_path
):
    recording = Recording()
    with Hindsight(
        gunicorn_server,
        write_key,
        agent="v-agent",
        spool_dir=tmp_path,
        transport=recording,
        **BUILT,
    ) as hs:
        outcome = hs.record_outcome("t1", "deploy", "success")
        failed = hs.record_outcome(
            "t2", "deploy", "failure", context={"error_message": "KeyError: 'region'"}
        )
        failure = hs.record_failure("t3", "HTTP 502 Bad Gateway")
        briefing = hs.boot()
    outcome_sent, failed_sent, failure_sent, boot_sent = recording.sent
    for request in (outcome_sent, failed_sent, failure_sent):
        assert sent_versions(request) == BUILT
    assert boot_sent.url.path == "/api/v1/boot"
    assert boot_sent.url.params["release"] == BUILT["release"]
    assert briefing["release"] == BUILT["release"]
    assert versions_of(Outcome.objects.get(pk=outcome["id"])) == BUILT
    assert versions_of(Outcome.objects.get(pk=failed["id"])) == BUILT
    assert versions_of(Failure.objects.get(pk=failed["failure"]["id"])) == BUILT
    stored = Failure.objects.get(pk=failure["id"])
    assert versions_of(stored) == versions_of(stored.outcomes.get()) == BUILT


def test_the_environment_gives_them_when_the_constructor_does_not(
    gunicorn_server, write_key, tmp_path, monkeypatch
):
    env_set(monkeypatch, ENV)
    recording = Recording()
    with Hindsight(
        gunicorn_server, write_key, agent="v-agent", spool_dir=tmp_path, transport=recording
    ) as hs:
        outcome = hs.record_outcome("t1", "deploy", "success")
        failure = hs.record_failure("t2", "HTTP 502 Bad Gateway")
        hs.boot()
    assert [sent_versions(request) for request in recording.sent[:2]] == [ENV, ENV]
    assert recording.sent[2].url.params["release"] == ENV["release"]
    assert versions_of(Outcome.objects.get(pk=outcome["id"])) == ENV
    assert versions_of(Failure.objects.get(pk=failure["id"])) == ENV
    # The constructor's values come before the environment's.
    with Hindsight(gunicorn_server, write_key, agent="v-agent", spool_dir=tmp_path, **BUILT) as hs:
        again = hs.record_failure("t3", "HTTP 502 Bad Gateway")
    assert versions_of(Failure.objects.get(pk=again["id"])) == BUILT


def test_a_calls_own_values_come_first_each_on_its_own(
    gunicorn_server, write_key, tmp_path, monkeypatch
):
    env_set(monkeypatch, ENV)
    with Hindsight(
        gunicorn_server, write_key, agent="v-agent", spool_dir=tmp_path, release="coder@1.4.2"
    ) as hs:
        outcome = hs.record_outcome("t1", "deploy", "success", **CALL)
        failure = hs.record_failure("t2", "HTTP 502 Bad Gateway", model="call-model")
        briefing = hs.boot(release="call@3.0.0")
        later = hs.record_outcome("t3", "deploy", "success")
    assert versions_of(Outcome.objects.get(pk=outcome["id"])) == CALL
    # A call that names only its model keeps the client's release and prompt version.
    expected = {"release": "coder@1.4.2", "model": "call-model", "prompt_version": "env-prompts"}
    stored = Failure.objects.get(pk=failure["id"])
    assert versions_of(stored) == versions_of(stored.outcomes.get()) == expected
    assert briefing["release"] == "call@3.0.0"
    # A call's values are its own: the next write has the client's again.
    assert versions_of(Outcome.objects.get(pk=later["id"]))["model"] == "env-model"


def test_a_blank_value_is_not_sent_and_the_write_is_taken(
    gunicorn_server, write_key, tmp_path, monkeypatch
):
    """HINDSIGHT_RELEASE= (set to nothing, as deployment templates leave unset variables) is no
    release: the failures endpoint refuses a blank one, as it refuses any blank name."""
    env_set(monkeypatch, {"release": "", "model": "  "})
    recording = Recording()
    with Hindsight(
        gunicorn_server,
        write_key,
        agent="v-agent",
        spool_dir=tmp_path,
        transport=recording,
        prompt_version=" ",
    ) as hs:
        failure = hs.record_failure("t1", "HTTP 502 Bad Gateway", release="")
        outcome = hs.record_outcome("t2", "deploy", "success", model=" ")
        hs.boot()
    assert [sent_versions(request) for request in recording.sent[:2]] == [{}, {}]
    assert "release" not in recording.sent[2].url.params
    assert versions_of(Failure.objects.get(pk=failure["id"])) == dict.fromkeys(VERSIONS, "")
    assert versions_of(Outcome.objects.get(pk=outcome["id"])) == dict.fromkeys(VERSIONS, "")


def test_the_async_client_sends_them_alike(gunicorn_server, write_key, tmp_path, monkeypatch):
    env_set(monkeypatch, {"prompt_version": "env-prompts"})
    recording = AsyncRecording()

    async def run():
        async with AsyncHindsight(
            gunicorn_server,
            write_key,
            agent="v-async",
            spool_dir=tmp_path,
            transport=recording,
            release="coder@1.4.2",
            model="claude-sonnet-4-5",
        ) as client:
            outcome = await client.record_outcome("t1", "deploy", "success")
            failure = await client.record_failure("t2", "HTTP 502", release="call@3.0.0")
            briefing = await client.boot()
            return outcome, failure, briefing

    outcome, failure, briefing = asyncio.run(run())
    assert versions_of(Outcome.objects.get(pk=outcome["id"])) == {
        "release": "coder@1.4.2",
        "model": "claude-sonnet-4-5",
        "prompt_version": "env-prompts",
    }
    assert versions_of(Failure.objects.get(pk=failure["id"])) == {
        "release": "call@3.0.0",
        "model": "claude-sonnet-4-5",
        "prompt_version": "env-prompts",
    }
    assert recording.sent[2].url.params["release"] == "coder@1.4.2"
    assert briefing["release"] == "coder@1.4.2"


def test_the_guard_records_with_the_clients_values(gunicorn_server, write_key, tmp_path):
    with Hindsight(gunicorn_server, write_key, agent="v-guard", spool_dir=tmp_path, **BUILT) as hs:

        @Guard(hs, task_type="sync", task="sync-users")
        def sync_users():
            raise ConnectionError("connection reset by peer")

        with pytest.raises(ConnectionError):
            sync_users()
    failure = Failure.objects.get(agent="v-guard")
    assert versions_of(failure) == versions_of(failure.outcomes.get()) == BUILT


def test_the_mcp_tools_pass_them_and_default_to_the_servers_environment(
    gunicorn_server, write_key, tmp_path, monkeypatch
):
    env_set(monkeypatch, ENV)
    message = "psycopg.OperationalError: connection refused to 10.0.0.5:5432"
    _, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            ("record_failure", {"task": "etl-1", "error": message, **CALL}),
            ("record_failure", {"task": "etl-2", "error": message}),
            (
                "record_outcome",
                {"task_id": "etl-3", "task_type": "etl", "outcome": "success", **CALL},
            ),
            ("record_outcome", {"task_id": "etl-4", "task_type": "etl", "outcome": "success"}),
            ("boot", {"release": "call@3.0.0"}),
        ],
    )
    assert not any(answer.is_error for answer in answers)
    assert versions_of(Failure.objects.get(task="etl-1")) == CALL
    assert versions_of(Failure.objects.get(task="etl-2")) == ENV
    assert versions_of(Outcome.objects.get(task_id="etl-3")) == CALL
    assert versions_of(Outcome.objects.get(task_id="etl-4")) == ENV
    assert answers[-1].structured_content["release"] == "call@3.0.0"
