"""pytest plugin loaded before pytest-django reads settings: point tests at the real servers.

``make test`` sets DATABASE_URL and REDIS_URL itself; a bare ``pytest`` gets the same defaults.
"""
import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hindsight")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
