"""Spans as the outcomes POST /outcomes/bulk takes (the README's mapping table). No Django.

A span that failed (status ERROR, or an ``exception`` event) becomes a failed outcome, which the
ledger turns into a failure record; a root span, or one marked ``hindsight.outcome``, becomes an
outcome, a success unless its status is ERROR. A span that is both a success and failed by an
exception event it recovered from gives both, the failure first. Other spans are not used.

Each outcome carries an event id derived from its trace id, span id and kind, so an exporter's
retry of a batch is a replay. The outcome is checked and scrubbed by the ledger's own checks
(outcome_parse), exactly as one sent to the REST API; this module only says where each field
comes from, and why a span cannot be used when it cannot.
"""
import json
import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from .decoding import hex_id

AGENT = "gen_ai.agent.name"
SERVICE = "service.name"
OPERATION = "gen_ai.operation.name"
TASK = "hindsight.task"
TASK_TYPE = "hindsight.task_type"
MARKED = "hindsight.outcome"
FILES = "hindsight.files"
ERROR_TYPE = "error.type"
EXCEPTION = "exception"
EXCEPTION_MESSAGE = "exception.message"
EXCEPTION_TYPE = "exception.type"
# Attributes that fill the failure record's fields of the same name (context keys of an outcome).
FAILURE_ATTRIBUTES = {"hindsight.retry_safe": "retry_safe", "hindsight.retry_after": "retry_after",
                      "hindsight.side_effects": "side_effects",
                      "hindsight.checkpoint": "checkpoint",
                      "hindsight.recovery_hint": "recovery_hint"}
# The SDK's service.name when none was configured: no agent's name.
UNKNOWN_SERVICE = "unknown_service"
# Where an outcome field comes from, to name it when the ledger's checks refuse a span.
SOURCES = {
    "agent": f"{AGENT} (or {SERVICE})",
    "task_id": f"{TASK} (or {OPERATION} and the span name)",
    "task_type": f"{TASK_TYPE} (or {OPERATION}, or the span name)",
    "occurred_at": "the span's end time",
    "duration_ms": "the span's start and end times",
    "context.error_message": f"{EXCEPTION_MESSAGE} (or the status message)",
    "context.error_type": f"{ERROR_TYPE} (or {EXCEPTION_TYPE})",
    "context.files": FILES,
    **{f"context.{key}": name for name, key in FAILURE_ATTRIBUTES.items()},
}
_EVENT_NAMESPACE = uuid.UUID("5b0f3f3e-7c1a-4f47-9c55-2f1d0a6f0c7e")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class Unusable(ValueError):
    """A span that should become an outcome but cannot: the message says why."""


@dataclass(frozen=True)
class Mapped:
    """What one span gives: outcomes as POST /outcomes/bulk takes them, or why it cannot."""

    trace_id: str
    span_id: str
    outcomes: tuple[dict, ...] = ()
    problem: str = ""

    @property
    def span(self) -> str:
        """The span as a refusal names it."""
        return f"{self.span_id} of trace {self.trace_id}"


def request_map(request) -> list[Mapped]:
    """Every span of an ExportTraceServiceRequest that becomes outcomes or is refused, in order
    (spans that are neither failed nor outcomes are left out)."""
    mapped = []
    for resource_spans in request.resource_spans:
        agent = resource_agent({kv.key: kv.value for kv in resource_spans.resource.attributes})
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                item = span_map(span, agent)
                if item is not None:
                    mapped.append(item)
    return mapped


def resource_agent(resource: dict[str, AnyValue]) -> str:
    """The agent of a resource's spans that do not name theirs: its ``gen_ai.agent.name``, else
    its service name ("" for none, or the SDK's ``unknown_service``)."""
    try:
        service = _text(resource, SERVICE)
        return _text(resource, AGENT) or ("" if service.startswith(UNKNOWN_SERVICE) else service)
    except Unusable:
        return ""


