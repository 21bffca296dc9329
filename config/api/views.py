"""Endpoints of the API frame itself."""

from django.db import connection
from django.http import JsonResponse
from django.views.defaults import page_not_found
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthApi(APIView):
    """Liveness and database reachability, for load balancers; needs no key."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="health",
        responses={200: inline_serializer("Health", {"status": serializers.CharField()})},
    )
    def get(self, request):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return Response({"status": "ok"})


def not_found(request, exception=None):
    """404 for a URL nothing answers: the API's error shape under /api/, Django's page elsewhere
    (a malformed id in an API path never reaches a view)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "Not found.", "fields": {}}, status=404)
    return page_not_found(request, exception)
