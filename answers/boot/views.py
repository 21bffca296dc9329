"""The boot endpoint: what an agent should know when it starts, as JSON or prompt-ready
markdown."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.boot.composer import boot_context_build
from answers.boot.markdown import boot_markdown
from config.api.docs import error_responses
from config.api.fields import ScrubbedCharField
from config.api.renderers import FormatNegotiation, MarkdownRenderer
from failures.records.serializers import PatternRefSerializer, root_cause_fields


class BootLessonSerializer(serializers.Serializer):
    """A lesson in the briefing's hints (documentation only)."""

    id = serializers.UUIDField()
    error_pattern = serializers.CharField()
    resolution = serializers.CharField()
    effectiveness = serializers.FloatField()
    match = serializers.CharField()


_Advice: dict[str, serializers.Field] = {
    "retryable": serializers.BooleanField(allow_null=True),
    "after_seconds": serializers.IntegerField(allow_null=True),
    "reason": serializers.CharField(),
}

BootBriefing = inline_serializer(
    "BootBriefing",
    {
        "agent": serializers.CharField(),
        "task_type": serializers.CharField(allow_null=True),
        "scope": serializers.CharField(),
        "generated_at": serializers.DateTimeField(),
        "window_hours": serializers.IntegerField(),
        "skip_after": serializers.IntegerField(),
        "skip": inline_serializer(
            "BootSkip",
            many=True,
            fields={
                "task": serializers.CharField(),
                "task_type": serializers.CharField(),
                "pattern": PatternRefSerializer(),
                "failures": serializers.IntegerField(),
                "last_failed_at": serializers.DateTimeField(),
                "skip_until": serializers.DateTimeField(),
                "why": serializers.CharField(),
            },
        ),
        "resume": inline_serializer(
            "BootResume",
            many=True,
            fields={
                "task": serializers.CharField(),
                "failure_id": serializers.IntegerField(),
                "occurred_at": serializers.DateTimeField(),
                "checkpoint": serializers.JSONField(),
                "side_effects": serializers.JSONField(),
                "error": serializers.CharField(),
                "attempt_count": serializers.IntegerField(),
            },
        ),
        "hints": inline_serializer(
            "BootHints",
            many=True,
            fields={
                "task": serializers.CharField(),
                "recovery_hints": serializers.ListField(child=serializers.CharField()),
                "lessons": BootLessonSerializer(
                    many=True, help_text="Approved lessons that match the error."
                ),
                "related": BootLessonSerializer(
                    many=True,
                    help_text=(
                        "Approved lessons that share only the error type: not a known resolution."
                    ),
                ),
            },
        ),
        "loops": inline_serializer(
            "BootLoop",
            many=True,
            fields={
                "task": serializers.CharField(),
                "kind": serializers.ChoiceField(["repeat", "alternating"]),
                "length": serializers.IntegerField(),
                "patterns": PatternRefSerializer(many=True),
                "since": serializers.DateTimeField(),
            },
        ),
        "root_causes": inline_serializer(
            "BootRootCause",
            many=True,
            fields={
                **root_cause_fields(),
                "patterns": PatternRefSerializer(
                    many=True, help_text="The symptoms of the cause."
                ),
                "tasks": serializers.ListField(
                    child=serializers.CharField(),
                    help_text="This agent's open tasks that failed with it.",
                ),
            },
            help_text="Open root-cause groups of this agent's open tasks: symptoms that started "
            "and stopped together across agents, probably one cause.",
        ),
        "retry_advice": inline_serializer(
            "BootRetryAdvice",
            many=True,
            fields={
                "task": serializers.CharField(),
                "failure_id": serializers.IntegerField(),
                "pattern": PatternRefSerializer(),
                **_Advice,
            },
        ),
        "recent_failures": inline_serializer(
            "BootRecentFailure",
            many=True,
            fields={
                "id": serializers.IntegerField(),
                "occurred_at": serializers.DateTimeField(),
                "task": serializers.CharField(),
                "task_type": serializers.CharField(),
                "title": serializers.CharField(),
                "error_type": serializers.CharField(),
                "error": serializers.CharField(),
                "status": serializers.CharField(),
                "pattern_id": serializers.IntegerField(),
                "retry_safe": serializers.BooleanField(allow_null=True),
                "retry_after": serializers.IntegerField(allow_null=True),
                "attempt_count": serializers.IntegerField(),
            },
        ),
        "release": serializers.CharField(help_text="The release asked about (may be empty)."),
        "new_in_release": inline_serializer(
            "BootNewInRelease",
            many=True,
            fields={
                "pattern": PatternRefSerializer(),
                "failures": serializers.IntegerField(),
                "first_seen": serializers.DateTimeField(),
                "kind": serializers.CharField(),
                "name": serializers.CharField(),
                "previous": serializers.CharField(),
                "tasks_before": serializers.IntegerField(),
                "note": serializers.CharField(),
            },
            help_text="Patterns new in this release: seen in no earlier release, though the "
            "previous one ran enough of the same task types to have met them. Likely the "
            "release's own faults, not the environment's.",
        ),
        "fleet": inline_serializer(
            "BootFleetPattern",
            many=True,
            allow_null=True,
            fields={
                "pattern": PatternRefSerializer(),
                "agents": serializers.IntegerField(),
                "failures": serializers.IntegerField(),
                "last_seen": serializers.DateTimeField(),
                "recovery_hint": serializers.CharField(),
                "recovery_hint_agent": serializers.CharField(
                    help_text="The agent whose failure gave the hint (empty without a hint): an "
                    "agent's word, not reviewed by a human."
                ),
            },
        ),
    },
)


class BootApi(APIView):
    """The boot briefing: skip, resume, hints, loops, retry advice, recent and fleet failures."""

    renderer_classes = [JSONRenderer, MarkdownRenderer]
    content_negotiation_class = FormatNegotiation

    class Input(serializers.Serializer):
        agent = ScrubbedCharField(max_length=100)
        task_type = ScrubbedCharField(max_length=100, required=False)
        scope = serializers.ChoiceField(
            ["agent", "fleet"],
            default="agent",
            help_text="fleet adds other agents' failures of the same task types.",
        )
        # Up to 30 days back; a longer look is a report, not a briefing.
        window_hours = serializers.IntegerField(
            min_value=1, max_value=720, required=False, help_text="Recent failures window (hours)."
        )
        skip_after = serializers.IntegerField(
            min_value=2,
            max_value=100,
            required=False,
            help_text="Failures of one pattern before a task is skipped.",
        )
        release = ScrubbedCharField(
            max_length=100,
            required=False,
            default="",
            help_text="The release the agent runs: the briefing lists the patterns new in it.",
        )

    @extend_schema(
        operation_id="boot",
        parameters=[Input],
        responses={
            (200, "application/json"): BootBriefing,
            (200, "text/markdown"): OpenApiResponse(
                str, description="The briefing, prompt-ready."
            ),
            **error_responses(400, 401),
        },
    )
    def get(self, request):
        query = self.Input(data=request.query_params)
        query.is_valid(raise_exception=True)
        context = boot_context_build(**query.validated_data)
        if request.accepted_renderer.format == "markdown":
            return Response(boot_markdown(context))
        return Response(context)
