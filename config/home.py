"""The home page at ``/``: what the service is, whether it can reach its database, and where
to go next (the admin, the dashboard, the API docs and the first calls)."""

from django.contrib import admin
from django.db import DatabaseError, connection
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def home(request):
    """Public, like the health endpoint: it names no lesson, pattern or failure."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database_ok = True
    except DatabaseError:
        database_ok = False
    return render(
        request,
        "home.html",
        {
            "site_header": admin.site.site_header,
            "site_title": admin.site.site_title,
            "database_ok": database_ok,
            "base": request.build_absolute_uri("/").rstrip("/"),
        },
        status=200 if database_ok else 503,
    )
