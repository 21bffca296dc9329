"""Refuses oversized bodies before anything reads them."""
from django.conf import settings
from django.http import JsonResponse


class BodySizeLimitMiddleware:
    """Answer 413 in the API's error shape when Content-Length exceeds the limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return JsonResponse(
                {"error": "Content-Length must be a whole number.", "fields": {}}, status=400
            )
        limit = settings.HINDSIGHT_MAX_BODY_BYTES
        if length > limit:
            return JsonResponse(
                {"error": f"Request body is larger than {limit} bytes.", "fields": {}}, status=413
            )
        return self.get_response(request)
