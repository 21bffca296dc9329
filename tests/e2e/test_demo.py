"""``make demo``: the simulated fleet against the embedded service, and its learning curve.

Runs the real ``make demo`` in embedded mode (its own PostgreSQL in a temporary var/ folder, no
Redis) and reads the curve from its last lines; then runs the regression job on what the fleet
left and reads the dashboard's headline figures, as a curator opening it after the demo would.
With ``make run`` serving on ``PORT`` already, ``make demo`` uses that service.
"""

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.e2e.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_make_demo_curve_falls_as_lessons_are_approved_and_applied(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "HINDSIGHT_URL", "HINDSIGHT_API_KEY"}
    }
    env.update({"HINDSIGHT_VAR_DIR": str(tmp_path), "PYTHON": sys.executable})
    port = free_port()
    started = time.monotonic()
    done = subprocess.run(
        ["make", "demo", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    took = time.monotonic() - started
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert took < 180
    assert f"Serving the embedded service on http://127.0.0.1:{port} for the demo" in output

    curve = [int(n) for n in re.search(r"^curve: ([\d ]+)$", output, re.M).group(1).split()]
    assert len(curve) == 8
    assert curve[0] > curve[-1] and curve[-1] <= curve[0] / 4, curve

    approvals = [
        int(n) for n in re.findall(r"approving (\d+) lesson\(s\) \(as a human would", output)
    ]
    assert sum(approvals) == 5  # one lesson per injected fault
    totals = re.search(r"approved: (\d+)  applied: (\d+)  worked: (\d+)", output)
    approved, applied, worked = map(int, totals.groups())
    assert approved == 5 and applied > 0 and worked > applied * 0.9
    # The demo stopped the server it started; the data stays for the dashboard.
    assert (tmp_path / "postgres" / "PG_VERSION").exists()
    assert not (tmp_path / "postgres" / "postmaster.pid").exists()

    # Every fault came back after its lesson was approved, and the lesson handled it: the
    # faults recur by nature, the fixes keep working, so none of it is a regression.
    def manage(*args: str) -> str:
        """A management command with the embedded server up for it (config.embedded)."""
        ran = subprocess.run(
            [sys.executable, "-m", "config.embedded", sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        return ran.stdout

    judged = re.search(
        r"(\d+) new regression\(s\), (\d+) recurring and handled", manage("detect_regressions")
    )
    assert (int(judged.group(1)), int(judged.group(2))) == (0, 5)
    summary = json.loads(manage("shell", "-c", SUMMARY).strip().splitlines()[-1])
    assert (summary["regressions"], summary["recurring_handled"]) == (0, 5)


# The dashboard's headline figures, as JSON on the last line.
SUMMARY = (
    "import json; from django.utils import timezone; "
    "from failures.staff.dashboard import dashboard_compose; "
    "print(json.dumps(dashboard_compose(now=timezone.now())['summary']))"
)


def test_make_demo_uses_the_make_run_serving_on_its_port(embedded, tmp_path):
    base, env, _log = embedded
    port = base.rsplit(":", 1)[1]
    elsewhere = {**env, "HINDSIGHT_VAR_DIR": str(tmp_path / "elsewhere")}
    refused = subprocess.run(
        ["make", "demo", f"PORT={port}"],
        cwd=ROOT,
        env=elsewhere,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert refused.returncode != 0
    assert f"the service on {base} does not use this checkout's database" in refused.stderr

    done = subprocess.run(
        ["make", "demo", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert f"Using the service on {base} for the demo" in output
    assert "Serving the embedded service" not in output
    curve = [int(n) for n in re.search(r"^curve: ([\d ]+)$", output, re.M).group(1).split()]
    assert curve[0] > curve[-1] and curve[-1] <= curve[0] / 4, curve
    key = subprocess.run(
        [sys.executable, "manage.py", "apikey", "create", "reader", "--scope", "read"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[-1]
    request = urllib.request.Request(
        f"{base}/api/v1/lessons?status=approved&source=agent",
        headers={"Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer)["total"] == 5  # the demo's lessons, in make run's database
