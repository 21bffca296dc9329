"""POST /v1/traces: encodings, answers as the OTLP/HTTP specification says, and the REST API's
keys, scopes, bound agents, scrubbing, limits and throttle."""

import gzip
import json
import time

import pytest
from django.db import OperationalError
from google.rpc.status_pb2 import Status
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from config.api.services import api_key_create
from failures.models import Failure
from outcomes.models import Outcome
from outcomes.otlp import views as otlp_views
from outcomes.otlp.mapping import request_map
from tests.conftest import bearer

from .spans import ERROR, export, otlp_json, span

TRACES = "/v1/traces"
PROTOBUF = "application/x-protobuf"
SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"


def post(client, body: bytes, content_type: str = PROTOBUF, **headers):
    return client.generic("POST", TRACES, body, content_type=content_type, **headers)


def answer_of(response) -> ExportTraceServiceResponse:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == PROTOBUF
    return ExportTraceServiceResponse.FromString(response.content)


def status_of(response) -> Status:
    return Status.FromString(response.content)


def run(trace_id=b"\x07" * 16) -> bytes:
    """A small agent run: a failed tool call, then the run itself, which succeeds."""
    return export(
        span(
            "call twilio",
            trace_id=trace_id,
            span_id=b"\x02" * 8,
            status=ERROR,
            attrs={
                "hindsight.task": "ticket-7",
                "error.type": "TwilioTimeout",
                "hindsight.retry_safe": True,
            },
            exception={"exception.message": "Twilio API timeout after 30 seconds"},
        ),
        span(
            "run",
            trace_id=trace_id,
            span_id=b"\x01" * 8,
            parent=b"",
            attrs={"hindsight.task": "ticket-9", "hindsight.files": ["src/sms.py"]},
        ),
    ).SerializeToString()


def test_a_protobuf_export_stores_its_failure_and_its_outcome(api):
    answer = answer_of(post(api, run()))
    assert not answer.HasField("partial_success")
    failure = Failure.objects.get()
    assert (failure.agent, failure.task, failure.error_type) == (
        "agent-svc",
        "ticket-7",
        "TwilioTimeout",
    )
    assert failure.error == "Twilio API timeout after 30 seconds"
    assert failure.retry_safe is True
    assert failure.status == "open"
    outcomes = {o.task_id: o for o in Outcome.objects.all()}
    assert outcomes["ticket-7"].outcome == "failure"
    assert outcomes["ticket-9"].outcome == "success"
    assert outcomes["ticket-9"].duration_ms == 1500
    assert list(outcomes["ticket-9"].files.values_list("path", flat=True)) == ["src/sms.py"]


def test_a_json_export_is_read_with_hex_ids_and_integer_enums(api):
    sent = export(
        span(
            "lookup",
            trace_id=bytes.fromhex("5b8efff798038103d269b633813fc60c"),
            span_id=bytes.fromhex("eee19b7ec3c1b174"),
            status=ERROR,
            status_message="no such order",
            attrs={"gen_ai.agent.name": "support-bot"},
        )
    )
    request = otlp_json(sent)
    span_json = request["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    span_json["unknownField"] = 1  # receivers ignore fields they do not know
    assert span_json["status"]["code"] == 2
    assert span_json["traceId"] == "5b8efff798038103d269b633813fc60c"
    response = post(api, json.dumps(request).encode(), "application/json")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {}
    failure = Failure.objects.get()
    assert (failure.agent, failure.error) == ("support-bot", "no such order")
    # The same ids as the protobuf encoding of the same span: the same event.
    [[from_protobuf]] = [item.outcomes for item in request_map(sent).spans]
    assert str(Outcome.objects.get().event_id) == from_protobuf["event_id"]


def test_a_gzip_body_is_decompressed(api):
    answer_of(post(api, gzip.compress(run()), HTTP_CONTENT_ENCODING="gzip"))
    assert Failure.objects.count() == 1


def test_a_batch_sent_twice_is_stored_once(api):
    batch = run()
    answer_of(post(api, batch))
    answer = answer_of(post(api, batch))
    assert not answer.HasField("partial_success")
    assert (Outcome.objects.count(), Failure.objects.count()) == (2, 1)


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b"\xff\xff\xff\xff not a protobuf", PROTOBUF),
        (b"{not json", "application/json"),
        (
            b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}',
            "application/json",
        ),
        (b'{"resourceSpans": "none"}', "application/json"),
        (b"[1, 2]", "application/json"),
        (b"", "application/json"),
    ],
)
def test_a_body_that_is_not_an_otlp_export_is_a_400(api, body, content_type):
    response = post(api, body, content_type)
    assert response.status_code == 400
    assert response["Content-Type"] == content_type
    if content_type == PROTOBUF:
        assert status_of(response).code == 3  # INVALID_ARGUMENT
        assert "not an OTLP" in status_of(response).message
    else:
        assert json.loads(response.content)["code"] == 3


