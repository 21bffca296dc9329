"""The tables inline on a lesson's admin page: its proposals, its history and the pattern links
learned from the fleet (a link is decided through lessons.curation, see LessonAdmin)."""

from django import forms
from django.contrib import admin

from .curation import pattern_link_confirm, pattern_link_remove
from .models import LessonCuration, LessonProposal, PatternLink


class ProposalInline(admin.TabularInline):
    model = LessonProposal
    fields = (
        "resolution",
        "resolution_code",
        "proposed_by",
        "times_proposed",
        "created_at",
        "status",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class CurationInline(admin.TabularInline):
    model = LessonCuration
    fields = ("at", "user", "action", "before", "after")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class PatternLinkForm(forms.ModelForm):
    """A curator's decision on one link; the link itself changes only through lessons.curation."""

    DECISIONS = {"confirm": pattern_link_confirm, "remove": pattern_link_remove}
    decision = forms.ChoiceField(
        required=False,
        choices=[
            ("", "---------"),
            ("confirm", "confirm: link it"),
            ("remove", "remove: never link it"),
        ],
    )

    class Meta:
        model = PatternLink
        fields: list[str] = []  # the decision only


class PatternLinkInline(admin.TabularInline):
    """The patterns the fleet reported the lesson worked for or sent as wordings of its error,
    with the evidence (successes, the agents and keys behind them, the keys that sent the
    wording), and what was decided. Deciding is editing the lesson: view-only staff see the
    evidence, those who may change lessons confirm or remove links."""

    model = PatternLink
    form = PatternLinkForm
    verbose_name, verbose_name_plural = "pattern link", "pattern links learned from the fleet"
    fields = (
        "pattern",
        "state",
        "successes",
        "agents",
        "keys",
        "wordings",
        "first_seen",
        "last_seen",
        "decided_by",
        "decided_at",
        "decision",
    )
    readonly_fields = fields[:-1]
    extra = 0
    can_delete = False

    def get_fields(self, request, obj=None):
        if self.has_change_permission(request, obj):
            return self.fields
        return self.readonly_fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("pattern", "decided_by")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("lessons.view_lesson") or self.has_change_permission(
            request, obj
        )

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("lessons.change_lesson")

    def has_add_permission(self, request, obj=None):
        return False  # a curator links a new pattern with the lesson's "patterns" field

    def has_delete_permission(self, request, obj=None):
        return False
