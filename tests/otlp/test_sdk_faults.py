"""Agents instrumented with the OpenTelemetry SDK (OTLP/HTTP protobuf, gzip) against a live
gunicorn: one fault is one failure however many spans it passes through and however the spans
are split into exports; each agent of a process keeps its failures though its run's root is
exported last; a run is its own task; a run without a service name is stored under the
SDK's default name, where docs/opentelemetry.md says to look; a chunked body is read whole."""

import json

import httpx
import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.trace import use_span

from failures.models import Failure
from outcomes.models import Outcome

from .spans import ERROR, export, span

SERVICE = "billing-service"
AGENT = "billing"


class CardDeclined(Exception):
    pass


@pytest.fixture
def sdk(gunicorn_server, make_key, monkeypatch):
    """``sdk(service=..., processor=...)``: a tracer provider configured as an agent's, by
    environment variables, and an API client with the same key."""
    key = make_key("write", name="otel-agent")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", gunicorn_server)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", f"Authorization=Bearer%20{key}")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
    providers = []

    def make(service: str | None = SERVICE, processor=BatchSpanProcessor) -> TracerProvider:
        if service is None:
            monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
        else:
            monkeypatch.setenv("OTEL_SERVICE_NAME", service)
        provider = TracerProvider(resource=Resource.create())
        provider.add_span_processor(processor(OTLPSpanExporter()))
        providers.append(provider)
        return provider

    api = httpx.Client(
        base_url=f"{gunicorn_server}/api/v1",
        headers={"Authorization": f"Bearer {key}"},
        timeout=30,
    )
    yield make, api
    for provider in providers:
        provider.shutdown()
    api.close()


def nested_run(tracer, *, fail: bool) -> str:
    """``invoke_agent`` → ``chat`` → ``execute_tool``; when ``fail``, the tool's exception
    propagates out of all three. Answers the trace id."""
    try:
        with tracer.start_as_current_span(
            "invoke_agent billing",
            attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": AGENT},
        ) as run:
            with tracer.start_as_current_span(
                "chat gpt-4o", attributes={"gen_ai.operation.name": "chat"}
            ):
                with tracer.start_as_current_span(
                    "execute_tool charge_card",
                    attributes={"gen_ai.operation.name": "execute_tool"},
                ):
                    if fail:
                        raise CardDeclined("card declined for order 1234")
    except CardDeclined:
        pass
    return format(run.get_span_context().trace_id, "032x")


def test_an_exception_through_three_spans_is_one_failure_at_the_tool(sdk):
    make, api = sdk
    provider = make()
    trace = nested_run(provider.get_tracer("billing"), fail=True)
    assert provider.force_flush(timeout_millis=30_000)
    [failure] = api.get("/failures", params={"limit": 50}).json()["failures"]
    assert (failure["agent"], failure["task"], failure["task_type"]) == (
        AGENT,
        trace,
        "execute_tool charge_card",
    )
    assert failure["error_type"] == f"{__name__}.CardDeclined"  # the SDK's exception.type
    assert failure["error"] == "card declined for order 1234"
    # The run is still the task's failed outcome, with no failure record of its own.
    run = Outcome.objects.get(task_type="invoke_agent billing")
    assert (run.agent, run.task_id, run.outcome, run.failure_id) == (AGENT, trace, "failure", None)


def test_spans_exported_one_by_one_still_give_one_failure(sdk):
    make, api = sdk
    provider = make(processor=SimpleSpanProcessor)  # every span its own export, child first
    trace = nested_run(provider.get_tracer("billing"), fail=True)
    assert provider.force_flush(timeout_millis=30_000)
    failure = Failure.objects.get()
    assert (failure.task, failure.task_type) == (trace, "execute_tool charge_card")
    # The tool span was exported before its named ancestor, and re-filed when the run came.
    assert failure.agent == AGENT
    assert len(failure.lineage) == 2  # its chat and run spans, learned as they arrived
    failed = Outcome.objects.filter(outcome="failure")
    assert sorted(failed.values_list("agent", flat=True)) == [
        AGENT,
        AGENT,
    ]  # the tool's, the run's


