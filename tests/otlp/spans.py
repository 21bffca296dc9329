"""Spans and trace exports built with the official OTLP message classes."""

import os
import time

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, ArrayValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span, Status

ERROR = Status.STATUS_CODE_ERROR
OK = Status.STATUS_CODE_OK


def any_value(value) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, (list, tuple)):
        return AnyValue(array_value=ArrayValue(values=[any_value(item) for item in value]))
    return AnyValue(string_value=value)


def attributes(values: dict) -> list[KeyValue]:
    return [KeyValue(key=key, value=any_value(value)) for key, value in values.items()]


def span(
    name: str = "work",
    *,
    trace_id: bytes | None = None,
    span_id: bytes | None = None,
    parent: bytes = b"\x01" * 8,
    status: int = 0,
    status_message: str = "",
    attrs: dict | None = None,
    exception: dict | None = None,
    end_ns: int | None = None,
    duration_ms: int = 1500,
) -> Span:
    """A span ended ``end_ns`` (default: now); a child span unless ``parent=b""``."""
    end_ns = end_ns or time.time_ns()
    item = Span(
        trace_id=trace_id or os.urandom(16),
        span_id=span_id or os.urandom(8),
        parent_span_id=parent,
        name=name,
        start_time_unix_nano=end_ns - duration_ms * 1_000_000,
        end_time_unix_nano=end_ns,
        attributes=attributes(attrs or {}),
        status=Status(code=status, message=status_message),
    )
    if exception is not None:
        event = item.events.add(name="exception", time_unix_nano=end_ns)
        event.attributes.extend(attributes(exception))
    return item


def export(
    *spans: Span, service: str = "agent-svc", resource: dict | None = None
) -> ExportTraceServiceRequest:
    """One resource (``service.name`` = ``service``) holding ``spans``."""
    values = {"service.name": service, **(resource or {})} if service else (resource or {})
    return ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(attributes=attributes(values)),
                scope_spans=[ScopeSpans(spans=list(spans))],
            )
        ]
    )


def otlp_json(request: ExportTraceServiceRequest) -> dict:
    """``request`` in the OTLP/JSON encoding: hex ids, enums as integers."""
    document = json_format.MessageToDict(request, use_integers_for_enums=True)
    spans = [
        span
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    encoded = [
        span
        for resource in document["resourceSpans"]
        for scope in resource["scopeSpans"]
        for span in scope["spans"]
    ]
    for item, span_json in zip(spans, encoded):
        span_json.update(traceId=item.trace_id.hex(), spanId=item.span_id.hex())
        if item.parent_span_id:
            span_json["parentSpanId"] = item.parent_span_id.hex()
    return document
