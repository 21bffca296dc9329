"""Curating lessons in the admin; every change goes through lessons.curation."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from config.admin_tools import ReadOnlyAdmin
from config.formats import counted, moment_shown, shortened
from config.staff_admin import GuardedAdmin, error_type
from failures.models import Failure

from .curation import (
    lesson_approve,
    lesson_create,
    lesson_edit,
    lesson_patterns_set,
    lesson_reject,
    lessons_delete,
    lessons_merge,
    proposal_accept,
    proposal_dismiss,
)
from .lesson_inlines import CurationInline, PatternLinkForm, PatternLinkInline, ProposalInline
from .models import Application, Lesson, LessonProposal, PatternLink
from .scoring import FLAG_BELOW, effectiveness_text
from .signals import lessons_curated

# Where a lesson "works": it succeeds at least seven times in ten (the upper band).
WORKS_FROM = 0.7
# Characters of a resolution in the list, and rows in each table on a lesson's page.
RESOLUTION_CHARS = 90
LISTED = 20


class EffectivenessBandFilter(admin.SimpleListFilter):
    """Measured effectiveness in three bands: failing (where flags start), uncertain, working."""

    title = "effectiveness"
    parameter_name = "effectiveness"
    BANDS = {
        "low": ({"effectiveness__lt": FLAG_BELOW}, f"below {FLAG_BELOW}"),
        "mid": (
            {"effectiveness__gte": FLAG_BELOW, "effectiveness__lt": WORKS_FROM},
            f"{FLAG_BELOW} to {WORKS_FROM}",
        ),
        "high": ({"effectiveness__gte": WORKS_FROM}, f"{WORKS_FROM} and above"),
    }

    def lookups(self, request, model_admin):
        return [(key, label) for key, (_, label) in self.BANDS.items()]

    def queryset(self, request, queryset):
        value = self.value()
        band = self.BANDS.get(value) if value is not None else None
        return queryset.filter(**band[0]) if band else queryset


@admin.register(Lesson)
class LessonAdmin(GuardedAdmin):
    list_display = [
        "error_pattern",
        "resolution_short",
        error_type,
        "status",
        "seen",
        "effectiveness_shown",
        "flag",
        "last_occurred_short",
    ]
    list_filter = [
        "status",
        "source",
        "error_type",
        "skill_name",
        EffectivenessBandFilter,
        "flagged",
        "api_key",
    ]
    search_fields = ["error_pattern", "resolution", "error_type", "skill_name"]
    ordering = ["-last_occurred"]
    fields = [
        "error_pattern",
        "error_type",
        "skill_name",
        "resolution",
        "resolution_code",
        "patterns",
        "context",
        "status",
        "source",
        "occurrences",
        "effectiveness_shown",
        "rank_score_shown",
        "flag",
        "flagged_reason",
        "last_occurred",
        "created_at",
        "reviewed_by",
        "reviewed_at",
        "api_key",
        "applications_recent",
        "failures_recent",
    ]
    readonly_fields = [
        "error_pattern",
        "context",
        "source",
        "occurrences",
        "effectiveness_shown",
        "rank_score_shown",
        "flag",
        "flagged_reason",
        "last_occurred",
        "created_at",
        "reviewed_by",
        "reviewed_at",
        "api_key",
        "applications_recent",
        "failures_recent",
    ]
    # What a curator writes: the rest is measured, or set by writing it (source, review).
    add_fields = [
        "error_pattern",
        "error_type",
        "skill_name",
        "resolution",
        "resolution_code",
        "patterns",
    ]
    autocomplete_fields = ["patterns"]
    inlines = [PatternLinkInline, ProposalInline, CurationInline]
    actions = ["approve", "reject", "accept_proposal", "merge"]

    @admin.action(description="Approve selected lessons", permissions=["review"])
    def approve(self, request, queryset):
        for lesson in queryset:
            lesson_approve(lesson=lesson, user=request.user)
        lessons_curated.send(sender=Lesson)
        self.message_user(request, f"Approved {counted(len(queryset), 'lesson')}.")

    @admin.action(description="Reject selected lessons", permissions=["review"])
    def reject(self, request, queryset):
        for lesson in queryset:
            lesson_reject(lesson=lesson, user=request.user)
        lessons_curated.send(sender=Lesson)
        self.message_user(request, f"Rejected {counted(len(queryset), 'lesson')}.")

    @admin.action(
        description="Accept the agents' proposed resolution (most proposed)",
        permissions=["review"],
    )
    def accept_proposal(self, request, queryset):
        accepted = 0
        for lesson in queryset:
            proposal = (
                lesson.proposals.filter(status=LessonProposal.Status.PENDING)
                .order_by("-times_proposed", "-created_at", "-pk")
                .first()
            )
            if proposal is not None:
                proposal_accept(proposal=proposal, user=request.user)
                accepted += 1
        level = messages.SUCCESS if accepted else messages.WARNING
        self.message_user(
            request,
            f"Accepted a proposal on {counted(accepted, 'lesson')}; "
            f"{len(queryset) - accepted} had none pending.",
            level,
        )

    @admin.action(
        description="Merge selected into one (the most used, or pick)", permissions=["merge"]
    )
    def merge(self, request, queryset):
        lessons = sorted(
            queryset,
            key=lambda lesson: (-lesson.applications_count, -lesson.occurrences, str(lesson.pk)),
        )
        if len(lessons) < 2:
            self.message_user(request, "Select at least two lessons to merge.", messages.WARNING)
            return None
        chosen = request.POST.get("survivor")
        survivor = next((lesson for lesson in lessons if str(lesson.pk) == chosen), None)
        if request.POST.get("post") != "yes" or survivor is None:
            return self._merge_confirm(request, lessons)
        merged = lessons_merge(
            survivor=survivor,
            user=request.user,
            duplicates=[lesson for lesson in lessons if lesson.pk != survivor.pk],
        )
        lessons_curated.send(sender=Lesson)
        self.message_user(
            request,
            f"Merged {counted(len(lessons) - 1, 'lesson')} into "
            f"{merged.error_pattern} ({merged.occurrences} occurrences).",
        )
        return None

    def _merge_confirm(self, request, lessons):
        """The page that picks the survivor; the most used is chosen to start with."""
        return TemplateResponse(
            request,
            "admin/lessons/lesson/merge_confirm.html",
            {
                **self.admin_site.each_context(request),
                "title": "Merge lessons",
                "lessons": lessons,
                "survivor": lessons[0],
                "opts": self.model._meta,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )

    @admin.display(description="resolution", ordering="resolution")
    def resolution_short(self, obj):
        return shortened(obj.resolution, RESOLUTION_CHARS)

    @admin.display(description="seen", ordering="occurrences")
    def seen(self, obj):
        return obj.occurrences

    @admin.display(description="last seen", ordering="last_occurred")
    def last_occurred_short(self, obj):
        return moment_shown(obj.last_occurred)

    @admin.display(description="rank score")
    def rank_score_shown(self, obj):
        # Three decimals tell lessons apart in the ranking (lessons.scoring); more is noise.
        return f"{obj.rank_score:.3f}"

    @admin.display(description="effectiveness", ordering="effectiveness")
    def effectiveness_shown(self, obj):
        return effectiveness_text(obj.effectiveness, obj.applications_count)

    @admin.display(description="flagged", ordering="-flagged", empty_value="")
    def flag(self, obj):
        if not obj.flagged:
            return ""  # nothing at all, on the list and on the page
        return format_html(
            '<span class="lesson-flagged" title="{}">⚑ flagged</span>', obj.flagged_reason
        )

    @admin.display(description=f"applications (latest {LISTED})")
    def applications_recent(self, obj):
        rows = obj.applications.order_by("-applied_at", "-pk")[:LISTED]
        items = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    a.agent or "–",
                    moment_shown(a.applied_at),
                    "worked" if a.worked else "did not work",
                    a.task_id or "–",
                )
                for a in rows
            ),
        )
        if not items:
            return "never applied"
        every = reverse("admin:lessons_application_changelist") + f"?lesson__id__exact={obj.pk}"
        return format_html(
            '<table class="lesson-applications"><tr><th>agent</th><th>when</th>'
            '<th>worked?</th><th>task</th></tr>{}</table><a href="{}">all {}</a>',
            items,
            every,
            counted(obj.applications.count(), "application"),
        )

    @admin.display(description=f"example failures (latest {LISTED} of its patterns)")
    def failures_recent(self, obj):
        rows = Failure.objects.filter(pattern__in=obj.patterns.all()).order_by(
            "-occurred_at", "-id"
        )[:LISTED]
        items = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((moment_shown(f.occurred_at), f.agent, f.task, f.error[:200]) for f in rows),
        )
        if not items:
            return "none: it answers no pattern with failures yet"
        return format_html(
            '<table class="lesson-failures"><tr><th>when</th><th>agent</th>'
            "<th>task</th><th>message</th></tr>{}</table>",
            items,
        )

    class Media:
        css = {"all": ["lessons/admin.css"]}

    def get_fieldsets(self, request, obj=None):
        if obj:
            if obj.flagged:
                return super().get_fieldsets(request, obj)
            # A lesson not flagged: its page says nothing of a flag (no blank row).
            unflagged = [name for name in self.fields if name not in ("flag", "flagged_reason")]
            return [(None, {"fields": unflagged})]
        saved_as = (
            "It is saved approved, with you as its reviewer."
            if self.has_review_permission(request)
            else "It is saved unverified, until someone who may review lessons approves it."
        )
        return [(None, {"fields": self.add_fields, "description": saved_as})]

    def has_review_permission(self, request):
        return request.user.has_perm("lessons.review_lesson")

    def has_merge_permission(self, request):
        return request.user.has_perm("lessons.merge_lesson")

    def save_model(self, request, obj, form, change):
        if not change:
            fields = {
                name: form.cleaned_data[name]
                for name in form.cleaned_data
                if name
                in {"error_pattern", "error_type", "skill_name", "resolution", "resolution_code"}
            }
            # A curator's own lesson is approved at once; staff who may not review write one
            # that waits for review like an agent's.
            created = lesson_create(
                user=request.user, approve=self.has_review_permission(request), **fields
            )
            obj.pk = created.pk
            obj.refresh_from_db()
            return
        changes = {
            name: form.cleaned_data[name] for name in form.changed_data if name != "patterns"
        }
        if changes:
            lesson_edit(lesson=obj, user=request.user, **changes)

    def save_related(self, request, form, formsets, change):
        # The pattern links go through the service (history, match index), not form.save_m2m().
        if "patterns" in form.cleaned_data and (not change or "patterns" in form.changed_data):
            lesson_patterns_set(
                lesson=form.instance, patterns=form.cleaned_data["patterns"], user=request.user
            )
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)
        lessons_curated.send(sender=Lesson)

    def save_formset(self, request, form, formset, change):
        if formset.model is not PatternLink:
            return super().save_formset(request, form, formset, change)
        # What the admin's own history entry lists; the lesson's history has the decision.
        formset.new_objects, formset.deleted_objects, formset.changed_objects = [], [], []
        for link_form in formset.forms:
            decide = PatternLinkForm.DECISIONS.get(link_form.cleaned_data.get("decision"))
            if decide is not None:
                decide(link=link_form.instance, user=request.user)
                formset.changed_objects.append((link_form.instance, ["decision"]))
        return None

    def delete_model(self, request, obj):
        lessons_delete(lessons=[obj])

    def delete_queryset(self, request, queryset):
        lessons_delete(lessons=list(queryset))

    def get_deleted_objects(self, objs, request):
        # A lesson's applications go with it; that nobody may delete one on its own page must
        # not stop the lesson's deletion.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed.discard(Application._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def get_readonly_fields(self, request, obj=None):
        # error_pattern is the lesson's identity once agents count occurrences against it.
        if not obj:
            return []
        # Setting the status approves or rejects: that is reviewing, not editing.
        if self.has_review_permission(request):
            return self.readonly_fields
        return [*self.readonly_fields, "status"]

    def get_inlines(self, request, obj):
        return self.inlines if obj else []  # a lesson being written has no history yet


@admin.register(LessonProposal)
class LessonProposalAdmin(GuardedAdmin):
    list_display = ["lesson", "proposed_by", "times_proposed", "status", "created_at"]
    list_filter = ["status", "api_key"]
    search_fields = ["resolution", "lesson__error_pattern"]
    readonly_fields = [
        "lesson",
        "resolution",
        "resolution_code",
        "proposed_by",
        "times_proposed",
        "created_at",
        "status",
        "api_key",
    ]
    exclude = ["digest"]
    actions = ["accept", "dismiss"]

    @admin.action(description="Accept: make it the lesson's resolution", permissions=["review"])
    def accept(self, request, queryset):
        for proposal in queryset.filter(status=LessonProposal.Status.PENDING):
            proposal_accept(proposal=proposal, user=request.user)
        self.message_user(request, "Accepted.")

    @admin.action(description="Dismiss", permissions=["review"])
    def dismiss(self, request, queryset):
        for proposal in queryset.filter(status=LessonProposal.Status.PENDING):
            proposal_dismiss(proposal=proposal, user=request.user)
        self.message_user(request, "Dismissed.")

    def has_review_permission(self, request):
        # Deciding on a proposal decides the lesson's text: the lesson's review permission.
        return request.user.has_perm("lessons.review_lesson")

    def has_add_permission(self, request):
        return False


@admin.register(Application)
class ApplicationAdmin(ReadOnlyAdmin):
    """Reports that a lesson was applied: read-only, as agents sent them (effectiveness is
    computed from these, so an edit here would be a silent change of a score)."""

    list_display = ["id", "applied_at", "lesson", "worked", "agent", "task_id", "api_key"]
    list_select_related = ["lesson", "api_key"]
    list_filter = ["worked", "api_key"]
    search_fields = ["=agent", "=task_id"]
    raw_id_fields = ["lesson", "failure"]
    readonly_fields = ["api_key"]  # not editable, so shown only when named
    ordering = ["-applied_at", "-id"]
