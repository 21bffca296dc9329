"""The MCP server's tools, listed and called in process, answering from a live server; and the
server started as an agent starts it, over stdio."""

import asyncio
import re
import sys
import tomllib
import uuid
from importlib import metadata
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

import hindsight_client
from failures.models import Failure
from hindsight_client import AsyncHindsight
from hindsight_client.mcp_server import build_server
from lessons.models import Application
from outcomes.models import Outcome
from tests.client.conftest import AsyncRecording
from tests.conftest import ROOT


def _session(
    url: str,
    key: str,
    spool_dir,
    calls: list[tuple[str, dict]],
    transport=None,
    mode: str = "auto",
) -> list:
    """The tools listed, and the answers to ``calls``, over one client session."""

    async def run():
        server = build_server(
            AsyncHindsight(url, key, agent="mcp-agent", spool_dir=spool_dir, transport=transport)
        )
        async with Client(server, mode=mode) as client:
            listed = await client.list_tools()
            answers = [await client.call_tool(name, arguments) for name, arguments in calls]
            return listed.tools, answers

    return asyncio.run(run())


def test_the_tools_are_listed_and_answer(gunicorn_server, write_key, tmp_path):
    message = "psycopg.OperationalError: connection refused to 10.0.0.5:5432"
    tools, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            (
                "record_lesson",
                {
                    "error_pattern": "db_refused",
                    "error_type": "database",
                    "resolution": "Wait for the primary, then reconnect.",
                    "error_message": message,
                },
            ),
            (
                "record_failure",
                {
                    "task": "nightly-etl",
                    "error": message,
                    "error_type": "database",
                    "checkpoint": {"batch": 3},
                },
            ),
            ("check_known_errors", {"error_message": message, "error_type": "database"}),
            ("boot", {}),
        ],
    )
    lesson, failure, known, briefing = (answer.structured_content for answer in answers)

    assert sorted(tool.name for tool in tools) == [
        "boot",
        "check_known_errors",
        "record_failure",
        "record_lesson",
        "record_outcome",
    ]
    assert not any(answer.is_error for answer in answers)
    assert lesson["created"] is True
    assert Failure.objects.get(pk=failure["id"]).checkpoint == {"batch": 3}
    assert known["available"] is True and known["lessons"][0]["id"] == lesson["id"]
    assert [entry["task"] for entry in briefing["resume"]] == ["nightly-etl"]
    assert failure["event_id"] and failure["spooled"] is False


def test_every_tool_description_is_plain_sentences(gunicorn_server, write_key, tmp_path):
    # Over the JSON-RPC framing an stdio client uses: the descriptions as they travel.
    tools, _ = _session(gunicorn_server, write_key, tmp_path, [], mode="legacy")

    for tool in tools:
        assert tool.description, tool.name
        assert "`" not in tool.description, tool.name  # reStructuredText markup
        assert "  " not in tool.description, tool.name
        assert not re.search(r"\n\s", tool.description), tool.name  # a docstring's wrapping


def test_hindsight_mcp_names_its_version_and_every_tool_when_started(tmp_path):
    package = Path(hindsight_client.__file__).parent.parent  # the client the tests import
    started = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hindsight_client.mcp_server"],
        env={"PYTHONPATH": str(package), "HINDSIGHT_SPOOL_DIR": str(tmp_path)},
    )

    async def run():
        async with Client(started, mode="legacy") as client:  # the initialize handshake
            listed = await client.list_tools()
            return client.server_info, client.instructions, [tool.name for tool in listed.tools]

    info, instructions, names = asyncio.run(run())

    declared = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text())["project"]
    assert (info.name, info.version) == ("hindsight", declared["version"])
    assert info.version == metadata.version("hindsight-client") == hindsight_client.__version__
    assert all(name in instructions for name in names)


def test_a_lesson_recorded_with_other_wordings_is_found_by_each(
    gunicorn_server, write_key, tmp_path
):
    wordings = [
        "psycopg.OperationalError: could not connect to server db-7: Connection refused",
        "django.db.utils.OperationalError: server closed the connection unexpectedly",
    ]
    _, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            (
                "record_lesson",
                {
                    "error_pattern": "primary_away",
                    "error_type": "database",
                    "resolution": "Wait for the primary, then reconnect.",
                    "error_messages": wordings,
                },
            ),
            *(
                ("check_known_errors", {"error_message": wording.replace("db-7", "db-9")})
                for wording in wordings
            ),
        ],
    )
    lesson, *checks = (answer.structured_content for answer in answers)

    assert lesson["created"] is True
    assert [check["lessons"][0]["id"] for check in checks] == [lesson["id"]] * 2


