"""Running a django-filter FilterSet with its errors in the API's error shape."""
from config.api.errors import InvalidInput


def filter_or_400(filterset_class, data, queryset):
    """The filtered queryset; invalid filter values raise a 400 naming each field."""
    filterset = filterset_class(data, queryset=queryset)
    if not filterset.is_valid():
        raise InvalidInput.from_fields(
            {name: [str(m) for m in messages] for name, messages in filterset.errors.items()})
    return filterset.qs
