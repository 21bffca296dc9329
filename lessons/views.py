"""Lesson endpoints: record, check, list and fetch. Each view parses, calls one service or selector
and shapes the answer."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.agents import writer_of
from config.api.docs import READ_ERRORS, WRITE_ERRORS, error_responses
from config.api.fields import EventTimeField, JSONObjectField, ScrubbedCharField
from config.api.idempotency import idempotent_response
from config.api.serializers import StrictInputSerializer
from failures.records.selectors import failure_named

from .selectors import lesson_check, lesson_get, lesson_list
from .serializers import (
    ApplicationRecordedSerializer,
    LessonCreatedSerializer,
    LessonOutputSerializer,
    LessonUpdatedSerializer,
    check_answer_fields,
    check_answer_json,
)
from .services import LessonRecorded, application_report, application_report_check, lesson_record

# Wordings of one fault an agent may send with a lesson: libraries word a fault a handful of ways.
MAX_SAMPLE_MESSAGES = 10


class LessonsApi(APIView):
    """``GET`` lists lessons (filtered, paged); ``POST`` records one or counts an occurrence."""

    class RecordInput(StrictInputSerializer):
        error_pattern = ScrubbedCharField(max_length=200)
        error_type = ScrubbedCharField(max_length=100)
        resolution = ScrubbedCharField(max_length=20_000)
        skill_name = ScrubbedCharField(max_length=100, required=False, allow_null=True)
        context = JSONObjectField(required=False)  # type: ignore[assignment]  # DRF's metaclass moves declared fields off the class, so the API's field name shadows nothing (djangorestframework-stubs#158)
        resolution_code = ScrubbedCharField(
            max_length=100_000, required=False, allow_null=True, trim_whitespace=False
        )
        error_message = ScrubbedCharField(
            max_length=20_000,
            required=False,
            trim_whitespace=False,
            help_text=(
                "A sample error message; links the lesson to its failure pattern (at once "
                "when the lesson's writer sends it, else once enough keys did)."
            ),
        )
        error_messages = serializers.ListField(  # type: ignore[assignment]  # DRF's metaclass moves declared fields off the class, so the API's field name shadows nothing (djangorestframework-stubs#158)
            child=ScrubbedCharField(max_length=20_000, trim_whitespace=False),
            max_length=MAX_SAMPLE_MESSAGES,
            required=False,
            help_text=f"Up to {MAX_SAMPLE_MESSAGES} other wordings of the error; each links the "
            "lesson to its failure pattern, as error_message does.",
        )
        event_id = serializers.UUIDField(required=False)

    class ListInput(serializers.Serializer):
        page = serializers.IntegerField(min_value=1, max_value=1_000_000, default=1)
        per_page = serializers.IntegerField(min_value=1, max_value=100, default=25)
        error_type = serializers.CharField(required=False)
        skill_name = serializers.CharField(required=False)
        status = serializers.ChoiceField(["unverified", "approved", "rejected"], required=False)
        source = serializers.ChoiceField(["agent", "human", "seed"], required=False)  # type: ignore[assignment]  # DRF's metaclass moves declared fields off the class, so the API's field name shadows nothing (djangorestframework-stubs#158)
        min_effectiveness = serializers.FloatField(required=False, min_value=0, max_value=1)
        since = serializers.DateTimeField(
            required=False, help_text="Occurred at or after (ISO 8601)."
        )
        q = serializers.CharField(required=False, help_text="Text search.")

    @extend_schema(
        operation_id="lessons_list",
        parameters=[ListInput],
        responses={
            200: inline_serializer(
                "LessonPage",
                {
                    "lessons": LessonOutputSerializer(many=True),
                    "total": serializers.IntegerField(),
                    "page": serializers.IntegerField(),
                    "per_page": serializers.IntegerField(),
                },
            ),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        paging = self.ListInput(data=request.query_params)
        paging.is_valid(raise_exception=True)
        page, per_page = paging.validated_data["page"], paging.validated_data["per_page"]
        lessons = lesson_list(filters=request.query_params)
        start = (page - 1) * per_page
        return Response(
            {
                "lessons": LessonOutputSerializer(
                    lessons[start : start + per_page], many=True
                ).data,
                "total": lessons.count(),
                "page": page,
                "per_page": per_page,
            }
        )

    @extend_schema(
        operation_id="lessons_record",
        request=RecordInput,
        responses={
            201: LessonCreatedSerializer,
            200: LessonUpdatedSerializer,
            **error_responses(*WRITE_ERRORS),
        },
    )
    def post(self, request):
        data = self.RecordInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        event_id = fields.pop("event_id", None)
        return idempotent_response(
            operation="lesson_record",
            event_id=event_id,
            payload=request.data,
            answer=lambda: _recorded_answer(
                lesson_record(
                    **fields, proposed_by=request.auth.name, writer=writer_of(request.auth)
                )
            ),
        )


def _recorded_answer(recorded: LessonRecorded) -> tuple[int, dict]:
    """201 for a new lesson; 200 for one more occurrence."""
    if recorded.created:
        return 201, LessonCreatedSerializer(recorded).data
    return 200, LessonUpdatedSerializer(recorded).data


CheckAnswer = inline_serializer("LessonCheck", check_answer_fields())


class LessonCheckApi(APIView):
    """Known resolutions for an error: lessons that match it, best first, and apart those that
    share only its type. ``GET`` takes the query in the URL; ``POST`` takes the same query as a
    JSON body, which keeps the error message out of URLs and access logs. Both are reads: a read
    key may post a check, and it counts against the read budget. A check needs an error_type or
    an error_message."""

    post_reads = True  # config.api.permissions.request_reads

    class CheckInput(serializers.Serializer):
        error_type = ScrubbedCharField(max_length=100, required=False)
        skill_name = ScrubbedCharField(max_length=100, required=False)
        error_message = ScrubbedCharField(max_length=10_000, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=50, default=5)

        def validate(self, attrs):
            if not attrs.get("error_type") and not attrs.get("error_message"):
                needed = "Give error_type or error_message (or both)."
                raise serializers.ValidationError(
                    {"error_type": [needed], "error_message": [needed]}
                )
            return attrs

    @extend_schema(
        operation_id="lessons_check",
        parameters=[CheckInput],
        responses={200: CheckAnswer, **error_responses(*READ_ERRORS)},
    )
    def get(self, request):
        return self.answer(request.query_params)

    @extend_schema(
        operation_id="lessons_check_post",
        request=CheckInput,
        responses={200: CheckAnswer, **error_responses(*READ_ERRORS, 413)},
    )
    def post(self, request):
        return self.answer(request.data)

    def answer(self, data) -> Response:
        query = self.CheckInput(data=data)
        query.is_valid(raise_exception=True)
        return Response(check_answer_json(lesson_check(**query.validated_data)))


class LessonDetailApi(APIView):
    """One lesson."""

    @extend_schema(
        operation_id="lessons_get",
        responses={200: LessonOutputSerializer, **error_responses(401, 404)},
    )
    def get(self, request, lesson_id):
        return Response(LessonOutputSerializer(lesson_get(lesson_id=lesson_id)).data)


class LessonApplicationsApi(APIView):
    """Report that a lesson was applied and whether it worked; effectiveness is measured from
    these reports."""

    class ApplicationInput(StrictInputSerializer):
        worked = serializers.BooleanField()
        agent = ScrubbedCharField(max_length=100, required=False, default="")
        task_id = ScrubbedCharField(max_length=200, required=False, default="")
        failure_id = serializers.IntegerField(
            required=False, min_value=1, help_text="The failure the lesson was applied to."
        )
        applied_at = EventTimeField(required=False)
        event_id = serializers.UUIDField(required=False)

        def validate_worked(self, value):
            if not isinstance(self.initial_data.get("worked"), bool):
                raise serializers.ValidationError("Must be true or false.")
            return value

    @extend_schema(
        operation_id="lessons_applications_record",
        request=ApplicationInput,
        responses={
            201: ApplicationRecordedSerializer,
            **error_responses(400, 401, 403, 404, 409, 413),
        },
    )
    def post(self, request, lesson_id):
        lesson = lesson_get(lesson_id=lesson_id)
        data = self.ApplicationInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        failure_id = fields.pop("failure_id", None)
        failure = failure_named(failure_id=failure_id) if failure_id else None
        event_id = fields.pop("event_id", None)
        application_report_check(
            agent=fields["agent"], failure=failure, writer=writer_of(request.auth)
        )
        return idempotent_response(
            operation="application_record",
            event_id=event_id,
            payload=request.data,
            answer=lambda: (
                201,
                ApplicationRecordedSerializer(
                    application_report(
                        lesson=lesson, failure=failure, writer=writer_of(request.auth), **fields
                    )
                ).data,
            ),
        )
