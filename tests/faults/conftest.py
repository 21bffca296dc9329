"""Throwaway Redis and PostgreSQL servers that a fault test may kill and restart.

Each one runs from its own temporary folder on a free loopback port and is stopped, and its folder
removed, when the test ends, passed or not; the machine's shared servers are never touched. A
missing server binary skips the test, except under CI where it fails the run.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
import redis

from tests.conftest import ROOT, _free_port, database_url, gunicorn_start, processes_stop


def _postgres_bin() -> Path:
    """Where initdb and pg_ctl are: HINDSIGHT_FAULTS_PG_BIN, else Debian's newest
    /usr/lib/postgresql/<version>/bin, else the folder of an initdb on PATH."""
    if os.environ.get("HINDSIGHT_FAULTS_PG_BIN"):
        return Path(os.environ["HINDSIGHT_FAULTS_PG_BIN"])
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda found: int(found.parts[-3]) if found.parts[-3].isdigit() else 0,
    )
    if debian:
        return debian[-1].parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else Path("/usr/lib/postgresql/15/bin")


POSTGRES_BIN = _postgres_bin()
# How long a throwaway server may take to accept connections on this small, busy machine.
START_SECONDS = 30


def need_binary(name: str, path: Path | None = None) -> str:
    """The binary's path; skip the test without it, or fail under CI."""
    if path is not None:
        found = str(path) if os.access(path, os.X_OK) else None
    else:
        found = shutil.which(name)
    if found:
        return found
    reason = f"{path or name} is not installed; the fault tests start their own servers with it"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def until(condition, seconds: float, pause: float = 0.2) -> bool:
    """Poll ``condition`` until it holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(pause)
    return False


class ThrowawayRedis:
    """``redis-server`` without persistence on a fixed port: kill it and start it again."""

    def __init__(self, binary: str, directory: Path):
        self.binary, self.directory = binary, directory
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        """Start (empty: nothing is saved) and wait until it answers PING."""
        self.starts += 1
        log = self.directory / f"redis-{self.starts}.log"
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        if not until(self._answers, START_SECONDS):
            self.kill()
            pytest.fail(f"throwaway Redis did not start:\n{log.read_text()}")

    def pause(self) -> None:
        """SIGSTOP: a stalled server, whose port still accepts connections but never answers."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT: the stalled server answers again, running what it was sent meanwhile."""
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would end it (stalled or not)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=2)

    def _answers(self) -> bool:
        if self.process.poll() is not None:
            return False
        try:
            return self.client().ping()
        except redis.RedisError:
            return False


@pytest.fixture
def throwaway_redis(tmp_path):
    """A started ThrowawayRedis, killed at the end of the test."""
    server = ThrowawayRedis(need_binary("redis-server"), tmp_path)
    server.start()
    yield server
    server.kill()


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own, run as the ``postgres`` OS user when the tests run as root
    (initdb refuses root). Trust authentication, loopback only, fsync off: it is thrown away."""

    def __init__(self, root: Path):
        self.root, self.data, self.log = root, root / "data", root / "server.log"
        self.port = _free_port()

    def url(self, name: str = "hindsight") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def connect(self, name: str = "hindsight") -> psycopg.Connection:
        return psycopg.connect(self.url(name), autocommit=True, connect_timeout=5)

    def init(self) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "--no-instructions",
        )

    def start(self) -> None:
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
            "-c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            str(START_SECONDS),
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m fast`` ends sessions cleanly; ``immediate`` is a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        """Stop whatever still runs and delete the cluster."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            try:
                self.stop("immediate")
            except subprocess.CalledProcessError:
                os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(POSTGRES_BIN / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise subprocess.CalledProcessError(
                done.returncode, command, done.stdout, f"{done.stderr}\n{self._log_tail()}"
            )

    def _log_tail(self) -> str:
        return self.log.read_text()[-4000:] if self.log.exists() else ""


@pytest.fixture
def throwaway_postgres():
    """A started ThrowawayPostgres holding a migrated ``hindsight`` database; removed at the end."""
    need_binary("initdb", POSTGRES_BIN / "initdb")
    root = Path(tempfile.mkdtemp(prefix="hindsight-faults-pg-"))
    if os.geteuid() == 0:
        need_binary("runuser")
        shutil.chown(root, "postgres", "postgres")
    server = ThrowawayPostgres(root)
    try:
        server.init()
        server.start()
        with server.connect("postgres") as connection:
            connection.execute("CREATE DATABASE hindsight")
        manage(server.url(), "migrate", "--verbosity", "0")
        yield server
    finally:
        server.remove()


def manage(database_url: str, *args: str) -> str:
    """Run ``manage.py`` on another database; return what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "DATABASE_URL": database_url},
    )
    if done.returncode:
        pytest.fail(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@pytest.fixture
def gunicorn_on(tmp_path):
    """Start gunicorn on any database (``gunicorn_on(database_url, workers=2, **env)``);
    returns its URL. Stopped at the end of the test."""
    started = []

    def start(database_url: str, workers: int = 2, **extra_env) -> str:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "HINDSIGHT_VAR_DIR": str(tmp_path),
            **extra_env,
        }
        server, base = gunicorn_start(env, tmp_path, workers=workers, threads=2)
        started.append(server)
        return base

    yield start
    processes_stop(started)


@pytest.fixture
def celery_on(transactional_db, tmp_path):
    """Start ``celery worker`` or ``beat`` on the test database and a given broker; stopped at the
    end of the test. Returns the process, whose log is ``celery-<command>.log``."""
    started = []

    def start(broker_url: str, *args: str, **extra_env) -> subprocess.Popen:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "HINDSIGHT_VAR_DIR": str(tmp_path),
            "CELERY_BROKER_URL": broker_url,
            **extra_env,
        }
        log = (tmp_path / f"celery-{args[0]}.log").open("w")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config.celery_app",
                *args,
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        started.append(process)
        return process

    yield start
    processes_stop(started)


def logs(tmp_path) -> str:
    """The tails of the test's server logs, to explain a failure."""
    return "\n".join(
        f"--- {log.name}\n{log.read_text()[-3000:]}" for log in sorted(tmp_path.glob("*.log"))
    )
