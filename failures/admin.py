"""Curating failure patterns in the admin, and reading failures, root causes, regressions and
reports. Every change goes through a service (failures.curation, failures.rootcauses,
lessons.curation); failures themselves are read-only here."""
from django.contrib import admin, messages
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from config.staff_admin import GuardedAdmin
from lessons.models import Lesson
from lessons.curation import lesson_pattern_link, lesson_pattern_unlink

from .admin_tools import ReadOnlyAdmin, RecentFilter
from .curation import pattern_unmerge, patterns_merge_selected
from .dashboard import dashboard_invalidate
from .models import Failure, FailurePattern, PatternReport, Regression, RootCauseGroup
from .rootcauses import root_cause_group_confirm, root_cause_group_split

# Example failures shown on a pattern's page: the newest, read through failure_pattern_time_idx.
EXAMPLES = 20


def _pattern_link(pattern: FailurePattern | None):
    if pattern is None:
        return "–"
    url = reverse("admin:failures_failurepattern_change", args=[pattern.pk])
    return format_html('<a href="{}" title="{}">{}</a>', url, pattern.template,
                       pattern.template[:80])


class ErrorTypeFilter(admin.SimpleListFilter):
    """Error types, listed from the patterns table: a DISTINCT over millions of failures would
    cost a full scan on every page view."""

    title = "error type"
    parameter_name = "error_type"

    def lookups(self, request, model_admin):
        types = (FailurePattern.objects.exclude(error_type="").order_by("error_type")
                 .values_list("error_type", flat=True).distinct())
        return [(value, value) for value in types]

    def queryset(self, request, queryset):
        return queryset.filter(error_type=self.value()) if self.value() else queryset


class MergedFilter(admin.SimpleListFilter):
    title = "merged"
    parameter_name = "merged"

    def lookups(self, request, model_admin):
        return [("live", "live patterns"), ("alias", "merged into another")]

    def queryset(self, request, queryset):
        if self.value() in ("live", "alias"):
            return queryset.filter(merged_into__isnull=self.value() == "live")
        return queryset


class ApprovedLessonFilter(admin.SimpleListFilter):
    title = "approved lesson"
    parameter_name = "approved_lesson"

    def lookups(self, request, model_admin):
        return [("yes", "has one"), ("no", "has none")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(has_approved=self.value() == "yes")
        return queryset


class LessonLinkInline(admin.TabularInline):
    """Lessons that answer this pattern; links are added and removed through lessons.curation."""

    model = Lesson.patterns.through
    autocomplete_fields = ["lesson"]
    extra = 1
    verbose_name = "linked lesson"
    verbose_name_plural = "linked lessons"


@admin.register(FailurePattern)
class FailurePatternAdmin(GuardedAdmin):
    list_display = ["id", "template_short", "error_type", "event_count", "agent_count",
                    "task_count", "last_seen", "has_approved_lesson", "merged_into_id"]
    list_filter = [MergedFilter, ApprovedLessonFilter, "error_type"]
    search_fields = ["template", "=fingerprint"]
    ordering = ["-event_count", "pk"]
    fields = ["template", "fingerprint", "error_type", "event_count", "agent_count", "task_count",
              "resolved_count", "unsafe_count", "retry_after", "first_seen", "last_seen",
              "merged_into", "aliases_list", "example_failures"]
    readonly_fields = fields
    inlines = [LessonLinkInline]
    actions = ["merge", "unmerge"]

    def get_queryset(self, request):
        approved = Lesson.patterns.through.objects.filter(
            failurepattern_id=OuterRef("pk"), lesson__status=Lesson.Status.APPROVED)
        return super().get_queryset(request).annotate(has_approved=Exists(approved))

    @admin.display(description="template", ordering="template")
    def template_short(self, obj):
        return obj.template[:120]

    @admin.display(description="approved lesson", boolean=True, ordering="has_approved")
    def has_approved_lesson(self, obj):
        return obj.has_approved

    @admin.display(description="merged here")
    def aliases_list(self, obj):
        aliases = obj.aliases.order_by("pk")
        return format_html_join(", ", '<a href="{}">#{}</a>', (
            (reverse("admin:failures_failurepattern_change", args=[a.pk]), a.pk)
            for a in aliases)) or "–"

    @admin.display(description=f"latest {EXAMPLES} failures")
    def example_failures(self, obj):
        rows = Failure.objects.filter(pattern=obj).order_by("-occurred_at")[:EXAMPLES]
        items = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", (
            (f"{f.occurred_at:%Y-%m-%d %H:%M}", f.agent, f.task, f.error[:200]) for f in rows))
        return format_html("<table><tr><th>when</th><th>agent</th><th>task</th><th>error</th>"
                           "</tr>{}</table>", items) if items else "none"

    @admin.action(description="Merge selected patterns into one", permissions=["merge"])
    def merge(self, request, queryset):
        try:
            result = patterns_merge_selected(patterns=list(queryset), user=request.user)
        except ValueError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        dashboard_invalidate()
        self.message_user(request, f"Merged {result.merged} pattern(s) into #{result.survivor.pk}:"
                                   f" {result.template}")

    @admin.action(description="Unmerge: restore selected merged patterns",
                  permissions=["merge"])
    def unmerge(self, request, queryset):
        for pattern in queryset.order_by("pk"):
            try:
                result = pattern_unmerge(pattern=pattern, user=request.user)
            except ValueError as exc:
                self.message_user(request, str(exc), messages.WARNING)
                continue
            self.message_user(request, f"Restored #{pattern.pk} from #{result.survivor.pk}: "
                                       f"{result.templates} shape(s), {result.failures} failure(s)")
        dashboard_invalidate()

    def has_merge_permission(self, request):
        return request.user.has_perm("failures.merge_failurepattern")

    def has_add_permission(self, request):
        return False  # patterns come from failures

    def has_delete_permission(self, request, obj=None):
        return False  # failures point at them; merge instead

    def save_model(self, request, obj, form, change):
        pass  # every field is read-only; only the lesson links change (save_formset)

    def save_formset(self, request, form, formset, change):
        pattern = form.instance
        before = set(pattern.lessons.all())
        after = {f.cleaned_data["lesson"] for f in formset.forms
                 if f.cleaned_data.get("lesson") and not f.cleaned_data.get("DELETE")}
        for lesson in after - before:
            lesson_pattern_link(lesson=lesson, pattern=pattern, user=request.user)
        for lesson in before - after:
            lesson_pattern_unlink(lesson=lesson, pattern=pattern, user=request.user)
        if before != after:
            dashboard_invalidate()
        # What formset.save() would have recorded, for the admin's change message.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


