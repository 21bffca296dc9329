"""GET /api/v1/patterns/<id>: one pattern, with the releases, models and prompt versions it was
seen in. A pattern merged into another answers for the live one (``merged_from`` says so)."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.docs import READ_ERRORS, error_responses
from failures.models import VersionPattern
from failures.store.selectors import pattern_json

_Seen = inline_serializer(
    "PatternVersion",
    many=True,
    fields={
        "name": serializers.CharField(),
        "verdict": serializers.ChoiceField(choices=VersionPattern.Verdict.choices),
        "failures": serializers.IntegerField(),
        "first_seen": serializers.DateTimeField(allow_null=True),
        "last_seen": serializers.DateTimeField(allow_null=True),
        "tasks_compared": serializers.IntegerField(),
    },
)

PatternAnswer = inline_serializer(
    "Pattern",
    {
        "id": serializers.IntegerField(),
        "merged_from": serializers.IntegerField(allow_null=True),
        "fingerprint": serializers.CharField(),
        "template": serializers.CharField(),
        "error_type": serializers.CharField(),
        "status": serializers.CharField(),
        "first_seen": serializers.DateTimeField(),
        "last_seen": serializers.DateTimeField(),
        "events": serializers.IntegerField(),
        "agents": serializers.IntegerField(),
        "tasks": serializers.IntegerField(),
        "first_release": serializers.CharField(allow_null=True),
        "releases": _Seen,
        "models": _Seen,
        "prompt_versions": _Seen,
    },
)


class PatternApi(APIView):
    """One failure pattern: its template and counts, and where it was seen."""

    @extend_schema(
        operation_id="pattern",
        responses={200: PatternAnswer, **error_responses(*READ_ERRORS, 404)},
    )
    def get(self, request, pk: int):
        return Response(pattern_json(pk=pk))
