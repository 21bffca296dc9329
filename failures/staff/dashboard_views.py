"""The staff dashboard page: what the fleet failed at, what it learned, what needs a human.

Staff only: anyone else is sent to the admin's login, as the admin itself does; staff without the
dashboard permission get a 403.
"""

from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.shortcuts import render
from django.urls import reverse

from config.moments import moment_parsed
from failures.staff.dashboard import CACHE_SECONDS, dashboard_data
from failures.staff.dashboard_sections import OUTCOME_SAMPLE

# Lesson.error_pattern holds at most this many characters; a longer template is cut to fit.
ERROR_PATTERN_MAX = 200


@staff_member_required
@permission_required("failures.view_dashboard", raise_exception=True)
def dashboard(request):
    """The dashboard: charts drawn from the cached composition (failures.staff.dashboard)."""
    data = dashboard_data()
    charts = {key: data[key] for key in ("failures_over_time", "success", "effectiveness")}
    return render(
        request,
        "dashboard/index.html",
        {
            **admin.site.each_context(request),
            "title": "Fleet dashboard",
            "data": data,
            "charts": charts,
            "queue": [_queue_row(entry) for entry in data["curation_queue"]],
            "generated_at": moment_parsed(data["generated_at"]),
            "cache_seconds": CACHE_SECONDS,
            "outcome_sample": OUTCOME_SAMPLE,
        },
    )


def _queue_row(entry: dict) -> dict:
    """A curation-queue entry with its links: write a lesson (prefilled), review waiting ones."""
    add = urlencode(
        {
            "error_pattern": entry["template"][:ERROR_PATTERN_MAX],
            "error_type": entry["error_type"],
            "patterns": entry["id"],
        }
    )
    review = urlencode({"patterns__id__exact": entry["id"], "status__exact": "unverified"})
    return {
        **entry,
        "pattern_url": reverse("admin:failures_failurepattern_change", args=[entry["id"]]),
        "write_url": f"{reverse('admin:lessons_lesson_add')}?{add}",
        "review_url": f"{reverse('admin:lessons_lesson_changelist')}?{review}",
    }
