from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The API frame: keys, authentication, idempotency, input limits and the error shape."""

    name = "config.api"
    label = "api"
    verbose_name = "API access"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import schema  # noqa: F401  registers the bearer scheme with drf-spectacular
