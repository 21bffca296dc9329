from django.apps import AppConfig


class LessonsConfig(AppConfig):
    """Lessons learned: record, check, list and curate known resolutions."""

    name = "lessons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from failures.signals import patterns_merged

        from .links import links_follow_merge

        patterns_merged.connect(links_follow_merge, dispatch_uid="lessons.links_follow_merge")
