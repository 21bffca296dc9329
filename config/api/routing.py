"""URL helper: every API path answers with and without a trailing slash."""

from django.urls import path


def api_path(route: str, view, name: str):
    """Return the two URL patterns for ``route`` (given without a trailing slash)."""
    route = route.rstrip("/")
    return [path(route, view, name=name), path(f"{route}/", view)]
