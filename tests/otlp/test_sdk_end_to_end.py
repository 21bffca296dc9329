"""An agent instrumented with the OpenTelemetry SDK, configured by environment variables alone,
exports the spans of a small run to a live gunicorn; the failures, their patterns, a lesson check
and the agent's boot briefing then reflect that run.

The run: ticket-7 calls a flaky SMS tool three times (each call a span that records the
exception and ends in ERROR), then a database write that fails half way (checkpoint and side
effects as attributes), and the run itself gives up (root span in ERROR): its status is the
consequence of those faults, so the run is a failed outcome but no failure of its own.
"""

import json

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Status, StatusCode

AGENT = "sms-agent"
TIMEOUT = "Twilio API timeout after {} seconds"
CHECKPOINT = {"done": 47, "total": 100, "resume_from": 48}


class TwilioTimeout(Exception):
    pass


@pytest.fixture
def instrumented(gunicorn_server, make_key, monkeypatch):
    """The three variables an instrumented agent sets, then a tracer provider built from them
    (and gzip, as production exporters are often configured)."""
    key = make_key("write", name="otel-agent")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", gunicorn_server)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", f"Authorization=Bearer%20{key}")
    monkeypatch.setenv("OTEL_SERVICE_NAME", AGENT)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
    provider = TracerProvider(resource=Resource.create())
    exporter = OTLPSpanExporter()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    api = httpx.Client(
        base_url=f"{gunicorn_server}/api/v1",
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    yield provider, api
    provider.shutdown()
    api.close()


def agent_run(tracer) -> None:
    with tracer.start_as_current_span(
        "handle ticket",
        attributes={"hindsight.task": "ticket-7", "hindsight.task_type": "support"},
    ) as run:
        for seconds in (30, 31, 32):
            try:
                with tracer.start_as_current_span(
                    "execute_tool send_sms",
                    attributes={
                        "gen_ai.operation.name": "execute_tool",
                        "hindsight.task": "send-sms",
                        "hindsight.task_type": "notify",
                        "error.type": "TwilioTimeout",
                        "hindsight.retry_safe": True,
                        "hindsight.retry_after": 30,
                    },
                ):
                    raise TwilioTimeout(TIMEOUT.format(seconds))
            except TwilioTimeout:
                pass
        try:
            with tracer.start_as_current_span(
                "write records",
                attributes={
                    "hindsight.task": "update-records",
                    "hindsight.task_type": "db",
                    "hindsight.checkpoint": json.dumps(CHECKPOINT),
                    "hindsight.side_effects": ["47 records written", "53 pending"],
                    "hindsight.recovery_hint": "Resume from record #48",
                },
            ):
                raise ConnectionError("Connection timeout writing record 48")
        except ConnectionError:
            pass
        with tracer.start_as_current_span("plan reply"):
            pass  # a span that went well and is no outcome: not used
        run.set_status(Status(StatusCode.ERROR, "gave up after the SMS tool failed"))


def test_an_instrumented_run_is_remembered(instrumented):
    provider, api = instrumented
    lesson = api.post(
        "/lessons",
        json={
            "error_pattern": "twilio_timeout",
            "error_type": "TwilioTimeout",
            "resolution": "Wait 30 s, then retry once through the fallback sender.",
            "error_message": TIMEOUT.format(12),
        },
    )
    assert lesson.status_code == 201, lesson.text

    agent_run(provider.get_tracer("support-agent"))
    assert provider.force_flush(timeout_millis=30_000)

    failures = api.get("/failures", params={"agent": AGENT, "limit": 50}).json()["failures"]
    by_task = {}
    for failure in failures:
        by_task.setdefault(failure["task"], []).append(failure)
    assert {task: len(items) for task, items in by_task.items()} == {
        "send-sms": 3,
        "update-records": 1,
    }
    sms = by_task["send-sms"]
    assert {f["error"] for f in sms} == {TIMEOUT.format(s) for s in (30, 31, 32)}
    assert {(f["error_type"], f["retry_safe"], f["retry_after"], f["task_type"]) for f in sms} == {
        ("TwilioTimeout", True, 30, "notify")
    }
    assert len({f["pattern"]["id"] for f in sms}) == 1  # three timeouts, one pattern
    assert sms[0]["pattern"]["template"] == TIMEOUT.format("<*>")
    [write] = by_task["update-records"]
    assert write["error_type"] == "ConnectionError"  # exception.type, set by the SDK
    assert write["checkpoint"] == CHECKPOINT

    check = api.post(
        "/lessons/check", json={"error_type": "TwilioTimeout", "error_message": sms[0]["error"]}
    ).json()
    assert check["has_resolution"] is True
    assert check["lessons"][0]["id"] == lesson.json()["id"]

    briefing = api.get("/boot", params={"agent": AGENT}).json()
    [skip] = briefing["skip"]
    assert (skip["task"], skip["failures"]) == ("send-sms", 3)
    [resume] = briefing["resume"]
    assert resume["task"] == "update-records"
    assert resume["checkpoint"] == CHECKPOINT
    assert resume["side_effects"] == ["47 records written", "53 pending"]
    assert {f["task"] for f in briefing["recent_failures"]} == {"send-sms", "update-records"}

    # The next run's SMS call is an outcome that succeeds: the task's failures are resolved.
    tracer = provider.get_tracer("support-agent")
    with tracer.start_as_current_span("handle ticket", attributes={"hindsight.task": "ticket-8"}):
        with tracer.start_as_current_span(
            "execute_tool send_sms",
            attributes={
                "hindsight.task": "send-sms",
                "hindsight.task_type": "notify",
                "hindsight.outcome": True,
            },
        ):
            pass
    assert provider.force_flush(timeout_millis=30_000)
    briefing = api.get("/boot", params={"agent": AGENT}).json()
    assert briefing["skip"] == []
    outcomes = api.get("/outcomes/stats").json()["rows"]
    assert {
        (row["task_type"], row["total"], row["successes"])
        for row in outcomes
        if row["agent"] == AGENT
    } >= {("notify", 4, 1), ("support", 1, 0)}
