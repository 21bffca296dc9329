"""Outcome endpoints: record many at once, the history context for a prompt, insights and stats.
(Recording one: answers.views, as a failed outcome's answer carries its failure's lessons.)"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.agents import writer_of
from config.api.docs import READ_ERRORS, WRITE_ERRORS, error_responses
from config.api.errors import PayloadTooLarge
from config.api.fields import ScrubbedCharField
from config.api.renderers import FormatNegotiation, MarkdownRenderer
from config.errors import InvalidInput, fields_message

from .history import HistoryQuery, history_context
from .insights import outcome_insights, outcome_stats
from .services import outcomes_parse, outcomes_record
from .validation import MAX_FILES, MAX_PATH, OutcomeInputSerializer

BulkItem = inline_serializer(
    "BulkOutcomeResult",
    many=True,
    fields={
        "index": serializers.IntegerField(),
        "status": serializers.ChoiceField(
            ["created", "replayed", "invalid", "conflict", "forbidden"]
        ),
        "id": serializers.IntegerField(required=False),
        "failure_id": serializers.IntegerField(required=False, allow_null=True),
        "pattern_id": serializers.IntegerField(required=False, allow_null=True),
        "resolved_failures": serializers.IntegerField(required=False),
        "error": serializers.CharField(required=False),
        "fields": serializers.DictField(required=False),
    },
)


class OutcomesBulkApi(APIView):
    """Record up to HINDSIGHT_BULK_MAX_ITEMS outcomes in one transaction, answered per item:
    invalid items, and items for agents the key is not bound to ("forbidden"), are reported
    and skipped; the others are all stored or none."""

    body_limit_setting = "HINDSIGHT_MAX_BULK_BODY_BYTES"
    throttle_scope = "bulk"  # its own budget per key (config.api.throttling)
    checks_json_per_item = True  # outcome_parse names bad text, numbers and nesting per item

    @extend_schema(
        operation_id="outcomes_record_bulk",
        request=inline_serializer("BulkOutcomes", {"outcomes": OutcomeInputSerializer(many=True)}),
        responses={
            200: inline_serializer(
                "BulkOutcomesRecorded",
                {
                    "created": serializers.IntegerField(),
                    "replayed": serializers.IntegerField(),
                    "invalid": serializers.IntegerField(),
                    "conflict": serializers.IntegerField(),
                    "forbidden": serializers.IntegerField(),
                    "results": BulkItem,
                },
            ),
            **error_responses(*WRITE_ERRORS),
        },
    )
    def post(self, request):
        raw = _bulk_items(request.data)
        parsed = outcomes_parse(raw_items=raw)
        valid = {index: item for index, (item, _) in enumerate(parsed) if item is not None}
        answers = outcomes_record(items=list(valid.values()), writer=writer_of(request.auth))
        recorded = dict(zip(valid, answers, strict=True))  # one answer per item, in order
        results = [_bulk_result(i, recorded.get(i), parsed[i][1]) for i in range(len(raw))]
        counts = {
            key: sum(r["status"] == key for r in results)
            for key in ("created", "replayed", "invalid", "conflict", "forbidden")
        }
        return Response({**counts, "results": results})


def _bulk_items(data) -> list:
    limit = settings.HINDSIGHT_BULK_MAX_ITEMS
    items = data.get("outcomes") if isinstance(data, dict) else None
    unknown = sorted(set(data) - {"outcomes"}) if isinstance(data, dict) else []
    if unknown:
        raise InvalidInput.from_fields({name: ["Unknown field."] for name in unknown})
    if isinstance(items, list) and len(items) > limit:
        raise PayloadTooLarge(
            f"{len(items)} outcomes in one request; at most {limit} are "
            "taken (HINDSIGHT_BULK_MAX_ITEMS): send them in several."
        )
    if not isinstance(items, list) or not items:
        raise InvalidInput.from_fields(
            {"outcomes": [f"Expected a list of 1 to {limit} outcomes."]}
        )
    return items


def _bulk_result(index: int, recorded, errors: dict) -> dict:
    if recorded is None:
        return {
            "index": index,
            "status": "invalid",
            "error": fields_message(errors),
            "fields": errors,
        }
    if recorded.status == "conflict":
        return {"index": index, "status": "conflict", "error": recorded.message}
    if recorded.status == "forbidden":
        return {
            "index": index,
            "status": "forbidden",
            "error": recorded.message,
            "fields": recorded.fields,
        }
    outcome = recorded.outcome
    return {
        "index": index,
        "status": recorded.status,
        "id": outcome.pk,
        "failure_id": outcome.failure_id,
        "pattern_id": outcome.pattern_id,
        "resolved_failures": outcome.resolved_failures,
    }


class OutcomeHistoryApi(APIView):
    """The task-history context for an agent's prompt (JSON, or ``?format=markdown``)."""

    renderer_classes = [JSONRenderer, MarkdownRenderer]
    content_negotiation_class = FormatNegotiation

    class Input(serializers.Serializer):
        agent = ScrubbedCharField(max_length=100)
        task_type = ScrubbedCharField(max_length=100, required=False, default="")
        task_id = ScrubbedCharField(max_length=200, required=False, default="")
        files = serializers.ListField(
            child=ScrubbedCharField(max_length=MAX_PATH),
            required=False,
            max_length=MAX_FILES,
            default=list,
            help_text="Comma-separated, or the parameter repeated.",
        )
        error_type = ScrubbedCharField(max_length=100, required=False, default="")
        error_message = ScrubbedCharField(max_length=2000, required=False, default="")
        budget_tokens = serializers.IntegerField(
            min_value=1,
            max_value=100_000,
            required=False,
            help_text="Tokens estimated as characters / 4.",
        )

    @extend_schema(
        operation_id="outcomes_history",
        parameters=[Input],
        responses={
            (200, "application/json"): inline_serializer(
                "HistoryContext",
                {
                    "historyContext": serializers.CharField(),
                    "historyTokens": serializers.IntegerField(),
                    "metadata": serializers.DictField(),
                },
            ),
            (200, "text/markdown"): OpenApiResponse(str, description="The history markdown."),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        params = request.query_params.copy()
        params.setlist(
            "files",
            [
                part
                for value in params.getlist("files")
                for part in value.split(",")
                if part.strip()
            ],
        )
        query = self.Input(data=params)
        query.is_valid(raise_exception=True)
        answer = history_context(
            HistoryQuery(**{**query.validated_data, "files": tuple(query.validated_data["files"])})
        )
        if request.accepted_renderer.format == "markdown":
            return Response(answer["historyContext"])
        return Response(answer)


class OutcomeInsightsApi(APIView):
    """The seed's learnFromPastOutcomes: what works and what fails for a task type."""

    class Input(serializers.Serializer):
        task_type = ScrubbedCharField(max_length=100, required=False)
        agent = ScrubbedCharField(max_length=100, required=False)
        limit = serializers.IntegerField(min_value=1, max_value=1000, default=50)

    @extend_schema(
        operation_id="outcomes_insights",
        parameters=[Input],
        responses={
            200: inline_serializer(
                "OutcomeInsights",
                {
                    "task_type": serializers.CharField(allow_null=True),
                    "agent": serializers.CharField(allow_null=True),
                    "total_outcomes": serializers.IntegerField(),
                    "success_count": serializers.IntegerField(),
                    "failure_count": serializers.IntegerField(),
                    "success_rate": serializers.FloatField(),
                    "avg_duration_ms": serializers.IntegerField(allow_null=True),
                    "context_patterns": serializers.DictField(),
                    "success_patterns": serializers.ListField(child=serializers.CharField()),
                    "failure_patterns": serializers.ListField(child=serializers.CharField()),
                    "recommendations": serializers.ListField(child=serializers.CharField()),
                },
            ),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        query = self.Input(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(outcome_insights(**query.validated_data))


class OutcomeStatsApi(APIView):
    """Success rate by agent and task type since a moment (default: the last 7 days)."""

    class Input(serializers.Serializer):
        since = serializers.DateTimeField(required=False)

    @extend_schema(
        operation_id="outcomes_stats",
        parameters=[Input],
        responses={
            200: inline_serializer(
                "OutcomeStats",
                {
                    "since": serializers.DateTimeField(),
                    "rows": inline_serializer(
                        "OutcomeStatsRow",
                        many=True,
                        fields={
                            "agent": serializers.CharField(),
                            "task_type": serializers.CharField(),
                            "total": serializers.IntegerField(),
                            "successes": serializers.IntegerField(),
                            "success_rate": serializers.FloatField(),
                        },
                    ),
                },
            ),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        query = self.Input(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = query.validated_data.get("since") or timezone.now() - timedelta(days=7)
        return Response({"since": since, "rows": outcome_stats(since=since)})
