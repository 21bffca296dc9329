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


@pytest.fixture
def embedded(tmp_path):
    """``make run`` on a spare port with a fresh var/ folder; yields (base url, env, output)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"HINDSIGHT_VAR_DIR": str(tmp_path), "PYTHON": sys.executable})
    log = tmp_path / "run.log"
    with log.open("w") as out:
        server = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=ROOT, env=env,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=10) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail(f"make run did not answer:\n{log.read_text()}")
        yield base, env, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
