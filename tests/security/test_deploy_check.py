"""Django's deployment checklist (``manage.py check --deploy``) passes clean in production mode.

Production is ``DJANGO_ENV=production`` with a real ``SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS``
(config/settings.py refuses to start without them), here with the database and Redis URLs of
the test run as a deployment would have. ``--fail-level WARNING`` turns any warning into a
non-zero exit, so a setting that weakens the deployment fails this test.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Variables of the test run that production does not have, or that this test sets itself.
DROPPED = {"DJANGO_ENV", "SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS", "CI"}


def production_env(tmp_path: Path, **overrides: str) -> dict:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in DROPPED and not name.startswith("DJANGO_SECURE_")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_ENV": "production",
            # 64 random bytes, URL-safe: 86 characters, far past the checklist's 50 and 5 distinct.
            "SECRET_KEY": secrets.token_urlsafe(64),
            "DJANGO_ALLOWED_HOSTS": "hindsight.example",
            "DJANGO_CSRF_TRUSTED_ORIGINS": "https://hindsight.example",
            "HINDSIGHT_VAR_DIR": str(tmp_path),
            **overrides,
        }
    )
    return env


def deploy_check(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_check_without_a_warning(tmp_path):
    done = deploy_check(production_env(tmp_path))
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in output.upper()


@pytest.mark.parametrize(
    ("override", "warning"),
    [
        ({"SECRET_KEY": "too-short-to-be-secret"}, "security.W009"),
        ({"DJANGO_SECURE_HSTS_SECONDS": "0"}, "security.W004"),
        ({"DJANGO_SECURE_SSL_REDIRECT": "false"}, "security.W008"),
    ],
)
def test_weakening_production_fails_the_check(tmp_path, override, warning):
    """The check has teeth: each of these weakens a deployment, and each is reported."""
    done = deploy_check(production_env(tmp_path, **override))
    assert done.returncode != 0
    assert warning in done.stderr
