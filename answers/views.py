"""The two record endpoints whose answers span the apps: a failure, or an outcome that failed,
answers with its pattern, retry advice, the lessons that match it, its root cause and the release
it is new in (answers.failures composes that answer). The failures list shares its URL with the
failure record, so it is answered here too."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.failures import FailureAnswer, failure_answer
from answers.outcomes import OutcomeAnswer, outcome_answer
from answers.services import failure_report, failure_report_check
from config.api.agents import writer_of
from config.api.docs import READ_ERRORS, WRITE_ERRORS, error_responses
from config.api.fields import SafeCharField
from config.api.idempotency import idempotent_response, replay_headers
from config.api.renderers import FormatNegotiation, MarkdownRenderer
from config.errors import Conflict, Forbidden, InvalidInput
from failures.records.markdown import failures_section
from failures.records.selectors import failure_list
from failures.records.serializers import FailureInputSerializer, FailureOutputSerializer
from outcomes.services import outcomes_parse, outcomes_record
from outcomes.validation import OutcomeInputSerializer


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


class OutcomesApi(APIView):
    """Record one outcome; a failure with an error message also becomes a failure record, a
    success closes the task's open failures."""

    @extend_schema(
        operation_id="outcomes_record",
        request=OutcomeInputSerializer,
        responses={201: OutcomeAnswer, **error_responses(*WRITE_ERRORS)},
    )
    def post(self, request):
        [(item, errors)] = outcomes_parse(raw_items=[request.data])
        if item is None:  # refused: the errors say why
            raise InvalidInput.from_fields(errors)
        [recorded] = outcomes_record(items=[item], writer=writer_of(request.auth))
        if recorded.status == "forbidden":
            assert recorded.fields is not None  # a refusal names its field
            raise Forbidden.from_fields(recorded.fields)
        if recorded.status == "conflict":
            raise Conflict(recorded.message)
        assert recorded.outcome is not None  # created or replayed: the stored outcome
        return Response(
            outcome_answer(recorded.outcome),
            status=201,
            headers=replay_headers(recorded.status == "replayed"),
        )
