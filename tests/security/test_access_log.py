"""What the servers' access logs keep of a request: its path, never the values of its query, where
an agent's error message or a name with a key in it would otherwise be written down."""

import logging
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.conftest import ROOT, _free_port, _wait_for, database_url, processes_stop

SECRET = "ghp_" + "a1B2c3D4e5" * 4
QUERY = f"error_message=push+failed+with+{SECRET}&error_type=auth"


@pytest.fixture
def logged_server(transactional_db, tmp_path):
    """gunicorn started as the production layout starts it (with config/gunicorn.conf.py) on a
    spare loopback port; answers its base URL, the files its standard output and error go to,
    and the server (stop it to read the whole log: a line is written once its answer is sent)."""
    port, out = _free_port(), tmp_path / "stdout.log"
    errors = tmp_path / "stderr.log"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "config/gunicorn.conf.py",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        # Only what the server needs: no GUNICORN_CMD_ARGS of the caller's may change its logs.
        cwd=ROOT,
        env={"DATABASE_URL": database_url(), "HINDSIGHT_VAR_DIR": str(tmp_path)},
        stdout=out.open("w"),
        stderr=errors.open("w"),
    )
    try:
        _wait_for(f"http://127.0.0.1:{port}/api/v1/health", server, errors)
        yield f"http://127.0.0.1:{port}", (out, errors), server
    finally:
        processes_stop([server])


def test_gunicorn_logs_the_path_of_a_check_but_not_its_query(logged_server, make_key):
    base, (log, errors), server = logged_server
    request = urllib.request.Request(
        f"{base}/api/v1/lessons/check?{QUERY}",
        headers={
            "Authorization": f"Bearer {make_key('read')}",
            "Referer": f"{base}/admin/?q={SECRET}",
        },
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200
    with pytest.raises(urllib.error.HTTPError):  # an error answer is logged alike
        urllib.request.urlopen(f"{base}/api/v1/boot?agent={SECRET}")
    processes_stop([server])
    written = log.read_text() + errors.read_text()
    lines = log.read_text().splitlines()[-2:]  # after the start's health checks
    assert '"GET /api/v1/lessons/check HTTP/1.1" 200' in lines[0], written
    assert '"GET /api/v1/boot HTTP/1.1" 401' in lines[1], written
    assert SECRET not in written and "error_message" not in written


def test_runservers_access_lines_name_the_path_only():
    """django.server (the embedded mode's runserver) logs through the settings' filter."""
    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    logger = logging.getLogger("django.server")
    keep, level = Keep(), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)  # as HINDSIGHT_REQUEST_LOG sets it
    try:
        logger.info('"%s" %s %s', f"GET /api/v1/lessons/check?{QUERY} HTTP/1.1", "200", "93")
    finally:
        logger.removeHandler(keep)
        logger.setLevel(level)
    assert seen == ['"GET /api/v1/lessons/check HTTP/1.1" 200 93']
