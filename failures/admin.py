"""Reading failures, root causes, regressions and reports in the admin, and deciding on root-cause
groups; the patterns' own admin is failures.staff.pattern_admin. Every change goes through a
service (failures.analysis.rootcauses); failures themselves are read-only here."""

import json

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from config.admin_tools import ReadOnlyAdmin, RecentFilter
from config.formats import counted, shortened
from config.staff_admin import GuardedAdmin, error_type
from failures.analysis.rootcauses import root_cause_group_confirm, root_cause_group_split
from failures.staff import pattern_admin  # noqa: F401  (registers the patterns' admin)

from .models import Failure, FailurePattern, PatternReport, Regression, RootCauseGroup


def _pattern_link(pattern: FailurePattern | None):
    if pattern is None:
        return "–"
    url = reverse("admin:failures_failurepattern_change", args=[pattern.pk])
    return format_html(
        '<a href="{}" title="{}">{}</a>', url, pattern.template, shortened(pattern.template, 80)
    )


class ErrorTypeFilter(admin.SimpleListFilter):
    """Error types, listed from the patterns table: a DISTINCT over millions of failures would
    cost a full scan on every page view."""

    title = "error type"
    parameter_name = "error_type"

    def lookups(self, request, model_admin):
        types = (
            FailurePattern.objects.exclude(error_type="")
            .order_by("error_type")
            .values_list("error_type", flat=True)
            .distinct()
        )
        return [(value, value) for value in types]

    def queryset(self, request, queryset):
        return queryset.filter(error_type=self.value()) if self.value() else queryset


@admin.register(Failure)
class FailureAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "occurred_at",
        "agent",
        "task",
        error_type,
        "status",
        "pattern_link",
        "error_short",
    ]
    list_select_related = ["pattern"]
    list_filter = ["status", RecentFilter, ErrorTypeFilter, "retry_safe", "api_key"]
    readonly_fields = ["api_key"]  # not editable, so shown only when named
    # Exact matches only: a substring search of the error text would scan every row.
    search_fields = ["=agent", "=task", "=task_type"]
    raw_id_fields = ["pattern"]
    ordering = ["-occurred_at", "-id"]

    def lookup_allowed(self, lookup, value, request=None):
        # The OpenTelemetry lineage is an array of span ids no filter spells; a value PostgreSQL
        # cannot read as an array would be a server error rather than the admin's 400.
        if lookup.split("__")[0] == "lineage":
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_fields(self, request, obj=None):
        # Each raw field in its place, shown as a person reads it.
        fields = super().get_fields(request, obj)
        return [
            SHOWN.get(name, name) if isinstance(name, str) else name  # a group (none here) as is
            for name in fields
            if name not in SHOWN.values()
        ]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), *SHOWN.values()]

    @admin.display(description="pattern")
    def pattern_link(self, obj):
        return _pattern_link(obj.pattern)

    @admin.display(description="error")
    def error_short(self, obj):
        return shortened(obj.error, 100)

    @admin.display(description="side effects")
    def side_effects_shown(self, obj):
        effects = obj.side_effects or []
        if not effects:
            return "none reported"
        items = ((item if isinstance(item, str) else json.dumps(item),) for item in effects)
        return format_html(
            '<ul class="side-effects">{}</ul>', format_html_join("", "<li>{}</li>", items)
        )


# Raw fields of a failure and what shows them on its page.
SHOWN = {"side_effects": "side_effects_shown"}


def _link_text(link: dict) -> str:
    """One link of a root-cause group's evidence, in words."""
    if link.get("signal") == "dependency":
        return str(link.get("dependency"))
    if link.get("signal") == "coincidence":
        return (
            f"started and stopped together {link.get('coincidence_count')} time(s), "
            f"{link.get('expected')} expected by chance (p = {link.get('p_value')}), "
            f"agents {', '.join(link.get('agents', []))}"
        )
    # Evidence stored before coincidences: hourly counts that rose and fell together.
    return f"correlation {link.get('correlation')}, {link.get('window_count')} shared hour(s)"


@admin.register(RootCauseGroup)
class RootCauseGroupAdmin(GuardedAdmin):
    list_display = ["id", "status", "members", "signals", "detected_at", "decided_by"]
    list_filter = ["status"]
    list_select_related = ["decided_by"]
    ordering = ["-detected_at", "-pk"]
    fields = (
        "status",
        "members",
        "signals",
        "evidence_view",
        "detected_at",
        "decided_at",
        "decided_by",
    )
    readonly_fields = fields
    actions = ["confirm", "split"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("patterns")

    @admin.display(description="patterns")
    def members(self, obj):
        return format_html_join(
            mark_safe("<br>"),
            "{}",
            ((_pattern_link(p),) for p in sorted(obj.patterns.all(), key=lambda p: p.pk)),
        )

    @admin.display(description="evidence")
    def signals(self, obj):
        evidence = obj.evidence or {}
        parts = [", ".join(evidence.get("signals", [])) or "–"]
        if evidence.get("dependencies"):
            parts.append("names " + ", ".join(evidence["dependencies"]))
        if evidence.get("agents"):
            parts.append(f"{counted(len(evidence['agents']), 'agent')} hit together")
        if (evidence.get("latest") or {}).get("since"):
            parts.append(f"latest since {evidence['latest']['since'][:16]}")
        return "; ".join(parts)

    @admin.display(description="evidence (every link)")
    def evidence_view(self, obj):
        links = (obj.evidence or {}).get("links", [])
        return (
            format_html_join(
                mark_safe("<br>"),
                "{} – {}: {}",
                ((link.get("patterns"), link.get("signal"), _link_text(link)) for link in links),
            )
            or "–"
        )

    @admin.action(description="Confirm: one root cause", permissions=["decide"])
    def confirm(self, request, queryset):
        self._decide(request, queryset, root_cause_group_confirm, "Confirmed")

    @admin.action(description="Split: not one root cause", permissions=["decide"])
    def split(self, request, queryset):
        self._decide(request, queryset, root_cause_group_split, "Split")

    def has_decide_permission(self, request):
        return request.user.has_perm("failures.decide_rootcausegroup")

    def _decide(self, request, queryset, service, verb):
        done = 0
        for group in queryset:
            try:
                service(group=group, user=request.user)
                done += 1
            except ValueError as exc:
                self.message_user(request, f"group {group.pk}: {exc}", messages.WARNING)
        self.message_user(request, f"{verb} {counted(done, 'group')}.")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # decisions are the actions above

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Regression)
class RegressionAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "pattern_link",
        "kind",
        "verdict",
        "fixed_at",
        "since",
        "detected_at",
        "regressed_at",
    ]
    list_filter = ["verdict", "kind"]
    list_select_related = ["pattern"]
    ordering = ["-detected_at", "-pk"]

    @admin.display(description="pattern")
    def pattern_link(self, obj):
        return _pattern_link(obj.pattern)


@admin.register(PatternReport)
class PatternReportAdmin(ReadOnlyAdmin):
    list_display = ["id", "since", "until", "created_at", "read"]
    ordering = ["-until", "-pk"]
    exclude = ["data", "markdown"]

    @admin.display(description="read or download")
    def read(self, obj):
        return format_html(
            '<a href="{}">HTML</a> · <a href="{}">markdown</a> · <a href="{}">JSON</a>',
            reverse("reports:detail", args=[obj.pk]),
            reverse("reports:markdown", args=[obj.pk]),
            reverse("reports:json", args=[obj.pk]),
        )

    def get_queryset(self, request):
        return super().get_queryset(request).defer("data", "markdown")