def test_each_agent_of_a_process_keeps_its_failures_though_its_run_ends_last(sdk):
    make, api = sdk
    provider = make(service="host-proc")
    tracer = provider.get_tracer("agents")
    runs = {
        agent: tracer.start_span(
            f"invoke_agent {agent}",
            attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent},
        )
        for agent in ("billing", "support")
    }
    for agent, run in runs.items():
        with use_span(run, end_on_exit=False):
            try:
                with tracer.start_as_current_span("chat gpt-4o"):
                    with tracer.start_as_current_span(f"execute_tool {agent}_lookup"):
                        raise CardDeclined(f"{agent} lookup refused")
            except CardDeclined:
                pass
    # The batch processor exports the children while the runs are still going.
    assert provider.force_flush(timeout_millis=30_000)
    assert set(Failure.objects.values_list("agent", flat=True)) == {"host-proc"}
    for run in runs.values():
        run.end()
    assert provider.force_flush(timeout_millis=30_000)
    failures = {f.task_type: f for f in Failure.objects.all()}
    assert {task_type: f.agent for task_type, f in failures.items()} == {
        "execute_tool billing_lookup": "billing",
        "execute_tool support_lookup": "support",
    }
    for failure in failures.values():
        assert Outcome.objects.get(failure=failure).agent == failure.agent
    assert not Outcome.objects.filter(agent="host-proc").exists()
    assert api.get("/failures", params={"agent": "host-proc"}).json()["failures"] == []


def test_a_later_successful_run_is_another_task_and_advises_no_retry(sdk):
    make, api = sdk
    provider = make()
    tracer = provider.get_tracer("billing")
    failed = nested_run(tracer, fail=True)
    succeeded = nested_run(tracer, fail=False)
    assert provider.force_flush(timeout_millis=30_000)
    assert failed != succeeded
    [failure] = api.get("/failures", params={"agent": AGENT}).json()["failures"]
    assert (failure["task"], failure["status"]) == (failed, "open")
    briefing = api.get("/boot", params={"agent": AGENT}).json()
    [advice] = briefing["retry_advice"]
    assert advice["task"] == failed
    assert "a retry succeeded" not in advice["reason"]
    assert Outcome.objects.get(task_id=succeeded, outcome="success").resolved_failures == 0


def test_a_run_without_a_service_name_is_stored_under_the_sdks_default(sdk):
    make, api = sdk
    provider = make(service=None)
    with provider.get_tracer("billing").start_as_current_span("sync") as run:
        run.record_exception(CardDeclined("card declined for order 99"))
    assert provider.force_flush(timeout_millis=30_000)
    [failure] = api.get("/failures", params={"limit": 50}).json()["failures"]
    assert failure["agent"].startswith("unknown_service")
    assert api.get("/boot", params={"agent": failure["agent"]}).json()["recent_failures"]


def chunks(body: bytes):
    for start in range(0, len(body), 1000):
        yield body[start : start + 1000]


def test_a_chunked_body_is_read_whole_under_gunicorn(gunicorn_server, make_key, settings):
    """httpx sends a body given as an iterator with Transfer-Encoding: chunked."""
    key = make_key("write", name="chunked")
    body = export(
        *[span(f"s{n}", status=ERROR, attrs={"gen_ai.agent.name": "chunky"}) for n in range(40)]
    ).SerializeToString()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/x-protobuf"}
    with httpx.Client(base_url=gunicorn_server, headers=headers, timeout=30) as client:
        response = client.post("/v1/traces", content=chunks(body))
        assert response.status_code == 200, response.content
        assert response.request.headers["Transfer-Encoding"] == "chunked"
        assert not ExportTraceServiceResponse.FromString(response.content).HasField(
            "partial_success"
        )
        assert Failure.objects.filter(agent="chunky").count() == 40
        bulk = json.dumps(
            {
                "outcomes": [
                    {"task_id": "t", "agent": "chunky", "task_type": "x", "outcome": "success"}
                ]
            }
        ).encode()
        response = client.post(
            "/api/v1/outcomes/bulk",
            content=chunks(bulk),
            headers={"Content-Type": "application/json"},
        )
        assert (response.status_code, response.json()["created"]) == (200, 1)
        # Past the body limit (8 MiB) it is read no further than one byte over it: a 413.
        response = client.post("/v1/traces", content=chunks(b"\x00" * 9_000_000))
        assert response.status_code == 413
