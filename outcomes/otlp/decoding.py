"""OTLP/HTTP request and response bodies: binary protobuf or OTLP/JSON, gzip or not. No Django.

OTLP/JSON is the protobuf JSON mapping with two differences a plain ``json_format`` parse does not
know: trace and span ids are hex strings (not base64), and enums are sent as integers (which
``json_format`` already accepts).
"""

import base64
import binascii
import json
import zlib

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
MEDIA_TYPES = (PROTOBUF, JSON)
# Fields of a span (and of its links) that OTLP/JSON spells as hex.
_HEX_ID_FIELDS = ("traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id")


class Undecodable(ValueError):
    """The body is not an OTLP trace export request; the message says why."""


class TooLarge(ValueError):
    """The body, once decompressed, is larger than the limit."""


def body_inflate(raw: bytes, encoding: str, *, limit: int) -> bytes:
    """The body without its ``Content-Encoding`` (``gzip`` or none), at most ``limit`` bytes."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return raw
    if encoding != "gzip":
        raise Undecodable(
            f"Content-Encoding {encoding[:40]!r} is not supported; send gzip or none."
        )
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        body = inflater.decompress(raw, limit + 1)
    except zlib.error as exc:
        raise Undecodable(f"The gzip body cannot be decompressed: {exc}") from None
    if len(body) > limit:
        raise TooLarge(f"Request body is larger than {limit} bytes once decompressed.")
    if not inflater.eof:
        raise Undecodable("The gzip body is truncated.")
    return body


def request_decode(body: bytes, media_type: str) -> ExportTraceServiceRequest:
    """An ExportTraceServiceRequest from a body of ``media_type`` (one of MEDIA_TYPES)."""
    message = ExportTraceServiceRequest()
    if media_type == PROTOBUF:
        try:
            message.ParseFromString(body)
        except (DecodeError, RecursionError) as exc:
            raise Undecodable(f"The body is not an OTLP protobuf trace export: {exc}") from None
        return message
    try:
        document = json.loads(body)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise Undecodable(f"The body is not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise Undecodable("The body is not an OTLP/JSON trace export: expected a JSON object.")
    try:
        for span in _spans_of(document):
            _ids_to_base64(span)
            for link in span.get("links") or ():
                _ids_to_base64(link)
        json_format.ParseDict(document, message, ignore_unknown_fields=True)
    except (json_format.ParseError, Undecodable, TypeError, AttributeError, RecursionError) as exc:
        raise Undecodable(f"The body is not an OTLP/JSON trace export: {exc}") from None
    return message


def _spans_of(document: dict):
    for resource_spans in _list(document, "resourceSpans", "resource_spans"):
        for scope_spans in _list(resource_spans, "scopeSpans", "scope_spans"):
            yield from _list(scope_spans, "spans")


def _list(parent, *names) -> list:
    if not isinstance(parent, dict):
        raise Undecodable("expected a JSON object")
    for name in names:
        value = parent.get(name)
        if value is not None:
            if not isinstance(value, list):
                raise Undecodable(f"{name} must be a list")
            return value
    return []


def _ids_to_base64(item) -> None:
    if not isinstance(item, dict):
        raise Undecodable("expected a JSON object")
    for name in _HEX_ID_FIELDS:
        value = item.get(name)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise Undecodable(f"{name} must be a hex string")
        try:
            item[name] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
        except ValueError:
            raise Undecodable(f"{name} {value[:40]!r} is not hex") from None


def message_encode(message: Message, media_type: str) -> bytes:
    """A response message in the encoding of the request (protobuf unless JSON)."""
    if media_type == JSON:
        return json_format.MessageToJson(message, indent=None).encode("utf-8")
    return message.SerializeToString()


def response_of(rejected: int, message: str) -> ExportTraceServiceResponse:
    """The answer to an export: ``partial_success`` set only when spans were rejected."""
    response = ExportTraceServiceResponse()
    if rejected:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = message
    return response


# google.rpc.Code of an HTTP error status, for the Status body of an error answer.
_RPC_CODES = {
    400: 3,
    401: 16,
    403: 7,
    404: 5,
    405: 12,
    409: 10,
    411: 9,
    413: 8,
    415: 3,
    429: 8,
    503: 14,
}


def status_of(http_status: int, message: str) -> status_pb2.Status:
    """The google.rpc.Status body of an error answer."""
    return status_pb2.Status(code=_RPC_CODES.get(http_status, 2), message=message)


def hex_id(raw: bytes) -> str:
    """A trace or span id as OTLP/JSON and every trace viewer spell it."""
    return binascii.hexlify(raw).decode("ascii")