def test_a_bad_gzip_body_is_a_400_and_an_unknown_encoding_too(api):
    assert post(api, b"not gzip", HTTP_CONTENT_ENCODING="gzip").status_code == 400
    assert post(api, run(), HTTP_CONTENT_ENCODING="br").status_code == 400


def test_an_empty_protobuf_export_is_accepted(api):
    answer_of(post(api, b""))
    assert Outcome.objects.count() == 0


def test_another_content_type_is_a_415(api):
    response = post(api, run(), "text/plain")
    assert response.status_code == 415
    assert response.status_code == post(api, b"", "application/grpc").status_code


def test_without_a_valid_key_the_answer_is_a_401(db):
    for client in (bearer(None), bearer("not-a-key")):
        response = post(client, run())
        assert response.status_code == 401
        assert status_of(response).code == 16  # UNAUTHENTICATED
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert Outcome.objects.count() == 0


def test_a_read_key_cannot_export(make_key):
    response = post(bearer(make_key("read", name="reader")), run())
    assert response.status_code == 403
    assert Outcome.objects.count() == 0


def test_a_secret_in_an_attribute_is_scrubbed(api):
    answer_of(
        post(
            api,
            export(
                span(
                    "deploy",
                    status=ERROR,
                    attrs={
                        "hindsight.task": f"deploy token={SECRET}",
                        "hindsight.recovery_hint": f"rotate api_key={SECRET}",
                    },
                    exception={
                        "exception.message": f"401 from https://admin:{SECRET}@api.example.com"
                    },
                )
            ).SerializeToString(),
        )
    )
    failure = Failure.objects.get()
    stored = json.dumps(
        [failure.task, failure.error, failure.recovery_hint, Outcome.objects.get().context]
    )
    assert SECRET not in stored
    assert "401 from https://" in failure.error


def test_a_key_bound_to_agents_refuses_another_agents_span_and_stores_the_rest(db):
    client = bearer(api_key_create(name="bound", scope="write", agent_patterns=["mine-*"]).raw)
    answer = answer_of(
        post(
            client,
            export(
                span("ok", status=ERROR, attrs={"gen_ai.agent.name": "mine-1"}),
                span(
                    "theirs",
                    span_id=b"\x09" * 8,
                    status=ERROR,
                    attrs={"gen_ai.agent.name": "other-agent"},
                ),
            ).SerializeToString(),
        )
    )
    assert answer.partial_success.rejected_spans == 1
    assert "0909090909090909" in answer.partial_success.error_message
    assert "may write only for agents matching mine-*" in answer.partial_success.error_message
    assert list(Failure.objects.values_list("agent", flat=True)) == ["mine-1"]


def test_spans_the_ledger_refuses_are_counted_with_the_attribute_named(api):
    answer = answer_of(
        post(
            api,
            export(
                span("a", status=ERROR, attrs={"hindsight.retry_safe": "yes"}),
                span("b", status=ERROR, attrs={"hindsight.task": "t" * 201}),
                span("c", status=ERROR),
            ).SerializeToString(),
        )
    )
    assert answer.partial_success.rejected_spans == 2
    message = answer.partial_success.error_message
    assert "hindsight.retry_safe: Must be true, false or null." in message
    assert "hindsight.task (or gen_ai.conversation.id): Ensure" in message
    assert Failure.objects.count() == 1


def test_a_span_without_an_agent_is_refused(api):
    answer = answer_of(post(api, export(span(status=ERROR), service="").SerializeToString()))
    assert answer.partial_success.rejected_spans == 1
    assert "OTEL_SERVICE_NAME" in answer.partial_success.error_message


def test_a_body_over_the_bulk_limit_is_a_413_even_once_decompressed(api, settings):
    settings.HINDSIGHT_MAX_BULK_BODY_BYTES = 2000
    assert post(api, b"\x00" * 2001).status_code == 413
    bomb = gzip.compress(b"\x00" * 100_000)
    assert len(bomb) < 2000
    response = post(api, bomb, HTTP_CONTENT_ENCODING="gzip")
    assert response.status_code == 413
    assert "decompressed" in status_of(response).message


