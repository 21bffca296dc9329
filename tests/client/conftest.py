"""Client fixtures: a live gunicorn on the test database, and one that can be stopped and started
again on the same port, so a client's URL stays valid across an outage."""

import os
import subprocess
import sys

import httpx
import pytest

from hindsight_client import Hindsight
from tests.conftest import ROOT, _free_port, _wait_for, database_url


@pytest.fixture
def write_key(make_key, transactional_db) -> str:
    """A committed write key the live server accepts."""
    return make_key("write", name="client-agent")


@pytest.fixture
def hs(gunicorn_server, write_key, tmp_path):
    """A sync client of the live server, spooling under the test's own directory."""
    with Hindsight(
        gunicorn_server, write_key, agent="agent-1", spool_dir=tmp_path / "spool"
    ) as client:
        yield client


class RestartableServer:
    """gunicorn on a fixed port: ``stop()`` and ``start()`` as often as a test needs."""

    def __init__(self, log_dir):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        self.process = None
        self.starts = 0

    def start(self) -> None:
        """Start serving (waits until /health answers)."""
        self.starts += 1
        log = self.log_dir / f"gunicorn-{self.port}-{self.starts}.log"
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "HINDSIGHT_VAR_DIR": str(self.log_dir),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
        )
        _wait_for(f"{self.url}/api/v1/health", self.process, log)

    def stop(self) -> None:
        """Stop serving; the port refuses connections afterwards."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture
def restartable_server(transactional_db, tmp_path):
    """A started RestartableServer, stopped at the end of the test."""
    server = RestartableServer(tmp_path)
    server.start()
    yield server
    server.stop()


class Recording(httpx.HTTPTransport):
    """The real transport, keeping every request it sends (``sent``)."""

    def __init__(self):
        super().__init__()
        self.sent: list[httpx.Request] = []

    def handle_request(self, request):
        self.sent.append(request)
        return super().handle_request(request)


class AsyncRecording(httpx.AsyncHTTPTransport):
    """The real async transport, keeping every request it sends (``sent``)."""

    def __init__(self):
        super().__init__()
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request):
        self.sent.append(request)
        return await super().handle_async_request(request)
