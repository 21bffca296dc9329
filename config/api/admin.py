"""API keys in the admin: create (the key is shown once), list and revoke."""

from django.contrib import admin, messages
from django.utils.html import format_html

from config.staff_admin import GuardedAdmin

from .forms import ApiKeyForm
from .models import ApiKey, IdempotencyRecord
from .services import api_key_create, api_key_revoke


@admin.register(ApiKey)
class ApiKeyAdmin(GuardedAdmin):
    list_display = ["name", "prefix", "scope", "agents", "created_at", "last_used_at", "state"]
    list_filter = ["scope", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix"]
    readonly_fields = ["prefix", "created_at", "created_by", "last_used_at", "revoked_at"]
    actions = ["revoke"]
    form = ApiKeyForm

    def get_fields(self, request, obj=None):
        return (
            ["name", "scope", "agent_patterns"]
            if obj is None
            else ["name", "scope", "agent_patterns", *self.readonly_fields]
        )

    def get_readonly_fields(self, request, obj=None):
        # A key's scope is part of what was handed out; changing it means issuing a new key.
        return [] if obj is None else ["scope", *self.readonly_fields]

    @admin.display(description="agents")
    def agents(self, obj):
        return ", ".join(obj.agent_patterns) or "any (fleet key)"

    @admin.display(description="state")
    def state(self, obj):
        return "revoked" if obj.revoked_at else "active"

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        created = api_key_create(
            name=obj.name,
            scope=obj.scope,
            created_by=request.user,
            agent_patterns=obj.agent_patterns,
        )
        obj.pk = created.key.pk
        obj.refresh_from_db()
        messages.warning(
            request,
            format_html("The new key is shown only now; copy it: <code>{}</code>", created.raw),
        )

    @admin.action(description="Revoke selected keys", permissions=["change"])
    def revoke(self, request, queryset):
        for key in queryset.filter(revoked_at__isnull=True):
            api_key_revoke(key=key)
        self.message_user(request, "Revoked.")

    def has_delete_permission(self, request, obj=None):
        return False  # revoke instead: a deleted key leaves nothing to audit


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(GuardedAdmin):
    list_display = ["event_id", "operation", "status_code", "created_at"]
    list_filter = ["operation"]
    search_fields = ["=event_id"]
    show_full_result_count = False

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
