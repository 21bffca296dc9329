"""OTLP ingestion's workload: the bulk writer's outcomes, sent as spans to POST /v1/traces.

Each outcome the bench's Writer makes for POST /outcomes/bulk becomes one span of an
ExportTraceServiceRequest (protobuf, as the SDK's exporter sends it), so both endpoints store the
same rows and their rates compare item for item: a failure is a child span in ERROR with an
``exception`` event (its message and type), ``hindsight.retry_safe`` when the outcome says it;
a success is a root span. Both name their agent (``gen_ai.agent.name``), task, task type and
files. The Writer's mix gives about one failure in five. Every span has new trace and span ids.
"""

import os
from datetime import datetime

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span, Status

TRACES = "/v1/traces"
PROTOBUF = "application/x-protobuf"
BATCH = 512  # spans per export: the SDK's BatchSpanProcessor default


def _value(value) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, list):
        return AnyValue(array_value=ArrayValue(values=[_value(item) for item in value]))
    return AnyValue(string_value=str(value))


def outcome_span(item: dict) -> Span:
    """One outcome of the bulk Writer as the span an instrumented agent would have sent."""
    end = int(datetime.fromisoformat(item["occurred_at"]).timestamp() * 1e9)
    context, result = item.get("context") or {}, item.get("result") or {}
    files = (
        result.get("files_changed")
        or context.get("files")
        or ([context["file_path"]] if context.get("file_path") else [])
    )
    attributes = {
        "gen_ai.agent.name": item["agent"],
        "hindsight.task": item["task_id"],
        "hindsight.task_type": item["task_type"],
    }
    if files:
        attributes["hindsight.files"] = files
    failed = item["outcome"] == "failure"
    status = Status.STATUS_CODE_ERROR if failed else Status.STATUS_CODE_UNSET
    if failed:
        attributes["error.type"] = context["error_type"]
        if "retry_safe" in context:
            attributes["hindsight.retry_safe"] = context["retry_safe"]
    span = Span(
        trace_id=os.urandom(16),
        span_id=os.urandom(8),
        parent_span_id=os.urandom(8) if failed else b"",
        name=item["task_type"],
        start_time_unix_nano=end - item["duration_ms"] * 1_000_000,
        end_time_unix_nano=end,
        attributes=[KeyValue(key=k, value=_value(v)) for k, v in attributes.items()],
        status=Status(code=status),
    )
    if failed:
        span.events.add(
            name="exception",
            time_unix_nano=end,
            attributes=[
                KeyValue(key="exception.message", value=_value(context["error_message"])),
                KeyValue(key="exception.type", value=_value(context["error_type"])),
            ],
        )
    return span


def export_body(outcomes: list[dict]) -> bytes:
    """One export of the outcomes' spans, under one resource, encoded as protobuf."""
    return ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(
                    attributes=[KeyValue(key="service.name", value=_value("bench-fleet"))]
                ),
                scope_spans=[ScopeSpans(spans=[outcome_span(item) for item in outcomes])],
            )
        ]
    ).SerializeToString()


def otlp_requests(writer, args) -> tuple[list, int, int]:
    """(requests, how many warm up, spans per request): as many spans as the bulk requests
    carry outcomes, in exports of BATCH spans."""
    measured = -(-args.bulk_requests * args.bulk_size // BATCH)
    warmup = -(-args.write_warmup * args.bulk_size // BATCH)
    return (
        [(TRACES, export_body(writer.batch(BATCH)), PROTOBUF) for _ in range(warmup + measured)],
        warmup,
        BATCH,
    )


def errors_share(requests: list) -> float:
    """The share of the requests' spans in ERROR."""
    spans = [
        span
        for _, body, _ in requests
        for resource in ExportTraceServiceRequest.FromString(body).resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    return sum(s.status.code == Status.STATUS_CODE_ERROR for s in spans) / max(len(spans), 1)
