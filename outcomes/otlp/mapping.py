"""Spans as the outcomes POST /outcomes/bulk takes (docs/opentelemetry.md's tables). No Django.

A span that failed (status ERROR, or an ``exception`` event) gives a failed outcome, which the
ledger turns into a failure record; a root span, or one marked ``hindsight.outcome``, gives an
outcome, a success unless its status is ERROR. A span that is both a success and failed by an
exception event it recovered from gives both, the failure first. Other spans give nothing, but
their parent links and names still count: a span's task and agent are the nearest ones named on
it or its ancestors in the same export, and each failed span says which span named its agent.
Which failed outcomes become failure records (one per fault of a trace), and which stored ones
a named ancestor of a later export re-files, is outcomes.otlp.faults' decision, not this
module's.

Each outcome carries an event id derived from its trace id, span id and kind, so an exporter's
retry of a batch is a replay; a span without ids is refused. The outcome is checked and scrubbed
by the ledger's own checks (outcome_parse), exactly as one sent to the REST API; this module
only says where each field comes from, and why a span cannot be used when it cannot.
"""

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

from .attributes import Unusable, json_object, text, value
from .decoding import hex_id

AGENT = "gen_ai.agent.name"
SERVICE = "service.name"
OPERATION = "gen_ai.operation.name"
CONVERSATION = "gen_ai.conversation.id"
TASK = "hindsight.task"
TASK_TYPE = "hindsight.task_type"
MARKED = "hindsight.outcome"
FILES = "hindsight.files"
ERROR_TYPE = "error.type"
EXCEPTION = "exception"
EXCEPTION_MESSAGE = "exception.message"
EXCEPTION_TYPE = "exception.type"
# What the agent ran: its release (a resource attribute), the model a span called (the one asked
# for, else the one that answered) and its prompts' version (on the span, else the resource).
RELEASE = "service.version"
REQUEST_MODEL = "gen_ai.request.model"
RESPONSE_MODEL = "gen_ai.response.model"
PROMPT_VERSION = "hindsight.prompt_version"
# Attributes that fill the failure record's fields of the same name (context keys of an outcome).
FAILURE_ATTRIBUTES = {
    "hindsight.retry_safe": "retry_safe",
    "hindsight.retry_after": "retry_after",
    "hindsight.side_effects": "side_effects",
    "hindsight.checkpoint": "checkpoint",
    "hindsight.recovery_hint": "recovery_hint",
}
# Where an outcome field comes from, to name it when the ledger's checks refuse a span.
SOURCES = {
    "agent": f"{AGENT} (or {SERVICE})",
    "task_id": f"{TASK} (or {CONVERSATION})",
    "task_type": f"{TASK_TYPE} (or {OPERATION} and the span name)",
    "occurred_at": "the span's end time",
    "duration_ms": "the span's start and end times",
    "context.error_message": f"{EXCEPTION_MESSAGE} (or the status message)",
    "context.error_type": f"{ERROR_TYPE} (or {EXCEPTION_TYPE})",
    "context.files": FILES,
    "release": RELEASE,
    "model": f"{REQUEST_MODEL} (or {RESPONSE_MODEL})",
    "prompt_version": PROMPT_VERSION,
    **{f"context.{key}": name for name, key in FAILURE_ATTRIBUTES.items()},
}
# The ledger's longest task type: a derived one (operation and span name) is cut to it.
MAX_TASK_TYPE = 100
# Ancestors followed for a span's task and agent: deeper than any agent's nesting, and a bound
# on the walk when a hostile export links its spans in a cycle.
MAX_DEPTH = 64
_EVENT_NAMESPACE = uuid.UUID("5b0f3f3e-7c1a-4f47-9c55-2f1d0a6f0c7e")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Mapped:
    """What one span gives: its failed outcome and its outcome as POST /outcomes/bulk takes
    them, or why it cannot; with what deduplicating its fault needs."""

    trace_id: str
    span_id: str
    parent_id: str = ""
    failure: dict | None = None  # the failed outcome of a span that failed
    success: dict | None = None  # the successful outcome of a root or marked span
    is_outcome: bool = False  # a root or marked span: its failure is the task's outcome too
    fault: str = ""  # digest of its exception's type and message ("" without an exception)
    agent_span: str = ""  # the span whose gen_ai.agent.name gave the agent ("" for the resource)
    problem: str = ""
    reason: str = ""

    @property
    def outcomes(self) -> tuple[dict, ...]:
        return tuple(item for item in (self.failure, self.success) if item is not None)

    @property
    def span(self) -> str:
        """The span as a refusal names it."""
        return f"{self.span_id} of trace {self.trace_id}"


