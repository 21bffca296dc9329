"""pytest plugin loaded before pytest-django reads settings: point tests at the real servers.

``make test`` sets DATABASE_URL and REDIS_URL itself; a bare ``pytest`` gets the same defaults.
When that PostgreSQL does not answer and CI is not set (a laptop without one), the run uses the
embedded server of ``make run`` (config.embedded, under var/postgres), started for the run and
stopped after it unless it was running already. Under CI an unreachable server fails the run
(conftest.py).
"""

import os
import sys

import dj_database_url
import psycopg

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hindsight")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")


def postgres_unreachable(url: str) -> str | None:
    """Why the PostgreSQL server of ``url`` does not answer, or None when it does."""
    db = dj_database_url.parse(url)
    try:
        psycopg.connect(
            host=db["HOST"] or None,
            port=db["PORT"] or None,
            user=db["USER"] or None,
            password=db["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as exc:
        return str(exc).strip()
    return None


_started = None
if not os.environ.get("CI") and (why := postgres_unreachable(os.environ["DATABASE_URL"])):
    from config.embedded import EmbeddedPostgres, database_url, var_dir

    _embedded = EmbeddedPostgres(var_dir())
    _started = _embedded if _embedded.start() else None
    os.environ["DATABASE_URL"] = database_url(var_dir())
    print(
        f"PostgreSQL at DATABASE_URL does not answer ({why.splitlines()[0]}); the tests use "
        f"the embedded server in {_embedded.pgdata}",
        file=sys.stderr,
    )


def pytest_unconfigure(config):
    if _started is not None:
        _started.stop()
