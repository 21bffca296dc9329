"""Curating lessons in the admin; every change goes through lessons.services."""
from django.contrib import admin

from .models import Lesson, LessonCuration, LessonProposal
from .services import (
    lesson_approve, lesson_create, lesson_edit, lesson_reject, lessons_delete, proposal_accept,
    proposal_dismiss,
)


class ProposalInline(admin.TabularInline):
    model = LessonProposal
    fields = ["resolution", "resolution_code", "proposed_by", "times_proposed", "created_at",
              "status"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class CurationInline(admin.TabularInline):
    model = LessonCuration
    fields = ["at", "user", "action", "before", "after"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ["error_pattern", "error_type", "skill_name", "status", "source",
                    "occurrences", "effectiveness", "last_occurred"]
    list_filter = ["status", "source", "error_type", "skill_name"]
    search_fields = ["error_pattern", "resolution", "error_type", "skill_name"]
    ordering = ["-last_occurred"]
    fields = ["error_pattern", "error_type", "skill_name", "resolution", "resolution_code",
              "context", "status", "source", "occurrences", "effectiveness", "last_occurred",
              "created_at", "reviewed_by", "reviewed_at"]
    readonly_fields = ["error_pattern", "context", "source", "occurrences", "effectiveness",
                       "last_occurred", "created_at", "reviewed_by", "reviewed_at"]
    inlines = [ProposalInline, CurationInline]
    actions = ["approve", "reject"]

    @admin.action(description="Approve selected lessons")
    def approve(self, request, queryset):
        for lesson in queryset:
            lesson_approve(lesson=lesson, user=request.user)
        self.message_user(request, f"Approved {len(queryset)} lesson(s).")

    @admin.action(description="Reject selected lessons")
    def reject(self, request, queryset):
        for lesson in queryset:
            lesson_reject(lesson=lesson, user=request.user)
        self.message_user(request, f"Rejected {len(queryset)} lesson(s).")

    def save_model(self, request, obj, form, change):
        if not change:
            fields = {name: form.cleaned_data[name] for name in form.cleaned_data
                      if name in {"error_pattern", "error_type", "skill_name", "resolution",
                                  "resolution_code", "status"}}
            created = lesson_create(user=request.user, **fields)
            obj.pk = created.pk
            obj.refresh_from_db()
            return
        changes = {name: form.cleaned_data[name] for name in form.changed_data}
        if changes:
            lesson_edit(lesson=obj, user=request.user, **changes)

    def delete_model(self, request, obj):
        lessons_delete(lessons=[obj])

    def delete_queryset(self, request, queryset):
        lessons_delete(lessons=list(queryset))

    def get_readonly_fields(self, request, obj=None):
        # error_pattern is the lesson's identity once agents count occurrences against it.
        return self.readonly_fields if obj else ["source", "occurrences", "effectiveness",
                                                 "last_occurred", "created_at", "reviewed_by",
                                                 "reviewed_at"]


@admin.register(LessonProposal)
class LessonProposalAdmin(admin.ModelAdmin):
    list_display = ["lesson", "proposed_by", "times_proposed", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["resolution", "lesson__error_pattern"]
    readonly_fields = ["lesson", "resolution", "resolution_code", "proposed_by",
                       "times_proposed", "created_at", "status"]
    exclude = ["digest"]
    actions = ["accept", "dismiss"]

    @admin.action(description="Accept: make it the lesson's resolution")
    def accept(self, request, queryset):
        for proposal in queryset.filter(status=LessonProposal.Status.PENDING):
            proposal_accept(proposal=proposal, user=request.user)
        self.message_user(request, "Accepted.")

    @admin.action(description="Dismiss")
    def dismiss(self, request, queryset):
        for proposal in queryset.filter(status=LessonProposal.Status.PENDING):
            proposal_dismiss(proposal=proposal, user=request.user)
        self.message_user(request, "Dismissed.")

    def has_add_permission(self, request):
        return False
