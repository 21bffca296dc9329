from django.apps import AppConfig


class FailuresConfig(AppConfig):
    """Failure records, the pattern engine and secret scrubbing (the bottom layer)."""

    name = "failures"
    default_auto_field = "django.db.models.BigAutoField"
