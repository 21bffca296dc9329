"""Bench settings without a cache: bench.settings with Django's DummyCache, so every history read
misses (and nothing is stored). Use with DJANGO_SETTINGS_MODULE=bench.settings_nocache."""

from bench.settings import *  # noqa: F401,F403

CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
