"""Bench-only settings: the project's settings, the bench URLs (baseline endpoint) and a
Server-Timing header around the whole request. Use with DJANGO_SETTINGS_MODULE=bench.settings."""

from config.settings import *  # noqa: F401,F403
from config.settings import MIDDLEWARE

ROOT_URLCONF = "bench.urls"
MIDDLEWARE = ["bench.middleware.ServerTimingMiddleware", *MIDDLEWARE]
