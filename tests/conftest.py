"""Fixtures shared by every test folder: API keys and clients that use them."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from config.api.services import api_key_create

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def migration_rows(request, django_db_blocker):
    """Rows a data migration makes (the curators group) are emptied by a transactional test's
    flush, so a test database reused from an earlier run may lack them: make them again, as
    the migration does (it is idempotent). A run of tests that need no database sets none up."""
    if not any(
        item.get_closest_marker("django_db") or "django_db_setup" in item.fixturenames
        for item in request.session.items
    ):
        return
    request.getfixturevalue("django_db_setup")
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    with django_db_blocker.unblock():
        curators_make(apps, SimpleNamespace(connection=connection))


def curators_make(apps, schema_editor) -> None:
    """The curators group as its data migrations leave it (each is idempotent)."""
    from importlib import import_module

    import_module("lessons.migrations.0008_curators_group").curators_create(apps, schema_editor)
    import_module("failures.migrations.0011_curators_triage").curators_triage_grant(
        apps, schema_editor
    )
    import_module("alerts.migrations.0002_curators").curators_grant(apps, schema_editor)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with an empty cache: nothing cached from an earlier test's (rolled back)
    rows, and a fresh lesson match index."""
    from django.core.cache import cache

    from lessons.match_index import match_index_forget

    cache.clear()
    match_index_forget()


# How long a test waits on a Redis that is not there (connects are refused at once anyway).
DEAD_REDIS_TIMEOUT = 0.25


@pytest.fixture
def redis_down(settings):
    """Call it to point the default cache at a loopback port where no Redis listens: from then
    on every cache operation meets a refused connection, as in an outage."""
    from django.core.cache import caches

    def take_down() -> None:
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.ResilientRedisCache",
                "LOCATION": f"redis://127.0.0.1:{_free_port()}/0",
                "OPTIONS": {
                    "socket_connect_timeout": DEAD_REDIS_TIMEOUT,
                    "socket_timeout": DEAD_REDIS_TIMEOUT,
                },
            }
        }
        caches["default"].get("warm-up")  # the configured cache is now the dead one

    return take_down


@pytest.fixture
def make_key(db):
    """Create a key and return its raw value."""

    def make(scope: str = "write", name: str = "test-agent") -> str:
        return api_key_create(name=name, scope=scope).raw

    return make


def bearer(raw: str | None) -> APIClient:
    """A client that sends ``raw`` as its API key (or no key)."""
    client = APIClient()
    if raw:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def report_worked(
    client: APIClient, lesson_id, agent: str, message: str, error_type: str | None = None
) -> None:
    """An agent records a failure worded ``message`` (a task of its own), then reports that the
    lesson fixed it, as agents do through the API."""
    failure = {"agent": agent, "task": f"t-{uuid.uuid4().hex[:8]}", "error": message}
    if error_type:
        failure["error_type"] = error_type
    recorded = client.post("/api/v1/failures", failure, format="json")
    assert recorded.status_code == 201, recorded.json()
    applied = client.post(
        f"/api/v1/lessons/{lesson_id}/applications",
        {"worked": True, "agent": agent, "failure_id": recorded.json()["id"]},
        format="json",
    )
    assert applied.status_code == 201, applied.json()


@pytest.fixture
def api(make_key) -> APIClient:
    """A client holding a write key."""
    return bearer(make_key("write"))


@pytest.fixture
def read_api(make_key) -> APIClient:
    """A client holding a read key."""
    return bearer(make_key("read", name="reader"))


@pytest.fixture
def anon_api(db) -> APIClient:
    """A client with no key."""
    return bearer(None)


def database_url() -> str:
    """The test database as a URL, for servers and workers started by a test."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    host = quote(db["HOST"] or "127.0.0.1", safe="")  # a socket folder (the embedded server)
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


def gunicorn_start(
    env: dict, tmp_path: Path, *, workers: int = 4, threads: int = 4
) -> tuple[subprocess.Popen, str]:
    """Start gunicorn (config.wsgi) on a free port with ``env``; answer it and its base URL once
    its health endpoint answers."""
    port = _free_port()
    log = tmp_path / f"gunicorn-{port}.log"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--backlog",
            "1024",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/api/v1/health", server, log)
    except BaseException:
        processes_stop([server])
        raise
    return server, base


def processes_stop(processes: list[subprocess.Popen]) -> None:
    """Terminate each process; kill one that has not stopped within 30 s."""
    for process in processes:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def start_gunicorn(transactional_db, tmp_path):
    """Start a real multi-process gunicorn on the test database, with extra environment;
    returns its base URL. Stopped at the end of the test."""
    started = []

    def start(**extra_env) -> str:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "HINDSIGHT_VAR_DIR": str(tmp_path),
            **extra_env,
        }
        server, base = gunicorn_start(env, tmp_path)
        started.append(server)
        return base

    yield start
    processes_stop(started)


@pytest.fixture
def gunicorn_server(start_gunicorn):
    """A real multi-process gunicorn serving the test database; yields its base URL.

    Needs ``transactional_db`` (or ``django_db(transaction=True)``) so that what a test writes is
    committed and visible to the server's own connections.
    """
    return start_gunicorn()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, process: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"server exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"server did not answer within {seconds}s:\n{log.read_text()}")
