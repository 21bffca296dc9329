"""Closing an agent's open failures of a task. (Recording and listing failures: answers.views,
as the record's answer carries its lessons.)"""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.agents import writer_of
from config.api.docs import error_responses
from config.api.fields import ScrubbedCharField
from config.api.serializers import StrictInputSerializer
from failures.records.services import failures_resolve


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
