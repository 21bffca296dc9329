"""Failure endpoints: record (answering with pattern, advice and lessons), list, resolve."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.agents import writer_of
from config.api.docs import READ_ERRORS, WRITE_ERRORS, error_responses
from config.api.fields import SafeCharField, ScrubbedCharField
from config.api.idempotency import idempotent_response
from config.api.renderers import FormatNegotiation, MarkdownRenderer
from config.api.serializers import StrictInputSerializer
from failures.records.answers import (
    FailureAnswer,
    failure_answer,
    failure_report,
    failure_report_check,
)
from failures.records.markdown import failures_section
from failures.records.selectors import failure_list
from failures.records.serializers import FailureInputSerializer, FailureOutputSerializer
from failures.records.services import failures_resolve


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

    @extend_schema(
        operation_id="failures_list",
        parameters=[ListInput],
        responses={
            (200, "application/json"): inline_serializer(
                "FailurePage",
                {
                    "failures": FailureOutputSerializer(many=True),
                    "next_cursor": serializers.CharField(allow_null=True),
                },
            ),
            (200, "text/markdown"): OpenApiResponse(
                str, description="The seed's ## Failures section."
            ),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        query = self.ListInput(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = failure_list(
            filters=request.query_params,
            cursor=query.validated_data.get("cursor"),
            limit=query.validated_data["limit"],
        )
        if request.accepted_renderer.format == "markdown":
            return Response(failures_section(f.__dict__ for f in page.items))
        return Response(
            {
                "failures": FailureOutputSerializer(page.items, many=True).data,
                "next_cursor": page.next_cursor,
            }
        )

    @extend_schema(
        operation_id="failures_record",
        request=FailureInputSerializer,
        responses={201: FailureAnswer, **error_responses(*WRITE_ERRORS)},
    )
    def post(self, request):
        data = FailureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        event_id = fields.pop("event_id", None)
        failure_report_check(
            agent=fields["agent"],
            applied_lesson=fields.get("applied_lesson"),
            writer=writer_of(request.auth),
        )
        return idempotent_response(
            operation="failure_record",
            event_id=event_id,
            payload=request.data,
            answer=lambda: (
                201,
                failure_answer(failure_report(**fields, writer=writer_of(request.auth))),
            ),
        )


class FailuresResolveApi(APIView):
    """Close an agent's open failures of a task: after a success, or when giving up on it."""

    class Input(StrictInputSerializer):
        agent = ScrubbedCharField(max_length=100)
        task = ScrubbedCharField(max_length=200)
        status = serializers.ChoiceField(["resolved", "abandoned"], default="resolved")

    @extend_schema(
        operation_id="failures_resolve",
        request=Input,
        responses={
            200: inline_serializer(
                "FailuresResolved",
                {"resolved": serializers.IntegerField(), "status": serializers.CharField()},
            ),
            **error_responses(400, 401, 403, 413),
        },
    )
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        closed = failures_resolve(**data.validated_data, writer=writer_of(request.auth))
        return Response({"resolved": closed, "status": data.validated_data["status"]})
