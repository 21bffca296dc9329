"""WSGI entry point (gunicorn config.wsgi)."""
import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# What loading the application created lives as long as the process. Moving it out of the
# collector's generations keeps full collections, and the pauses they add to requests, short.
gc.freeze()
