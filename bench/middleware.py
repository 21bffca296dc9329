"""Bench-only middleware: how long Django took for the whole request, as a Server-Timing header."""

import time


class ServerTimingMiddleware:
    """Adds ``Server-Timing: app;dur=<ms>``, measured around every later middleware and the view.

    It must be first in MIDDLEWARE so the figure covers the whole Django request (middleware,
    authentication, view, rendering); the bench client reads it to separate server time from
    network and client time.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        elapsed_ms = (time.perf_counter() - start) * 1000
        timing = f"app;dur={elapsed_ms:.3f}"
        earlier = response.get("Server-Timing")
        response["Server-Timing"] = f"{earlier}, {timing}" if earlier else timing
        return response
