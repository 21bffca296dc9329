"""Routes of the staff-only report pages, under /reports/."""

from django.urls import path

from failures.staff.report_views import (
    report_detail,
    report_json_download,
    report_list,
    report_markdown_download,
)

app_name = "reports"

urlpatterns = [
    path("", report_list, name="list"),
    path("<int:pk>/", report_detail, name="detail"),
    path("<int:pk>.md", report_markdown_download, name="markdown"),
    path("<int:pk>.json", report_json_download, name="json"),
]
