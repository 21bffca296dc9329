"""The README's quick start, as a newcomer types it: ``make run``, create a key, curl the API.

Runs the real ``make run`` in embedded mode (its own PostgreSQL in a temporary var/ folder, no
Redis) on a spare port (the ``embedded`` fixture), then talks to it over HTTP.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

from tests.e2e.conftest import free_port, make_run

ROOT = Path(__file__).resolve().parents[2]


def call(method: str, url: str, key: str | None = None, body: dict | None = None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_make_run_then_curl_the_lesson_endpoints(embedded):
    base, env, log = embedded
    output = log.read_text()
    # The login comes last, after the server's own start-up lines, and stays in sight: no
    # request line follows it (HINDSIGHT_REQUEST_LOG turns those on), and no warning is
    # repeated on the way.
    login = re.search(r"Created the admin login .*\n  user: +admin\n  password: \S+\n", output)
    assert login, output
    assert output.index("Quit the server with CONTROL-C") < login.start()
    assert not output[login.end() :].strip(), output
    assert "GET /api/v1/health" not in output
    assert "WARNING" not in output.replace("WARNING: This is a development server", "")
    assert (Path(env["HINDSIGHT_VAR_DIR"]) / "postgres" / "PG_VERSION").exists()

    created = subprocess.run(
        [sys.executable, "manage.py", "apikey", "create", "my-agent", "--scope", "write"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    key = created.stdout.strip().splitlines()[-1]

    assert call("GET", f"{base}/api/v1/lessons")[0] == 401
    status, body = call(
        "POST",
        f"{base}/api/v1/lessons",
        key,
        {"error_pattern": "test_error", "error_type": "test", "resolution": "Do X"},
    )
    assert status == 201 and body["created"] is True
    status, body = call("GET", f"{base}/api/v1/lessons/check?error_type=test", key)
    assert status == 200 and body["has_resolution"] is False  # of the type only: related
    assert [found["error_pattern"] for found in body["related"]] == ["test_error"]
    status, body = call("GET", f"{base}/api/v1/lessons/check?error_message=test_error+raised", key)
    assert status == 200 and body["has_resolution"] is True
    status, body = call("GET", f"{base}/api/v1/lessons?page=1&per_page=10", key)
    assert status == 200 and body["total"] == 6  # five known patterns, loaded by make run, + ours
    assert {l["status"] for l in body["lessons"] if l["source"] == "seed"} == {"approved"}
    _the_ledger_and_its_jobs_work_embedded(base, env, key)
    _a_message_check_ranks_embedded(base, key)


def _a_message_check_ranks_embedded(base: str, key: str) -> None:
    """The message check runs on the embedded database too: it finds lessons by message and
    ranks them (the seeded approved lesson's words fit before the template of the lesson this
    key wrote, which is unverified: a key's own words never rank its lesson first). Asked with
    the type rate_limit, the lesson this key wrote (a slug of the type test) is not one: a slug
    in a message of another type is a value it carries, not its fault."""

    def check(**asked) -> list:
        query = urllib.parse.urlencode(
            {
                "error_message": "test_error: HTTP 429 from the API: rate limit reached",
                "skill_name": "sync",
                "limit": 3,
                **asked,
            }
        )
        status, body = call("GET", f"{base}/api/v1/lessons/check?{query}", key)
        assert status == 200
        assert body["related"] == []
        return [(found["error_pattern"], found["match"]) for found in body["lessons"]]

    assert check(error_type="rate_limit") == [("api_429_rate_limit", "words")]
    assert check() == [("api_429_rate_limit", "words"), ("test_error", "template")]


def _the_ledger_and_its_jobs_work_embedded(base: str, env: dict, key: str) -> None:
    """The write paths and the jobs work on the embedded PostgreSQL, the jobs run by hand."""
    status, body = call(
        "POST",
        f"{base}/api/v1/failures",
        key,
        {"agent": "a", "task": "t1", "error": "Connection refused to db-1:5432"},
    )
    assert status == 201 and body["pattern"]["template"] == "Connection refused to <*>:<*>"
    lesson = call("GET", f"{base}/api/v1/lessons/check?error_type=test", key)[1]["related"][0]
    failing = {
        "agent": "a",
        "task_type": "sync",
        "outcome": "failure",
        "context": {"error_message": "Connection refused to db-2:5432"},
    }
    status, body = call(
        "POST",
        f"{base}/api/v1/outcomes/bulk",
        key,
        {
            "outcomes": [
                {**failing, "task_id": "t2"},
                {**failing, "task_id": "t2"},
                {
                    "agent": "a",
                    "task_id": "t1",
                    "task_type": "sync",
                    "outcome": "success",
                    "applied_lesson": lesson["id"],
                },
            ]
        },
    )
    assert status == 200 and body["created"] == 3
    assert body["results"][2]["resolved_failures"] == 1
    status, body = call("GET", f"{base}/api/v1/failures?agent=a", key)
    assert [f["status"] for f in body["failures"]] == ["open", "open", "resolved"]
    status, body = call("GET", f"{base}/api/v1/outcomes/history?agent=a", key)
    assert "- Error: Connection refused to db-2:5432\n" in body["historyContext"]  # as sent
    for command in (
        "recompute_effectiveness",
        "update_patterns",
        "detect_regressions",
        "detect_root_causes",
        "pattern_report",
    ):
        subprocess.run(
            [sys.executable, "manage.py", command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
    status, body = call("GET", f"{base}/api/v1/lessons/{lesson['id']}", key)
    assert body["applications_count"] == 1 and body["effectiveness"] > 0.5


def test_second_make_run_keeps_the_admin_and_patterns(embedded, tmp_path):
    base, env, _log = embedded
    again = subprocess.run(
        ["make", "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert "An admin login exists already" in again.stdout
    assert "0 created" in again.stdout


def postmaster(var_dir: Path) -> psutil.Process | None:
    """The embedded server running on ``var_dir``, if one is."""
    pid_file = var_dir / "postgres" / "postmaster.pid"
    if not pid_file.exists():
        return None
    process = psutil.Process(int(pid_file.read_text().split()[0]))
    return process if process.is_running() else None


def test_the_embedded_server_stops_with_make_run_and_a_killed_run_blocks_no_next_one(tmp_path):
    """Killed outright, make run leaves its server running: the next make run reuses it. A
    server killed too (a crash) leaves a stale postmaster.pid: the next one recovers. Ctrl-C
    stops the service and its server."""
    port, log = free_port(), tmp_path / "run.log"
    server, _, _ = make_run(tmp_path, port, log)
    first = postmaster(tmp_path)
    assert first is not None
    if os.geteuid() == 0:
        assert first.username() == "embedded_postgres"  # not root: its own system user
    os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)
    try:
        server, _, _ = make_run(tmp_path, port, log)
        assert postmaster(tmp_path).pid == first.pid
        assert log.read_text().count("An admin login exists already") == 1
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
        first.kill()
        first.wait(timeout=30)
        server, base, _ = make_run(tmp_path, port, log)
        again = postmaster(tmp_path)
        assert again is not None and again.pid != first.pid
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it to the group
        server.wait(timeout=60)
        again.wait(timeout=30)
        assert postmaster(tmp_path) is None
        assert not (tmp_path / "postgres" / "postmaster.pid").exists()
        # SIGTERM or SIGINT to make alone, as a process manager or a script sends it: the
        # service and its server stop within seconds either way.
        for stop in (signal.SIGTERM, signal.SIGINT):
            server, base, _ = make_run(tmp_path, port, log)
            running = postmaster(tmp_path)
            os.kill(server.pid, stop)
            server.wait(timeout=15)
            running.wait(timeout=15)
            assert postmaster(tmp_path) is None, stop
            with pytest.raises(OSError):
                urllib.request.urlopen(f"{base}/api/v1/health", timeout=2)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        if (left := postmaster(tmp_path)) is not None:
            left.kill()


def test_the_tests_use_the_embedded_server_where_no_postgresql_answers_unless_under_ci(tmp_path):
    """A laptop without PostgreSQL: the run starts the embedded one, uses it, and stops it after.
    Under CI the unreachable server fails the run instead."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CI"}}
    env.update(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:1/hindsight",
            "HINDSIGHT_VAR_DIR": str(tmp_path),
        }
    )
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:randomly",
        "--create-db",
        "tests/api/test_auth.py::test_revoked_key_is_401",
    ]
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"the tests use the embedded server in {tmp_path / 'postgres'}" in done.stderr
    assert "1 passed" in done.stdout
    assert (tmp_path / "postgres" / "PG_VERSION").exists()
    assert postmaster(tmp_path) is None  # stopped after the run

    under_ci = subprocess.run(
        args, cwd=ROOT, env={**env, "CI": "true"}, capture_output=True, text=True, timeout=120
    )
    assert under_ci.returncode == 3
    assert (
        "PostgreSQL is needed for the tests and is unreachable"
        in under_ci.stdout + under_ci.stderr
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="the server runs as its own user only under root")
def test_a_command_stops_its_server_though_a_folder_above_lost_its_traversal(tmp_path):
    """Another process may set a folder above the data back to 0700 while the server runs (pytest
    does so to its base folder): stopping it as its own user must still reach the data."""
    var_dir = tmp_path / "deep" / "var"
    var_dir.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["HINDSIGHT_VAR_DIR"] = str(var_dir)
    done = subprocess.run(
        [sys.executable, "-m", "config.embedded", "chmod", "0700", str(tmp_path / "deep")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        assert postmaster(var_dir) is None
    finally:
        if (left := postmaster(var_dir)) is not None:
            left.kill()


def test_a_stale_pid_file_naming_another_process_is_no_server(tmp_path):
    """After a crash and a reboot, postmaster.pid may name a pid another process holds now: the
    next start recovers the data with a new server, and the stop signals that one, never the
    process that took the old pid."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["HINDSIGHT_VAR_DIR"] = str(tmp_path)
    start = (
        "import sys; from pathlib import Path; from config.embedded import EmbeddedPostgres;"
        " EmbeddedPostgres(Path(sys.argv[1])).start()"
    )
    subprocess.run(
        [sys.executable, "-c", start, str(tmp_path)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=180,
    )
    crashed = postmaster(tmp_path)
    crashed.kill()
    crashed.wait(timeout=30)
    bystander = subprocess.Popen(["sleep", "300"])
    pid_file = tmp_path / "postgres" / "postmaster.pid"
    lines = pid_file.read_text().split("\n")
    pid_file.write_text("\n".join([str(bystander.pid), *lines[1:]]))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "config.embedded", "true"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert bystander.poll() is None  # never signalled
        assert not pid_file.exists()  # the new server started, and stopped with the command
    finally:
        bystander.kill()
        if (left := postmaster(tmp_path)) is not None and left.pid != bystander.pid:
            left.kill()


def embedded_env(var_dir: Path) -> dict:
    """The environment of the embedded mode (no DATABASE_URL), on ``var_dir``."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"HINDSIGHT_VAR_DIR": str(var_dir), "PYTHON": sys.executable})
    return env


def test_make_run_on_a_taken_port_names_the_variable_that_picks_another(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=embedded_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode != 0
    assert f"Port {port} on 127.0.0.1 is not free" in done.stderr
    assert f"`make run PORT={port + 1}`" in done.stderr
    assert not (tmp_path / "postgres").exists()  # said before anything started


def test_manage_py_without_its_database_says_so_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "showmigrations"],
        cwd=ROOT,
        env=embedded_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("The database is not running or refuses the connection")
    assert "`make run`" in done.stderr and "python -m config.embedded COMMAND" in done.stderr
    assert "Traceback" not in done.stderr
