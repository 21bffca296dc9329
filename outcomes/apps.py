from django.apps import AppConfig


class OutcomesConfig(AppConfig):
    """The outcome ledger and the history context built from it."""

    name = "outcomes"
    default_auto_field = "django.db.models.BigAutoField"
