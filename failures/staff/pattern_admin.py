"""The failure patterns' admin: the list, with merge, unmerge and triage actions, and a pattern's
page (templates/admin/failures/failurepattern/change_form.html, its sections read by
failures.staff.pattern_page). Every change goes through a service: failures.store.curation (merge),
failures.store.triage (resolve, ignore, snooze, reopen), lessons.curation (linked lessons)."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from config.formats import counted, moment_shown, shortened
from config.staff_admin import GuardedAdmin, error_type
from failures.models import FailurePattern
from failures.staff.dashboard import dashboard_invalidate
from failures.staff.pattern_page import pattern_overview
from failures.store.curation import pattern_unmerge, patterns_merge_selected
from failures.store.triage import pattern_is_muted, pattern_triage
from lessons.curation import lesson_pattern_link, lesson_pattern_unlink, pattern_link_confirm
from lessons.models import Lesson, PatternLink


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


class PatternActionForm(helpers.ActionForm):
    """The list's action bar, with the time a snooze lasts until."""

    snooze_until = forms.DateTimeField(
        required=False,
        label="snooze until (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )


@admin.register(FailurePattern)
class FailurePatternAdmin(GuardedAdmin):
    list_display = [
        "id",
        "template_short",
        error_type,
        "events",
        "agents",
        "tasks",
        "last_seen",
        "triage_state",
        "has_approved_lesson",
        "merged_into_link",
    ]
    list_filter = ["status", MergedFilter, ApprovedLessonFilter, "error_type"]
    search_fields = ["template", "=fingerprint"]
    ordering = ["-event_count", "pk"]
    fields = (
        "template",
        "fingerprint",
        "error_type",
        "event_count",
        "agent_count",
        "task_count",
        "resolved_count",
        "unsafe_count",
        "retry_after",
        "first_seen",
        "last_seen",
        "merged_into",
        "aliases_list",
    )
    readonly_fields = fields
    inlines = [LessonLinkInline]
    actions = ["merge", "unmerge", "resolve", "ignore", "snooze", "reopen"]
    action_form = PatternActionForm
    change_form_template = "admin/failures/failurepattern/change_form.html"

    class Media:
        css = {"all": ["dashboard/pattern.css"]}

    def change_view(self, request, object_id, form_url="", extra_context=None):
        pattern = self.get_object(request, object_id)
        if pattern is not None:
            now = timezone.now()
            extra_context = {
                **(extra_context or {}),
                "overview": pattern_overview(pattern=pattern, now=now),
                "triage": _triage_context(pattern, now),
                "may_triage": self.has_triage_permission(request),
                "may_link": request.user.has_perm("lessons.change_lesson"),
                "action_form": PatternActionForm(auto_id=False),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        confirm = path(
            "<int:pattern_id>/links/<int:link_id>/confirm/",
            self.admin_site.admin_view(self.link_confirm_view),
            name="failures_failurepattern_link_confirm",
        )
        return [confirm, *super().get_urls()]

    def link_confirm_view(self, request, pattern_id, link_id):
        """Confirm a link the fleet suggested (a candidate): the lesson answers the pattern's
        checks from now on. Deciding links is editing lessons (lessons.change_lesson)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not request.user.has_perm("lessons.change_lesson"):
            raise PermissionDenied
        link = get_object_or_404(
            PatternLink.objects.select_related("lesson", "pattern"),
            pk=link_id,
            pattern_id=pattern_id,
        )
        pattern_link_confirm(link=link, user=request.user)
        dashboard_invalidate()
        self.message_user(
            request,
            f"Linked lesson {link.lesson} to this pattern: checks of its failures now find it.",
        )
        return HttpResponseRedirect(
            reverse("admin:failures_failurepattern_change", args=[pattern_id])
        )

    @admin.display(description="triage", ordering="status")
    def triage_state(self, obj):
        return _triage_label(obj, timezone.now())

    @admin.action(description="Resolve: fixed (reopens if it fails again)", permissions=["triage"])
    def resolve(self, request, queryset):
        return self._triage(request, queryset, FailurePattern.Status.RESOLVED)

    @admin.action(description="Ignore: leave out of the queue and boot", permissions=["triage"])
    def ignore(self, request, queryset):
        return self._triage(request, queryset, FailurePattern.Status.IGNORED)

    @admin.action(description="Snooze until the time given", permissions=["triage"])
    def snooze(self, request, queryset):
        field = PatternActionForm.base_fields["snooze_until"]
        try:
            until = field.clean(field.widget.value_from_datadict(request.POST, {}, "snooze_until"))
        except ValidationError as exc:
            self.message_user(request, f"snooze until: {' '.join(exc.messages)}", messages.ERROR)
            return None
        return self._triage(request, queryset, FailurePattern.Status.SNOOZED, until)

    @admin.action(description="Reopen", permissions=["triage"])
    def reopen(self, request, queryset):
        return self._triage(request, queryset, FailurePattern.Status.OPEN)

    def _triage(self, request, queryset, status, until=None):
        patterns = list(queryset.order_by("pk"))
        try:
            for pattern in patterns:
                pattern_triage(pattern=pattern, status=status, user=request.user, until=until)
        except ValueError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            dashboard_invalidate()
            when = f" until {moment_shown(until)}" if until else ""
            marked = counted(len(patterns), "pattern")
            self.message_user(request, f"Marked {marked} {status}{when}.")
        if request.POST.get("back_to") == "page" and len(patterns) == 1:
            return HttpResponseRedirect(
                reverse("admin:failures_failurepattern_change", args=[patterns[0].pk])
            )
        return None

    def has_triage_permission(self, request):
        return request.user.has_perm("failures.triage_failurepattern")

    def get_queryset(self, request):
        approved = Lesson.patterns.through.objects.filter(
            failurepattern_id=OuterRef("pk"), lesson__status=Lesson.Status.APPROVED
        )
        return super().get_queryset(request).annotate(has_approved=Exists(approved))

    @admin.display(description="template", ordering="template")
    def template_short(self, obj):
        return shortened(obj.template, 120)

    # Short headers: the list's ten columns fit 1400 pixels.
    @admin.display(description="events", ordering="event_count")
    def events(self, obj):
        return obj.event_count

    @admin.display(description="agents", ordering="agent_count")
    def agents(self, obj):
        return obj.agent_count

    @admin.display(description="tasks", ordering="task_count")
    def tasks(self, obj):
        return obj.task_count

    @admin.display(description="lesson", boolean=True, ordering="has_approved")
    def has_approved_lesson(self, obj):
        """Whether an approved lesson answers it."""
        return obj.has_approved

    @admin.display(description="merged into", ordering="merged_into")
    def merged_into_link(self, obj):
        if obj.merged_into_id is None:
            return ""
        return format_html(
            '<a href="{}">#{}</a>',
            reverse("admin:failures_failurepattern_change", args=[obj.merged_into_id]),
            obj.merged_into_id,
        )

    @admin.display(description="merged here")
    def aliases_list(self, obj):
        aliases = obj.aliases.order_by("pk")
        return (
            format_html_join(
                ", ",
                '<a href="{}">#{}</a>',
                (
                    (reverse("admin:failures_failurepattern_change", args=[a.pk]), a.pk)
                    for a in aliases
                ),
            )
            or "–"
        )

    @admin.action(description="Merge selected patterns into one", permissions=["merge"])
    def merge(self, request, queryset):
        try:
            result = patterns_merge_selected(patterns=list(queryset), user=request.user)
        except ValueError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        dashboard_invalidate()
        merged = counted(result.merged, "pattern")
        self.message_user(
            request, f"Merged {merged} into #{result.survivor.pk}: {result.template}"
        )

    @admin.action(description="Unmerge: restore selected merged patterns", permissions=["merge"])
    def unmerge(self, request, queryset):
        for pattern in queryset.order_by("pk"):
            try:
                result = pattern_unmerge(pattern=pattern, user=request.user)
            except ValueError as exc:
                self.message_user(request, str(exc), messages.WARNING)
                continue
            self.message_user(
                request,
                f"Restored #{pattern.pk} from #{result.survivor.pk}: "
                f"{counted(result.templates, 'shape')}, "
                f"{counted(result.failures, 'failure')}",
            )
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
        after = {
            f.cleaned_data["lesson"]
            for f in formset.forms
            if f.cleaned_data.get("lesson") and not f.cleaned_data.get("DELETE")
        }
        for lesson in after - before:
            lesson_pattern_link(lesson=lesson, pattern=pattern, user=request.user)
        for lesson in before - after:
            lesson_pattern_unlink(lesson=lesson, pattern=pattern, user=request.user)
        if before != after:
            dashboard_invalidate()
        # What formset.save() would have recorded, for the admin's change message.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []


def _triage_label(pattern: FailurePattern, now) -> str:
    """The triage state as the list and the page say it; a snooze that ran out is open."""
    if pattern.status == FailurePattern.Status.SNOOZED:
        if pattern.snoozed_until is None or not pattern_is_muted(pattern, now=now):
            return "open (snooze ended)"
        return f"snoozed until {moment_shown(pattern.snoozed_until)}"
    return pattern.status


def _triage_context(pattern: FailurePattern, now) -> dict:
    return {
        "label": _triage_label(pattern, now),
        "muted": pattern_is_muted(pattern, now=now),
        "by": pattern.triaged_by,
        "at": pattern.triaged_at,
        "status": pattern.status,
    }
