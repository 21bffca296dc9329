"""Refuses oversized bodies before anything reads them, and reads a chunked body whole."""

import io

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import JsonResponse


def body_limit(view) -> int:
    """The largest body ``view`` accepts: its ``body_limit_setting``, or the API-wide limit."""
    name = getattr(view, "body_limit_setting", None) or "HINDSIGHT_MAX_BODY_BYTES"
    return getattr(settings, name)


def refusal(view, request, status: int, message: str):
    """An answer refusing the request in ``view``'s error shape: its ``refusal`` when it has
    one (a protocol with its own, such as OTLP's), else the API's."""
    shaped = getattr(view, "refusal", None)
    if shaped is not None:
        return shaped(request, status, message)
    return JsonResponse({"error": message, "fields": {}}, status=status)


class BodySizeLimitMiddleware:
    """Answer 413 in the view's error shape when Content-Length exceeds the view's limit.

    A body sent with ``Transfer-Encoding: chunked`` has no Content-Length, and Django reads a
    body only as far as Content-Length says: it would be taken as empty. Under a server that
    decodes chunks and ends the input (``wsgi.input_terminated``: gunicorn) it is read here, up
    to one byte past the limit, and handed on with its length (a parser then refuses it as too
    large, in its own shape); under one that does not (runserver), the answer is 411."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # Runs after routing and before any other middleware's process_view can read the body.
        view = getattr(view_func, "cls", None)
        limit = body_limit(view)
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return self._chunked_read(request, view, limit)
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return refusal(view, request, 400, "Content-Length must be a whole number.")
        if length > limit:
            return refusal(view, request, 413, f"Request body is larger than {limit} bytes.")
        return None

    @staticmethod
    def _chunked_read(request, view, limit: int):
        if not request.META.get("wsgi.input_terminated"):
            return refusal(
                view,
                request,
                411,
                "This server cannot read a chunked body: send it with a Content-Length.",
            )
        body = request.META["wsgi.input"].read(limit + 1)
        request.META["CONTENT_LENGTH"] = str(len(body))
        # Where Django itself keeps a body it has read (HttpRequest.body).
        request._stream = LimitedStream(io.BytesIO(body), len(body))
        return None
