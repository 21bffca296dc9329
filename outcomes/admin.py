"""The outcome ledger in the admin: read-only, filterable, and fast on millions of rows (no full
count, exact-match search on indexed columns, no list filters that scan the table)."""

from django.contrib import admin

from config.admin_tools import ReadOnlyAdmin, RecentFilter
from config.formats import shortened
from config.staff_admin import error_type

from .models import Outcome


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "occurred_at",
        "agent",
        "task_id",
        "task_type",
        "outcome",
        error_type,
        "duration",
        "pattern_short",
    ]
    list_select_related = ["pattern"]
    # By key: no index (every write would pay for one), so a key with few rows is a scan.
    list_filter = ["outcome", RecentFilter, "api_key"]
    readonly_fields = ["api_key"]  # not editable, so shown only when named
    # Each of these has an index led by it; a substring search would scan every row.
    search_fields = ["=agent", "=task_id", "=task_type", "=error_type"]
    raw_id_fields = ["failure", "pattern"]
    ordering = ["-occurred_at", "-id"]
    exclude = ["digest", "duration_ms"]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "duration"]

    @admin.display(description="duration", ordering="duration_ms")
    def duration(self, obj):
        return duration_text(obj.duration_ms)

    @admin.display(description="pattern", ordering="pattern")
    def pattern_short(self, obj):
        return shortened(obj.pattern.template, 60) if obj.pattern else None


def duration_text(milliseconds: int | None) -> str | None:
    """``340 ms``, ``12.5 s``, ``3 min 20 s``: a duration as a person reads it."""
    if milliseconds is None:
        return None
    if milliseconds < 1000:
        return f"{milliseconds} ms"
    if milliseconds < 60_000:
        return f"{milliseconds / 1000:.1f} s"
    minutes, seconds = divmod(round(milliseconds / 1000), 60)
    return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
