from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Lessons learned: record, check, list and curate known resolutions."""

    name = "lessons"
    default_auto_field = "django.db.models.BigAutoField"
