"""Filters of the failure list."""

import django_filters

from config.api.filtering import ScrubbedCharFilter, UtcIsoDateTimeFilter
from failures.models import MAX_ID, Failure


class FailureFilter(django_filters.FilterSet):
    """agent, task, task_type, error_type, pattern, status and since."""

    agent = ScrubbedCharFilter(max_length=100)
    task = ScrubbedCharFilter(max_length=200)
    task_type = ScrubbedCharFilter(max_length=100)
    error_type = ScrubbedCharFilter(max_length=100)
    pattern = django_filters.NumberFilter(field_name="pattern_id", min_value=1, max_value=MAX_ID)
    status = django_filters.ChoiceFilter(choices=Failure.Status.choices)
    since = UtcIsoDateTimeFilter(field_name="occurred_at", lookup_expr="gte")

    class Meta:
        model = Failure
        fields = ["agent", "task", "task_type", "error_type", "pattern", "status", "since"]
