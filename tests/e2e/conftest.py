"""Live services for the end-to-end tests."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The last lines make run prints once it serves (config.embedded.serve).
BANNER = "Ctrl-C stops it)"


def make_run(var_dir: Path, port: int, log: Path) -> tuple[subprocess.Popen, str, dict]:
    """Start ``make run`` on ``port`` with ``var_dir`` (and no DATABASE_URL or REDIS_URL: the
    embedded mode), in a process group of its own; wait until it answers. (process, base url,
    env)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"HINDSIGHT_VAR_DIR": str(var_dir), "PYTHON": sys.executable})
    # The log may hold earlier runs' banners: this run serves once it adds its own.
    banners = log.read_text().count(BANNER) if log.exists() else 0
    with log.open("a") as out:
        server = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=10) as answer:
                # Serving; the banner and the admin login follow the first answer.
                if answer.status == 200 and log.read_text().count(BANNER) > banners:
                    return server, base, env
        except OSError:
            pass
        time.sleep(0.3)
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)
    pytest.fail(f"make run did not answer:\n{log.read_text()}")


@pytest.fixture
def embedded(tmp_path):
    """``make run`` on a spare port with a fresh var/ folder; yields (base url, env, output)."""
    log = tmp_path / "run.log"
    server, base, env = make_run(tmp_path, free_port(), log)
    try:
        yield base, env, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