def test_over_the_bulk_budget_the_answer_is_a_429_with_retry_after(api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": None, "write": None, "bulk": "1/minute"},
    }
    answer_of(post(api, run()))
    response = post(api, run())
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert status_of(response).code == 8  # RESOURCE_EXHAUSTED


def test_a_database_that_cannot_take_the_batch_is_a_503_with_retry_after(api, monkeypatch):
    def unavailable(*args, **kwargs):
        raise OperationalError("the database system is shutting down")

    monkeypatch.setattr(otlp_views, "traces_record", unavailable)
    response = post(api, run())
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert status_of(response).code == 14  # UNAVAILABLE


def test_a_json_export_is_answered_in_json_with_its_partial_success(api):
    request = otlp_json(export(span(status=ERROR), service=""))
    response = post(api, json.dumps(request).encode(), "application/json")
    assert response.status_code == 200
    partial = json.loads(response.content)["partialSuccess"]
    assert partial["rejectedSpans"] == "1"  # int64 in the protobuf JSON mapping
    assert "no agent" in partial["errorMessage"]


def test_spans_are_recorded_in_the_order_they_ended_so_a_later_success_closes_the_failure(api):
    # Exporters send spans as they end, but a batch may hold them in any order.
    now = time.time_ns()
    success = span("run", parent=b"", end_ns=now, attrs={"hindsight.task": "ticket-3"})
    failure = span(
        "call",
        status=ERROR,
        end_ns=now - 1_000_000_000,
        attrs={"hindsight.task": "ticket-3"},
        exception={"exception.message": "boom"},
    )
    answer_of(post(api, export(success, failure).SerializeToString()))
    assert Failure.objects.get().status == "resolved"


def test_a_refusal_message_quotes_the_first_spans_and_counts_the_rest(api):
    spans = [span(f"s{n}", status=ERROR) for n in range(7)]
    answer = answer_of(post(api, export(*spans, service="").SerializeToString()))
    assert answer.partial_success.rejected_spans == 7
    message = answer.partial_success.error_message
    assert message.count("no agent") == 5 and message.endswith("; and 2 more")


def test_one_exception_through_spans_of_three_exports_is_one_failure(api):
    trace = b"\x05" * 16
    exception = {"exception.type": "CardDeclined", "exception.message": "card declined"}
    tool = span(
        "execute_tool charge",
        trace_id=trace,
        span_id=b"\x03" * 8,
        parent=b"\x02" * 8,
        status=ERROR,
        exception=exception,
    )
    chat = span(
        "chat",
        trace_id=trace,
        span_id=b"\x02" * 8,
        parent=b"\x01" * 8,
        status=ERROR,
        exception=exception,
    )
    root = span(
        "invoke_agent",
        trace_id=trace,
        span_id=b"\x01" * 8,
        parent=b"",
        status=ERROR,
        exception=exception,
    )
    for item in (tool, chat, root):  # children end, and are exported, first
        assert not answer_of(post(api, export(item).SerializeToString())).HasField(
            "partial_success"
        )
    failure = Failure.objects.get()
    assert (failure.task, failure.task_type, failure.lineage) == (
        trace.hex(),
        "execute_tool charge",
        ["02" * 8, "01" * 8],
    )
    run = Outcome.objects.get(task_type="invoke_agent")
    assert (run.outcome, run.failure_id, run.error_type) == ("failure", None, "CardDeclined")
    assert Outcome.objects.count() == 2  # the chat span is no outcome


def test_an_export_stores_the_release_model_and_prompt_version_scrubbed(api):
    body = export(
        span(
            "chat",
            status=ERROR,
            attrs={
                "gen_ai.request.model": "gpt-4o",
                "hindsight.prompt_version": f"p token={SECRET}",
            },
            exception={"exception.message": "context length exceeded"},
        ),
        resource={"service.version": "1.4.2"},
    ).SerializeToString()
    answer_of(post(api, body))
    failure, outcome = Failure.objects.get(), Outcome.objects.get()
    for row in (failure, outcome):
        assert (row.release, row.model) == ("1.4.2", "gpt-4o")
        assert SECRET not in row.prompt_version and row.prompt_version.startswith("p ")
