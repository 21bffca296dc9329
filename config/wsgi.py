"""WSGI entry point (gunicorn config.wsgi)."""

import gc
import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _warm_up() -> None:
    """Build the lesson match index now, so the first check does not wait for it and the index
    is frozen below with the rest. A database that is not there yet must not stop the worker:
    the first check builds it then."""
    from django.db import connections

    from lessons.match_index import match_index

    try:
        match_index()
    except Exception:  # any database failure only defers the build to the first check
        logging.getLogger(__name__).warning("lesson match index not built at start", exc_info=True)
    finally:
        connections.close_all()  # opened outside a request: not left to a forked or idle process


_warm_up()
# What loading the application created lives as long as the process. Moving it out of the
# collector's generations keeps full collections, and the pauses they add to requests, short.
gc.collect()
gc.freeze()
