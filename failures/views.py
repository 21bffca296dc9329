"""Failure endpoints: record (answering with pattern, advice and lessons), list, resolve."""
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.docs import READ_ERRORS, WRITE_ERRORS, error_responses
from config.api.fields import SafeCharField, ScrubbedCharField
from config.api.idempotency import replay_headers
from config.api.renderers import FormatNegotiation, MarkdownRenderer
from config.api.serializers import StrictInputSerializer
from lessons.serializers import check_answer_fields

from .answers import failure_report
from .markdown import failures_section
from .selectors import failure_list
from .serializers import FailureInputSerializer, FailureOutputSerializer, PatternRefSerializer
from .services import failures_resolve

FailureAnswer = inline_serializer("FailureRecorded", {
    "id": serializers.IntegerField(), "status": serializers.CharField(),
    "pattern": PatternRefSerializer(),
    "retry_advice": inline_serializer("RetryAdvice", {
        "retryable": serializers.BooleanField(allow_null=True),
        "after_seconds": serializers.IntegerField(allow_null=True),
        "reason": serializers.CharField()}),
    **check_answer_fields(),
    "root_cause": inline_serializer("FailureRootCause", allow_null=True, fields={
        "group": serializers.IntegerField(),
        "status": serializers.ChoiceField(["suggested", "confirmed"]),
        "with": PatternRefSerializer(many=True, help_text="The other symptoms of the cause."),
        "agents": serializers.IntegerField(help_text="Agents in its latest joint burst."),
        "since": serializers.DateTimeField(allow_null=True,
                                           help_text="When its latest joint burst began."),
        "note": serializers.CharField()},
        help_text="The open root-cause group of this failure's pattern: its symptoms started and "
                  "stopped together across agents. Null when it belongs to none."),
})


class FailuresApi(APIView):
    """``POST`` records a failure; ``GET`` lists them (JSON, or ``?format=markdown``)."""

    renderer_classes = [JSONRenderer, MarkdownRenderer]
    content_negotiation_class = FormatNegotiation

    class ListInput(serializers.Serializer):
        cursor = SafeCharField(max_length=200, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=500, default=50)
        agent = serializers.CharField(required=False)
        task = serializers.CharField(required=False)
        task_type = serializers.CharField(required=False)
        error_type = serializers.CharField(required=False)
        pattern = serializers.IntegerField(required=False)
        status = serializers.ChoiceField(["open", "resolved", "abandoned"], required=False)
        since = serializers.DateTimeField(required=False)

    def get_renderers(self):
        # Only the list has a markdown form; a recorded failure is answered in JSON.
        request = getattr(self, "request", None)
        if request is not None and request.method not in ("GET", "HEAD"):
            return [JSONRenderer()]
        return super().get_renderers()

    @extend_schema(operation_id="failures_list", parameters=[ListInput], responses={
        (200, "application/json"): inline_serializer("FailurePage", {
            "failures": FailureOutputSerializer(many=True),
            "next_cursor": serializers.CharField(allow_null=True)}),
        (200, "text/markdown"): OpenApiResponse(str, description="The seed's ## Failures section."),
        **error_responses(*READ_ERRORS)})
    def get(self, request):
        query = self.ListInput(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = failure_list(filters=request.query_params, cursor=query.validated_data.get("cursor"),
                            limit=query.validated_data["limit"])
        if request.accepted_renderer.format == "markdown":
            return Response(failures_section(f.__dict__ for f in page.items))
        return Response({"failures": FailureOutputSerializer(page.items, many=True).data,
                         "next_cursor": page.next_cursor})

    @extend_schema(operation_id="failures_record", request=FailureInputSerializer,
                   responses={201: FailureAnswer, **error_responses(*WRITE_ERRORS)})
    def post(self, request):
        data = FailureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        status, body, replayed = failure_report(**data.validated_data, payload=request.data,
                                                api_key=request.auth)
        return Response(body, status=status, headers=replay_headers(replayed))


class FailuresResolveApi(APIView):
    """Close an agent's open failures of a task: after a success, or when giving up on it."""

    class Input(StrictInputSerializer):
        agent = ScrubbedCharField(max_length=100)
        task = ScrubbedCharField(max_length=200)
        status = serializers.ChoiceField(["resolved", "abandoned"], default="resolved")

    @extend_schema(operation_id="failures_resolve", request=Input, responses={
        200: inline_serializer("FailuresResolved", {"resolved": serializers.IntegerField(),
                                                    "status": serializers.CharField()}),
        **error_responses(400, 401, 403, 413)})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        closed = failures_resolve(**data.validated_data, api_key=request.auth)
        return Response({"resolved": closed, "status": data.validated_data["status"]})
