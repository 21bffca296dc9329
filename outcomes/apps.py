from django.apps import AppConfig


class OutcomesConfig(AppConfig):
    """The outcome ledger and the history context built from it."""

    name = "outcomes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from failures.signals import patterns_merged

        from .services import outcomes_follow_merge

        patterns_merged.connect(
            outcomes_follow_merge, dispatch_uid="outcomes.outcomes_follow_merge"
        )
