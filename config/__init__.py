"""Project package: settings, URLs, the Celery app and the API frame shared by every app."""

from .celery_app import app as celery_app

__all__ = ("celery_app",)
