"""GET /api/v1/releases: the releases (or models, or prompt versions) the agents ran, newest
first, with their health and the patterns new and gone in each."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.docs import READ_ERRORS, error_responses
from failures.models import Version
from failures.records.serializers import PatternRefSerializer
from failures.releases.selectors import releases_list

_PatternCount = {
    "pattern": PatternRefSerializer(),
    "failures": serializers.IntegerField(),
    "tasks_compared": serializers.IntegerField(
        help_text="Tasks of the pattern's task types the other release ran: the previous one "
        "for a new pattern (none met it), this one for a pattern gone."
    ),
}

ReleaseSerializer = inline_serializer(
    "Release",
    many=True,
    fields={
        "kind": serializers.ChoiceField(choices=Version.Kind.choices),
        "name": serializers.CharField(),
        "line": serializers.CharField(
            help_text="What comes before the name's last @ (coder@1.4.2: coder); releases of "
            "one line follow each other."
        ),
        "previous": serializers.CharField(allow_null=True),
        "first_seen": serializers.DateTimeField(),
        "last_seen": serializers.DateTimeField(),
        "tasks": serializers.IntegerField(help_text="Outcomes recorded with it."),
        "failed_tasks": serializers.IntegerField(),
        "success_rate": serializers.FloatField(allow_null=True),
        "failures": serializers.IntegerField(),
        "failures_per_100_tasks": serializers.FloatField(allow_null=True),
        "worse_than_previous": serializers.BooleanField(
            help_text="Its failed tasks exceed what the previous release's failure rate per "
            "task type predicts for its task mix (one-sided test at 1%)."
        ),
        "worse_z": serializers.FloatField(allow_null=True),
        "judged_at": serializers.DateTimeField(),
        "new_patterns": inline_serializer("ReleaseNewPattern", many=True, fields=_PatternCount),
        "gone_patterns": inline_serializer("ReleaseGonePattern", many=True, fields=_PatternCount),
    },
)


class ReleasesApi(APIView):
    """Releases, newest first, as the release job last judged them."""

    class Input(serializers.Serializer):
        kind = serializers.ChoiceField(Version.Kind.choices, default=Version.Kind.RELEASE)
        limit = serializers.IntegerField(min_value=1, max_value=200, default=50)

    @extend_schema(
        operation_id="releases_list",
        parameters=[Input],
        responses={
            200: inline_serializer(
                "Releases", {"kind": serializers.CharField(), "results": ReleaseSerializer}
            ),
            **error_responses(*READ_ERRORS),
        },
    )
    def get(self, request):
        query = self.Input(data=request.query_params)
        query.is_valid(raise_exception=True)
        kind = query.validated_data["kind"]
        return Response(
            {
                "kind": kind,
                "results": releases_list(kind=kind, limit=query.validated_data["limit"]),
            }
        )