@admin.register(Failure)
class FailureAdmin(ReadOnlyAdmin):
    list_display = ["id", "occurred_at", "agent", "task", "error_type", "status", "pattern_link",
                    "error_short"]
    list_select_related = ["pattern"]
    list_filter = ["status", RecentFilter, ErrorTypeFilter, "retry_safe", "api_key"]
    readonly_fields = ["api_key"]  # not editable, so shown only when named
    # Exact matches only: a substring search of the error text would scan every row.
    search_fields = ["=agent", "=task", "=task_type"]
    raw_id_fields = ["pattern"]
    ordering = ["-occurred_at", "-id"]

    @admin.display(description="pattern")
    def pattern_link(self, obj):
        return _pattern_link(obj.pattern)

    @admin.display(description="error")
    def error_short(self, obj):
        return obj.error[:100]


def _link_text(link: dict) -> str:
    """One link of a root-cause group's evidence, in words."""
    if link.get("signal") == "dependency":
        return link.get("dependency")
    if link.get("signal") == "coincidence":
        return (f"started and stopped together {link.get('coincidence_count')} time(s), "
                f"{link.get('expected')} expected by chance (p = {link.get('p_value')}), "
                f"agents {', '.join(link.get('agents', []))}")
    # Evidence stored before coincidences: hourly counts that rose and fell together.
    return f"correlation {link.get('correlation')}, {link.get('window_count')} shared hour(s)"


@admin.register(RootCauseGroup)
class RootCauseGroupAdmin(GuardedAdmin):
    list_display = ["id", "status", "members", "signals", "detected_at", "decided_by"]
    list_filter = ["status"]
    list_select_related = ["decided_by"]
    ordering = ["-detected_at", "-pk"]
    fields = ["status", "members", "signals", "evidence_view", "detected_at", "decided_at",
              "decided_by"]
    readonly_fields = fields
    actions = ["confirm", "split"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("patterns")

    @admin.display(description="patterns")
    def members(self, obj):
        return format_html_join(mark_safe("<br>"), "{}", (
            (_pattern_link(p),) for p in sorted(obj.patterns.all(), key=lambda p: p.pk)))

    @admin.display(description="evidence")
    def signals(self, obj):
        evidence = obj.evidence or {}
        parts = [", ".join(evidence.get("signals", [])) or "–"]
        if evidence.get("dependencies"):
            parts.append("names " + ", ".join(evidence["dependencies"]))
        if evidence.get("agents"):
            parts.append(f"{len(evidence['agents'])} agent(s) hit together")
        if (evidence.get("latest") or {}).get("since"):
            parts.append(f"latest since {evidence['latest']['since'][:16]}")
        return "; ".join(parts)

    @admin.display(description="evidence (every link)")
    def evidence_view(self, obj):
        links = (obj.evidence or {}).get("links", [])
        return format_html_join(mark_safe("<br>"), "{} – {}: {}", (
            (link.get("patterns"), link.get("signal"), _link_text(link)) for link in links)) or "–"

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
        self.message_user(request, f"{verb} {done} group(s).")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # decisions are the actions above

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Regression)
class RegressionAdmin(ReadOnlyAdmin):
    list_display = ["id", "pattern_link", "kind", "verdict", "fixed_at", "since", "detected_at",
                    "regressed_at"]
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
        return format_html('<a href="{}">HTML</a> · <a href="{}">markdown</a> · '
                           '<a href="{}">JSON</a>',
                           reverse("reports:detail", args=[obj.pk]),
                           reverse("reports:markdown", args=[obj.pk]),
                           reverse("reports:json", args=[obj.pk]))

    def get_queryset(self, request):
        return super().get_queryset(request).defer("data", "markdown")