@dataclass
class MappedExport:
    """The spans of an export that give outcomes or are refused, in order, the parent of
    every span of it (``{(trace id, span id): parent span id}``), used or not, and the agent
    named on each span that names one (same keys), as sent."""

    spans: list[Mapped] = field(default_factory=list)
    parents: dict[tuple[str, str], str] = field(default_factory=dict)
    agents: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Node:
    """A span's parent and the names it gives its descendants (None: not named on it)."""

    parent: bytes
    agent: str | None
    task: str | None
    conversation: str | None


def request_map(request) -> MappedExport:
    """Every span of an ExportTraceServiceRequest that gives outcomes or is refused, in order
    (spans that are neither failed nor outcomes are left out), and every span's parent."""
    spans = [
        (resource, span)
        for resource_spans in request.resource_spans
        for resource in [{kv.key: kv.value for kv in resource_spans.resource.attributes}]
        for scope_spans in resource_spans.scope_spans
        for span in scope_spans.spans
    ]
    attributes = [{kv.key: kv.value for kv in span.attributes} for _, span in spans]
    nodes = {
        (span.trace_id, span.span_id): _node(span, values)
        for (_, span), values in zip(spans, attributes, strict=True)
    }
    mapped = MappedExport()
    for (resource, span), values in zip(spans, attributes, strict=True):
        key = (hex_id(span.trace_id), hex_id(span.span_id))
        mapped.parents[key] = hex_id(span.parent_span_id)
        named = nodes[(span.trace_id, span.span_id)].agent
        if named:
            mapped.agents[key] = named
        inherited = _inherited(span, nodes, resource_agent(resource))
        item = span_map(span, values, {**inherited, "resource": resource})
        if item is not None:
            mapped.spans.append(item)
    return mapped


def resource_agent(resource: dict[str, AnyValue]) -> str:
    """The agent of a resource's spans that name none on them or their ancestors: its
    ``gen_ai.agent.name``, else its service name ("" for none). The SDK's default service name
    (``unknown_service:<process>``) is kept: the spans are stored under it."""
    try:
        return text(resource, AGENT) or text(resource, SERVICE)
    except Unusable:
        return ""


def _node(span: Span, attributes: dict) -> _Node:
    return _Node(
        span.parent_span_id, *(_named(attributes, name) for name in (AGENT, TASK, CONVERSATION))
    )


def _named(attributes: dict, name: str) -> str | None:
    """A name given by an attribute; a value of the wrong type names nothing (the span that
    carries it is refused for it, its descendants are not)."""
    try:
        return text(attributes, name) or None
    except Unusable:
        return None


def _inherited(span: Span, nodes: dict, agent: str) -> dict:
    """The nearest agent, task and conversation named on ``span`` or its ancestors in the
    export (the agent falling back on the resource's), and the span that named the agent
    ("" for the resource)."""
    found: dict[str, str | None] = {"agent": None, "task": None, "conversation": None}
    key = (span.trace_id, span.span_id)
    agent_span = ""
    for _ in range(MAX_DEPTH):
        node = nodes.get(key)
        if node is None:
            break
        if not found["agent"] and node.agent:
            agent_span = hex_id(key[1])
        for name in found:
            found[name] = found[name] or getattr(node, name)
        if all(found.values()) or not node.parent:
            break
        key = (span.trace_id, node.parent)
    found["agent"] = found["agent"] or agent
    return {**found, "agent_span": agent_span}


def span_map(span: Span, attributes: dict, inherited: dict) -> Mapped | None:
    """The outcomes of one span (None when it gives none), or why it cannot give them;
    ``inherited``: _inherited's names."""
    exception = next((event for event in reversed(span.events) if event.name == EXCEPTION), None)
    errored = span.status.code == Status.STATUS_CODE_ERROR
    failed = errored or exception is not None
    trace, span_id, parent = (
        hex_id(span.trace_id),
        hex_id(span.span_id),
        hex_id(span.parent_span_id),
    )
    try:
        is_outcome = not span.parent_span_id or value(attributes, MARKED) is True
        if not (failed or is_outcome):
            return None
        event = {kv.key: kv.value for kv in exception.attributes} if exception else {}
        _ids_check(span)
        common = _common(span, attributes, inherited)
        failure = success = None
        if failed:
            failure = _outcome(
                common, trace, span_id, "failure", _failure_context(span, attributes, event)
            )
        if is_outcome and not errored:
            success = _outcome(common, trace, span_id, "success", {})
        fault = _fault(event) if exception is not None else ""
    except Unusable as exc:
        return Mapped(trace, span_id, parent, problem=str(exc), reason=exc.reason)
    return Mapped(
        trace, span_id, parent, failure, success, is_outcome, fault, inherited["agent_span"]
    )


