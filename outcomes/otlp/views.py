"""POST /v1/traces: OTLP/HTTP trace export, answered as the OTLP specification says.

Authentication, scopes, keys bound to agents, the bulk throttle and the bulk body limit are the
REST API's own. Every answer is encoded like the request: an ExportTraceServiceResponse (with
``partial_success`` when spans were refused), or for an error a google.rpc.Status with the
error's HTTP status (and ``Retry-After`` on a 429 or 503).
"""

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.parsers import BaseParser
from rest_framework.views import APIView

from config.api.agents import writer_of
from config.api.errors import PayloadTooLarge
from config.api.middleware import body_limit
from config.scrubbing import scrubbed

from .decoding import (
    JSON,
    MEDIA_TYPES,
    PROTOBUF,
    TooLarge,
    Undecodable,
    body_inflate,
    message_encode,
    request_decode,
    response_of,
    status_of,
)
from .services import traces_record

# An error message quotes at most this much of a decoder's complaint.
MAX_ERROR_CHARS = 500


class _OtlpParser(BaseParser):
    """A body of the parser's media type, gzip or not, decoded to an ExportTraceServiceRequest."""

    def parse(self, stream, media_type=None, parser_context=None):
        context = parser_context or {}
        limit = body_limit(context.get("view"))
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(f"Request body is larger than {limit} bytes.")
        encoding = context["request"].META.get("HTTP_CONTENT_ENCODING", "")
        try:
            return request_decode(body_inflate(raw, encoding, limit=limit), self.media_type)
        except TooLarge as exc:
            raise PayloadTooLarge(str(exc)) from None
        except Undecodable as exc:
            raise ParseError(scrubbed(str(exc), MAX_ERROR_CHARS)) from None


class ProtobufParser(_OtlpParser):
    media_type = PROTOBUF


class OtlpJsonParser(_OtlpParser):
    media_type = JSON


def _media_type(request) -> str | None:
    """The request's media type when it is one of MEDIA_TYPES."""
    media_type = request.content_type.split(";")[0].strip().lower()
    return media_type if media_type in MEDIA_TYPES else None


def _spans_check(export) -> None:
    """More spans than HINDSIGHT_OTLP_MAX_SPANS are refused whole: a request must end within the
    worker's timeout."""
    limit = settings.HINDSIGHT_OTLP_MAX_SPANS
    count = sum(
        len(scope.spans) for resource in export.resource_spans for scope in resource.scope_spans
    )
    if count > limit:
        raise PayloadTooLarge(
            f"{count} spans in one export; at most {limit} are taken "
            "(HINDSIGHT_OTLP_MAX_SPANS): lower the exporter's batch size "
            "(OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512 by default)."
        )


class TracesApi(APIView):
    """Spans of instrumented agents: failed spans become failures, root spans (and spans
    marked ``hindsight.outcome``) outcomes; see outcomes.otlp.mapping."""

    parser_classes = [ProtobufParser, OtlpJsonParser]
    body_limit_setting = "HINDSIGHT_MAX_BULK_BODY_BYTES"
    throttle_scope = "bulk"  # the budget of POST /outcomes/bulk

    # The OTLP specification documents this endpoint: its bodies are OTLP messages, and its
    # errors google.rpc.Status, not the REST API's JSON shapes.
    @extend_schema(exclude=True)
    def post(self, request):
        media_type = _media_type(request)
        if media_type is None:
            raise UnsupportedMediaType(
                request.content_type[:100] or "none",
                detail=f"Send {PROTOBUF} or {JSON} (OTLP/HTTP).",
            )
        export = request.data
        if not isinstance(export, ExportTraceServiceRequest):  # no body: no parser was called
            if media_type == JSON:
                raise ParseError("Request body is empty; send an OTLP/JSON trace export.")
            export = ExportTraceServiceRequest()  # the empty export, in protobuf
        _spans_check(export)
        exported = traces_record(export=export, writer=writer_of(request.auth))
        return HttpResponse(
            message_encode(response_of(exported.rejected, exported.message), media_type),
            content_type=media_type,
        )

    def handle_exception(self, exc):
        """The API's answer to ``exc`` (status and headers), its body a google.rpc.Status."""
        answer = super().handle_exception(exc)
        response = self.refusal(self.request, answer.status_code, answer.data["error"])
        for header in ("Retry-After", "WWW-Authenticate"):
            if header in answer:
                response[header] = answer[header]
        return response

    @staticmethod
    def refusal(request, status: int, message: str) -> HttpResponse:
        """An error answer: a google.rpc.Status in the request's encoding (JSON for another);
        also the body-size middleware's (config.api.middleware.refusal)."""
        media_type = _media_type(request) or JSON
        return HttpResponse(
            message_encode(status_of(status, message), media_type),
            status=status,
            content_type=media_type,
        )