def test_a_recorded_success_closes_the_tasks_open_failures(gunicorn_server, write_key, tmp_path):
    _, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            (
                "record_failure",
                {
                    "task": "sync-invoices",
                    "error": "HTTP 503 from billing.internal",
                    "error_type": "upstream",
                },
            ),
            (
                "record_outcome",
                {
                    "task_id": "sync-invoices",
                    "task_type": "sync",
                    "outcome": "success",
                    "duration_ms": 1200,
                    "result": {"approach": "waited for billing"},
                },
            ),
        ],
    )
    failure, outcome = (answer.structured_content for answer in answers)

    assert not any(answer.is_error for answer in answers)
    assert outcome["resolved_failures"] == 1 and outcome["spooled"] is False
    assert Failure.objects.get(pk=failure["id"]).status == Failure.Status.RESOLVED
    stored = Outcome.objects.get(pk=outcome["id"])
    assert str(stored.event_id) == outcome["event_id"]
    assert (stored.agent, stored.duration_ms, stored.result) == (
        "mcp-agent",
        1200,
        {"approach": "waited for billing"},
    )


def test_a_failed_outcome_is_recorded_once_with_its_failure_and_the_lesson_applied(
    gunicorn_server, write_key, tmp_path
):
    message = "psycopg.OperationalError: connection refused to 10.0.0.5:5432"
    event_id = str(uuid.uuid4())
    outcome = {
        "task_id": "nightly-etl",
        "task_type": "etl",
        "outcome": "failure",
        "context": {"error_type": "database", "error_message": message},
        "occurred_at": "2026-11-27T23:00:00+00:00",
        "event_id": event_id,
    }
    _, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            (
                "record_lesson",
                {
                    "error_pattern": "db_refused",
                    "error_type": "database",
                    "resolution": "Wait for the primary, then reconnect.",
                    "error_message": message,
                },
            ),
        ],
    )
    lesson = answers[0].structured_content
    _, answers = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [
            ("record_outcome", {**outcome, "applied_lesson": lesson["id"]}),
            ("record_outcome", {**outcome, "applied_lesson": lesson["id"]}),  # resent
        ],
    )
    first, again = (answer.structured_content for answer in answers)

    assert again["id"] == first["id"] and first["event_id"] == event_id
    assert first["failure"]["lessons"][0]["id"] == lesson["id"]
    assert Failure.objects.filter(task="nightly-etl").count() == 1
    assert Outcome.objects.get(pk=first["id"]).occurred_at.isoformat() == outcome["occurred_at"]
    assert Application.objects.get(lesson_id=lesson["id"]).worked is False


def test_a_refused_call_is_a_tool_error(gunicorn_server, tmp_path):
    _, [answer] = _session(
        gunicorn_server,
        "not-a-key",
        tmp_path,
        [("record_lesson", {"error_pattern": "p", "error_type": "t", "resolution": "r"})],
    )

    assert answer.is_error is True


def test_an_unknown_outcome_is_a_tool_error_and_nothing_is_sent(
    gunicorn_server, write_key, tmp_path
):
    recording = AsyncRecording()
    _, [answer] = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [("record_outcome", {"task_id": "t1", "task_type": "x", "outcome": "maybe"})],
        recording,
    )

    assert answer.is_error is True and recording.sent == []


def test_the_check_tool_posts_its_message_out_of_the_url(gunicorn_server, write_key, tmp_path):
    message = "connect failed with password=hunter2 to 10.0.0.5"
    recording = AsyncRecording()
    _, [answer] = _session(
        gunicorn_server,
        write_key,
        tmp_path,
        [("check_known_errors", {"error_message": message})],
        recording,
    )
    assert answer.structured_content["available"] is True
    [request] = recording.sent
    assert (request.method, request.url.query) == ("POST", b"")
    assert "hunter2" in request.content.decode()  # in the body, scrubbed by the server
