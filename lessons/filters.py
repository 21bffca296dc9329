"""Filters of the lesson list."""

import django_filters
from django.db.models import Q

from config.api.filtering import ScrubbedCharFilter, UtcIsoDateTimeFilter

from .models import Lesson


class LessonFilter(django_filters.FilterSet):
    """error_type, skill_name, status, source, min_effectiveness, since and a text search ``q``."""

    error_type = ScrubbedCharFilter(max_length=100)
    skill_name = ScrubbedCharFilter(max_length=100)
    status = django_filters.ChoiceFilter(choices=Lesson.Status.choices)
    source = django_filters.ChoiceFilter(choices=Lesson.Source.choices)
    min_effectiveness = django_filters.NumberFilter(
        field_name="effectiveness", lookup_expr="gte", min_value=0, max_value=1
    )
    since = UtcIsoDateTimeFilter(field_name="last_occurred", lookup_expr="gte")
    q = django_filters.CharFilter(method="search", max_length=200)

    class Meta:
        model = Lesson
        fields = [
            "error_type",
            "skill_name",
            "status",
            "source",
            "min_effectiveness",
            "since",
            "q",
        ]

    def search(self, queryset, name, value):
        return queryset.filter(
            Q(error_pattern__icontains=value)
            | Q(resolution__icontains=value)
            | Q(error_type__icontains=value)
            | Q(skill_name__icontains=value)
        )
