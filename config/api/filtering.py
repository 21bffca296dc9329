"""Running a django-filter FilterSet with its errors in the API's error shape."""
from datetime import timezone

import django_filters
from django.core.exceptions import ValidationError
from django_filters.fields import IsoDateTimeField

from config.api.errors import InvalidInput
from config.api.fields import scrubbed


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 moment turned into UTC.

    Python accepts UTC offsets up to ±23:59, PostgreSQL only up to ±15:59: a moment given with
    a larger offset is compared in UTC instead of being sent as written (a 500 otherwise).
    """

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(timezone.utc)
        except OverflowError:
            raise ValidationError("Date and time is out of range.", code="overflow") from None


class UtcIsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    """IsoDateTimeFilter whose value is compared in UTC."""

    field_class = UtcIsoDateTimeField


class ScrubbedCharFilter(django_filters.CharFilter):
    """A text filter on a column that holds scrubbed text: the value is scrubbed the same way
    (config.api.fields.scrubbed), so a name sent with a secret in it still finds its rows."""

    def filter(self, qs, value):
        if value:
            value = scrubbed(value, self.extra.get("max_length"))
        return super().filter(qs, value)


def filter_or_400(filterset_class, data, queryset):
    """The filtered queryset; invalid filter values raise a 400 naming each field."""
    filterset = filterset_class(data, queryset=queryset)
    if not filterset.is_valid():
        raise InvalidInput.from_fields(
            {name: [str(m) for m in messages] for name, messages in filterset.errors.items()})
    return filterset.qs
