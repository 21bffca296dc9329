"""The outcome ledger in the admin: read-only, filterable, and fast on millions of rows (no full
count, exact-match search on indexed columns, no list filters that scan the table)."""
from django.contrib import admin

from config.admin_tools import ReadOnlyAdmin, RecentFilter

from .models import Outcome


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    list_display = ["id", "occurred_at", "agent", "task_id", "task_type", "outcome", "error_type",
                    "duration_ms", "pattern"]
    list_select_related = ["pattern"]
    # By key: no index (every write would pay for one), so a key with few rows is a scan.
    list_filter = ["outcome", RecentFilter, "api_key"]
    readonly_fields = ["api_key"]  # not editable, so shown only when named
    # Each of these has an index led by it; a substring search would scan every row.
    search_fields = ["=agent", "=task_id", "=task_type", "=error_type"]
    raw_id_fields = ["failure", "pattern"]
    ordering = ["-occurred_at", "-id"]
    exclude = ["digest"]