def span_map(span: Span, agent: str) -> Mapped | None:
    """The outcomes of one span (None when it gives none), or why it cannot give them;
    ``agent``: its resource's (resource_agent)."""
    attributes = {kv.key: kv.value for kv in span.attributes}
    exception = next((event for event in reversed(span.events) if event.name == EXCEPTION), None)
    errored = span.status.code == Status.STATUS_CODE_ERROR
    failed = errored or exception is not None
    is_outcome = not span.parent_span_id or _value(attributes, MARKED) is True
    if not (failed or is_outcome):
        return None
    trace, span_id = hex_id(span.trace_id), hex_id(span.span_id)
    try:
        common = _common(span, attributes, agent)
        outcomes = []
        if failed:
            outcomes.append(_outcome(common, trace, span_id, "failure",
                                     _failure_context(span, attributes, exception)))
        if is_outcome and not errored:
            outcomes.append(_outcome(common, trace, span_id, "success", {}))
    except Unusable as exc:
        return Mapped(trace, span_id, problem=str(exc))
    return Mapped(trace, span_id, tuple(outcomes))


def refusal_explain(errors: dict[str, list[str]]) -> str:
    """The ledger's errors of a span's outcome, naming the attributes they come from."""
    return "; ".join(f"{SOURCES.get(field, field)}: {messages[0]}"
                     for field, messages in errors.items())


def _common(span: Span, attributes: dict, agent: str) -> dict:
    agent = _text(attributes, AGENT) or agent
    if not agent:
        raise Unusable(f"no agent: set the {AGENT} attribute, or the service name "
                       "(OTEL_SERVICE_NAME).")
    operation = _text(attributes, OPERATION)
    task = _text(attributes, TASK) or _operation_task(operation, span.name)
    if not span.end_time_unix_nano:
        raise Unusable("the span has no end time.")
    common = {"agent": agent, "task_id": task,
              "task_type": _text(attributes, TASK_TYPE) or operation or span.name,
              "occurred_at": _moment(span.end_time_unix_nano)}
    if span.start_time_unix_nano:
        common["duration_ms"] = (span.end_time_unix_nano - span.start_time_unix_nano) // 1_000_000
    files = _value(attributes, FILES)
    if files is not None:
        common["context"] = {"files": [files] if isinstance(files, str) else files}
    return common


def _operation_task(operation: str, name: str) -> str:
    """``gen_ai.operation.name`` with the span name (GenAI span names often start with it)."""
    if not operation or name == operation or name.startswith(f"{operation} "):
        return name
    return f"{operation} {name}"


def _failure_context(span: Span, attributes: dict, exception) -> dict:
    event = {kv.key: kv.value for kv in exception.attributes} if exception is not None else {}
    error_type = _text(attributes, ERROR_TYPE) or _text(event, EXCEPTION_TYPE)
    message = (_text(event, EXCEPTION_MESSAGE) or span.status.message or error_type
               or f"{span.name} failed")
    context = {"error_message": message}
    if error_type:
        context["error_type"] = error_type
    for name, key in FAILURE_ATTRIBUTES.items():
        value = _value(attributes, name)
        if value is None:
            continue
        if key == "side_effects" and isinstance(value, str):
            value = [value]
        elif key == "checkpoint" and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise Unusable(f"{name}: not a JSON object.") from None
        context[key] = value
    return context


def _outcome(common: dict, trace: str, span_id: str, kind: str, failure: dict) -> dict:
    context = {**common.get("context", {}), **failure}
    return {**common, "outcome": kind, "context": context,
            "event_id": str(uuid.uuid5(_EVENT_NAMESPACE, f"{trace}:{span_id}:{kind}"))}


def _moment(unix_nano: int) -> str:
    try:
        moment = _EPOCH + timedelta(microseconds=unix_nano // 1000)
    except OverflowError:
        raise Unusable("the span's end time is out of range.") from None
    return moment.isoformat(timespec="microseconds")  # one width: the strings sort as times


def _text(attributes: dict, name: str) -> str:
    """A text attribute ("" when absent); a number is taken as its digits."""
    value = _value(attributes, name)
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise Unusable(f"{name}: expected a string.")
    return value.strip()


def _value(attributes: dict, name: str):
    value = attributes.get(name)
    return None if value is None else _python(value, name)


def _python(value: AnyValue, name: str):
    """An AnyValue as JSON-like Python: arrays as lists, key-value lists as dicts."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_python(item, name) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _python(kv.value, name) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        return value.bytes_value.hex()
    if kind == "double_value" and not math.isfinite(value.double_value):
        raise Unusable(f"{name}: {value.double_value} is not a finite number.")
    return getattr(value, kind)
