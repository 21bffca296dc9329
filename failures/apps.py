from django.apps import AppConfig


class FailuresConfig(AppConfig):
    """Failure records, the pattern engine and secret scrubbing (the bottom layer)."""

    name = "failures"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The dashboard (a staff page, which reads every app) hears of lessons a curator changed.
        from failures.staff.dashboard import dashboard_invalidate
        from lessons.signals import lessons_curated

        lessons_curated.connect(dashboard_invalidate, dispatch_uid="failures.dashboard_invalidate")
