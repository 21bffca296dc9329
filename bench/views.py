"""The baseline endpoint: the same framework, authentication and permissions as the real API,
and one indexed read. What a hot-path endpoint costs beyond it is that endpoint's own work."""

from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from failures.models import FailurePattern


class BaselineApi(APIView):
    """``GET ?id=N``: one pattern by primary key (the project's default auth and permissions)."""

    class Input(serializers.Serializer):
        id = serializers.IntegerField(min_value=1)

    def get(self, request):
        query = self.Input(data=request.query_params)
        query.is_valid(raise_exception=True)
        row = (
            FailurePattern.objects.filter(pk=query.validated_data["id"])
            .values("id", "fingerprint", "error_type", "event_count", "last_seen")
            .first()
        )
        return Response({"pattern": row})
