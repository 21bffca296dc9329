"""Running a django-filter FilterSet with its errors in the API's error shape."""

import django_filters
from django.core.exceptions import ValidationError
from django_filters.fields import IsoDateTimeField

from config.errors import InvalidInput
from config.moments import OUT_OF_RANGE, moment_utc
from config.scrubbing import scrubbed


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 moment turned into UTC (config.moments.moment_utc)."""

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment_utc(moment)
        except OverflowError:
            raise ValidationError(OUT_OF_RANGE, code="overflow") from None


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


def filtered(filterset_class, data, queryset):
    """The filtered queryset; invalid filter values raise InvalidInput naming each field."""
    filterset = filterset_class(data, queryset=queryset)
    if not filterset.is_valid():
        raise InvalidInput.from_fields(
            {name: [str(m) for m in messages] for name, messages in filterset.errors.items()}
        )
    return filterset.qs