def refusal_explain(errors: dict[str, list[str]]) -> tuple[str, str]:
    """The ledger's errors of a span's outcome, naming the attributes they come from; and the
    reason they group under (the attributes, no values)."""
    sources = [SOURCES.get(field, field) for field in errors]
    return (
        "; ".join(
            f"{source}: {messages[0]}"
            for source, messages in zip(sources, errors.values(), strict=True)
        ),
        "invalid " + ", ".join(source.split(" (")[0] for source in sources),
    )


def _ids_check(span: Span) -> None:
    if not span.trace_id.strip(b"\x00") or not span.span_id.strip(b"\x00"):
        raise Unusable(
            "the span has no trace id or span id; OTLP requires both (each event's "
            "id is derived from them).",
            "no trace or span id",
        )


def _fault(event: dict) -> str:
    """What makes two exception events one fault: the exception's type and message."""
    both = f"{text(event, EXCEPTION_TYPE)}\x00{text(event, EXCEPTION_MESSAGE)}"
    return hashlib.blake2b(both.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _common(span: Span, attributes: dict, inherited: dict) -> dict:
    agent = text(attributes, AGENT) or inherited["agent"]
    if not agent:
        raise Unusable(
            f"no agent: set the {AGENT} attribute, or the service name (OTEL_SERVICE_NAME).",
            "no agent",
        )
    task = (
        text(attributes, TASK)
        or inherited["task"]
        or text(attributes, CONVERSATION)
        or inherited["conversation"]
        or hex_id(span.trace_id)
    )
    if not span.end_time_unix_nano:
        raise Unusable("the span has no end time.", "no end time")
    task_type = (
        text(attributes, TASK_TYPE)
        or _operation_task(text(attributes, OPERATION), span.name.strip())[:MAX_TASK_TYPE]
    )
    common = {
        "agent": agent,
        "task_id": task,
        "task_type": task_type,
        "occurred_at": _moment(span.end_time_unix_nano),
        **_versions(attributes, inherited.get("resource", {})),
    }
    if span.start_time_unix_nano:
        common["duration_ms"] = (span.end_time_unix_nano - span.start_time_unix_nano) // 1_000_000
    files = value(attributes, FILES)
    if files is not None:
        common["context"] = {"files": [files] if isinstance(files, str) else files}
    return common


def _versions(attributes: dict, resource: dict) -> dict:
    """The release, model and prompt version of a span's outcomes (those it names)."""
    found = {
        "release": text(resource, RELEASE),
        "model": text(attributes, REQUEST_MODEL) or text(attributes, RESPONSE_MODEL),
        "prompt_version": text(attributes, PROMPT_VERSION) or text(resource, PROMPT_VERSION),
    }
    return {name: named for name, named in found.items() if named}


def _operation_task(operation: str, name: str) -> str:
    """``gen_ai.operation.name`` with the span name (GenAI span names often start with it)."""
    if not operation or name == operation or name.startswith(f"{operation} "):
        return name or operation
    return f"{operation} {name}"


def _failure_context(span: Span, attributes: dict, event: dict) -> dict:
    error_type = text(attributes, ERROR_TYPE) or text(event, EXCEPTION_TYPE)
    message = (
        text(event, EXCEPTION_MESSAGE)
        or span.status.message
        or error_type
        or f"{span.name} failed"
    )
    context = {"error_message": message}
    if error_type:
        context["error_type"] = error_type
    for name, key in FAILURE_ATTRIBUTES.items():
        found = value(attributes, name)
        if found is None:
            continue
        if key == "side_effects" and isinstance(found, str):
            found = [found]
        elif key == "checkpoint" and isinstance(found, str):
            found = json_object(found, name)
        context[key] = found
    return context


def _outcome(common: dict, trace: str, span_id: str, kind: str, failure: dict) -> dict:
    context = {**common.get("context", {}), **failure}
    return {
        **common,
        "outcome": kind,
        "context": context,
        "event_id": str(uuid.uuid5(_EVENT_NAMESPACE, f"{trace}:{span_id}:{kind}")),
    }


def _moment(unix_nano: int) -> str:
    try:
        moment = _EPOCH + timedelta(microseconds=unix_nano // 1000)
    except OverflowError:
        raise Unusable("the span's end time is out of range.", "end time out of range") from None
    return moment.isoformat(timespec="microseconds")  # one width: the strings sort as times
