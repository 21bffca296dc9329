"""Staff-only pages for pattern reports: the list, one report as HTML, and its downloads.

Anyone who is not staff is sent to the admin's login, as the admin itself does; staff who may not
view pattern reports (the model's own view permission) get a 403.
"""

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import permission_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render

from config.errors import NotFound
from failures.models import PatternReport
from failures.records.selectors import report_get, reports_newest_first
from failures.staff.report_markdown import SECTIONS, report_summary

REPORTS_PER_PAGE = 50


def report_page(view):
    """Staff (or the admin's login) with the permission to view reports (or a 403)."""
    return staff_member_required(
        permission_required("failures.view_patternreport", raise_exception=True)(view)
    )


def _report(pk: int) -> PatternReport:
    """The report of a page's URL; an unknown one is the page's 404."""
    try:
        return report_get(pk=pk)
    except NotFound:
        raise Http404("No such report.") from None


@report_page
def report_list(request):
    """Stored reports, newest window first."""
    page = Paginator(reports_newest_first(), REPORTS_PER_PAGE).get_page(request.GET.get("page"))
    rows = [(report, report_summary(report.data)) for report in page]
    return render(
        request,
        "reports/list.html",
        {
            **admin.site.each_context(request),
            "title": "Pattern reports",
            "page": page,
            "rows": rows,
        },
    )


@report_page
def report_detail(request, pk: int):
    """One report, section by section."""
    report = _report(pk)
    sections = [(key, title, report.data.get(key) or []) for key, title in SECTIONS]
    return render(
        request,
        "reports/detail.html",
        {
            **admin.site.each_context(request),
            "title": f"Pattern report {report.pk}",
            "report": report,
            "summary": report_summary(report.data),
            "sections": sections,
        },
    )


@report_page
def report_markdown_download(request, pk: int):
    """The report as a markdown file."""
    report = _report(pk)
    response = HttpResponse(report.markdown, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="pattern-report-{report.pk}.md"'
    return response


@report_page
def report_json_download(request, pk: int):
    """The report's data as a JSON file."""
    report = _report(pk)
    response = JsonResponse(report.data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="pattern-report-{report.pk}.json"'
    return response
