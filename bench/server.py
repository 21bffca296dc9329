"""The server side of the hot-path bench: gunicorn on loopback, and what machine it runs on."""

import http.client
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
START_TIMEOUT_S = 30
STOP_TIMEOUT_S = 10


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def probe(port: int, token: str | None, path: str) -> tuple[int, object]:
    """One GET; (status, parsed JSON or raw text)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(body)
    except ValueError:
        return response.status, body[:300]


class Server:
    """gunicorn serving config.wsgi with bench settings (bench.settings unless told); stopped on
    exit, also on error."""

    def __init__(
        self,
        *,
        database_url: str,
        redis_url: str,
        workers: int,
        settings: str = "bench.settings",
        python: str = sys.executable,
    ):
        self.port, self.workers = free_port(), workers
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": settings,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            # A prefix of its own per run: no stale boot or check answers from an earlier run.
            "HINDSIGHT_CACHE_PREFIX": f"hindsight-bench-{os.getpid()}",
            "DJANGO_DEBUG": "false",
            "HINDSIGHT_LOG_LEVEL": "WARNING",
        }
        self.python = python  # another environment's, e.g. one with runtime packages only
        self.args = [
            python,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            str(workers),
            "--worker-class",
            "sync",
            "--chdir",
            str(ROOT),
            "--timeout",
            "60",
            "--log-level",
            "warning",
        ]
        self.log = tempfile.NamedTemporaryFile(
            prefix="bench-gunicorn-", suffix=".log", delete=False
        )
        self.process = None

    def describe(self) -> str:
        import gunicorn

        return (
            f"Server: gunicorn {gunicorn.__version__}, {self.workers} sync workers on "
            f"{HOST}:{self.port}, DJANGO_SETTINGS_MODULE={self.env['DJANGO_SETTINGS_MODULE']}, "
            f"DEBUG off, "
            f"DB_CONN_MAX_AGE={self.env.get('DB_CONN_MAX_AGE', '60')} (persistent), "
            f"REDIS_URL={self.env['REDIS_URL']}; Python {self.python}; log {self.log.name}"
        )

    def __enter__(self):
        self.process = subprocess.Popen(
            self.args,
            env=self.env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"gunicorn exited ({self.process.returncode}); see {self.log.name}"
                )
            try:
                if probe(self.port, None, "/api/v1/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn not ready after {START_TIMEOUT_S} s; see {self.log.name}")

    def stop(self) -> None:
        """SIGTERM to gunicorn's process group (it and its workers only), SIGKILL if it lingers."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(STOP_TIMEOUT_S)


def machine_lines(database_url: str) -> list[str]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    kib = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    with psycopg.connect(database_url) as conn:
        pg = conn.execute("SHOW server_version").fetchone()[0]
        shared = conn.execute("SHOW shared_buffers").fetchone()[0]
        size = conn.execute(
            "SELECT pg_size_pretty(pg_database_size(current_database()))"
        ).fetchone()[0]
    return [
        f"Machine: {os.cpu_count()} cores ({cpu}), {kib / 2**20:.1f} GiB RAM, {platform.platform()}",
        f"Python {platform.python_version()}, PostgreSQL {pg} (shared_buffers {shared}, "
        f"database {size}), all on this machine over loopback",
    ]
