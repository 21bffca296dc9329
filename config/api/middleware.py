"""Refuses oversized bodies before anything reads them."""
from django.conf import settings
from django.http import JsonResponse


def body_limit(view) -> int:
    """The largest body ``view`` accepts: its ``body_limit_setting``, or the API-wide limit."""
    name = getattr(view, "body_limit_setting", None) or "HINDSIGHT_MAX_BODY_BYTES"
    return getattr(settings, name)


class BodySizeLimitMiddleware:
    """Answer 413 in the API's error shape when Content-Length exceeds the view's limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # Runs after routing and before any other middleware's process_view can read the body.
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return JsonResponse(
                {"error": "Content-Length must be a whole number.", "fields": {}}, status=400
            )
        limit = body_limit(getattr(view_func, "cls", None))
        if length > limit:
            return JsonResponse(
                {"error": f"Request body is larger than {limit} bytes.", "fields": {}}, status=413
            )
        return None
