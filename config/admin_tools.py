"""Admin pieces for changelists over large tables (failures, outcomes): no full COUNT(*).

A changelist counts its rows to paginate. On a table of millions that count is a full scan on
every page view, so these lists count at most COUNT_CAP rows of a filtered list and read
PostgreSQL's own estimate of the table's size (``pg_class.reltuples``, kept by ANALYZE) when
nothing is filtered. Past the cap, narrow the list with a filter or a search.
"""

from datetime import timedelta

from django.contrib import admin
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.functional import cached_property

from config.staff_admin import GuardedAdmin

# Rows counted at most for a filtered list: 200 pages of 50, enough to see how big a result is.
COUNT_CAP = 10_000


class EstimatedCountPaginator(Paginator):
    """Counts a filtered list up to COUNT_CAP rows; an unfiltered table by PostgreSQL's
    estimate."""

    @cached_property
    def count(self) -> int:
        queryset = self.object_list
        assert isinstance(queryset, QuerySet)  # an admin changelist pages a queryset
        if not queryset.query.where:
            estimate = _table_estimate(queryset)
            # A small or never analysed table (estimate -1 or stale) is cheap to count exactly.
            if estimate is not None and estimate > COUNT_CAP:
                return estimate
        return queryset[:COUNT_CAP].count()


def _table_estimate(queryset) -> int | None:
    connection = connections[queryset.db]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [queryset.model._meta.db_table],
        )
        row = cursor.fetchone()
    return row[0] if row else None


class ReadOnlyAdmin(GuardedAdmin):
    """A list and a detail view, nothing else: these rows are written by agents through the API."""

    show_full_result_count = False  # no second COUNT(*) of the whole table
    paginator = EstimatedCountPaginator
    list_per_page = 50

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RecentFilter(admin.SimpleListFilter):
    """When it happened, in fixed windows (no query to list the choices, unlike date_hierarchy)."""

    title = "occurred"
    parameter_name = "within"
    field = "occurred_at"
    WINDOWS = {
        "1h": ("last hour", timedelta(hours=1)),
        "24h": ("last 24 hours", timedelta(days=1)),
        "7d": ("last 7 days", timedelta(days=7)),
        "30d": ("last 30 days", timedelta(days=30)),
    }

    def lookups(self, request, model_admin):
        return [(key, label) for key, (label, _) in self.WINDOWS.items()]

    def queryset(self, request, queryset):
        value = self.value()
        window = self.WINDOWS.get(value) if value is not None else None
        if window is None:
            return queryset
        return queryset.filter(**{f"{self.field}__gte": timezone.now() - window[1]})
