"""Settings from the environment: embedded defaults, the switches, and production's refusals."""

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'db': s.DATABASES['default']['ENGINE'], "
    "'name': str(s.DATABASES['default']['NAME']), 'host': s.DATABASES['default']['HOST'], "
    "'cache': s.CACHES['default']['BACKEND'], "
    "'eager': s.CELERY_TASK_ALWAYS_EAGER, 'broker': s.CELERY_BROKER_URL, 'debug': s.DEBUG}))"
)


def run(code_or_args, env_overrides: dict, tmp_path) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "SECRET_KEY", "CI"}
    }
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "HINDSIGHT_VAR_DIR": str(tmp_path)})
    env.update(env_overrides)
    args = code_or_args if isinstance(code_or_args, list) else ["-c", code_or_args]
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_with_nothing_set_it_runs_embedded(tmp_path):
    done = run(PRINT_SETTINGS, {}, tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    # The embedded PostgreSQL that make run starts, on its socket in var/postgres.
    assert found["db"] == "django.db.backends.postgresql"
    assert (found["host"], found["name"]) == (str(tmp_path / "postgres"), "hindsight")
    assert found["cache"].endswith("LocMemCache")
    assert found["eager"] is True and found["debug"] is False


def test_database_and_redis_urls_switch_backends(tmp_path):
    done = run(
        PRINT_SETTINGS,
        {
            "DATABASE_URL": "postgres://u@db.example:5432/hs",
            "REDIS_URL": "redis://cache.example:6379/2",
        },
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["db"] == "django.db.backends.postgresql" and found["name"] == "hs"
    assert found["cache"] == "config.cache.ResilientRedisCache"
    assert found["eager"] is False and found["broker"] == "redis://cache.example:6379/2"


def test_a_database_url_of_another_engine_is_refused(tmp_path):
    done = run(PRINT_SETTINGS, {"DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3"}, tmp_path)
    assert done.returncode != 0
    assert "DATABASE_URL must name a PostgreSQL server" in done.stderr


def test_workers_starting_at_once_on_a_fresh_var_folder_share_one_whole_key(tmp_path):
    from config.settings import kept_secret_key

    for attempt in range(30):
        folder = tmp_path / str(attempt)
        start = threading.Barrier(12)

        def worker(_):
            start.wait()
            return kept_secret_key(folder)

        with ThreadPoolExecutor(12) as pool:
            keys = set(pool.map(worker, range(12)))
        assert len(keys) == 1 and len(keys.pop()) >= 50
        assert [p.name for p in folder.iterdir()] == ["secret_key"]  # no drafts left
        assert (folder / "secret_key").stat().st_mode & 0o777 == 0o600


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    done = run(
        PRINT_SETTINGS,
        {"DJANGO_ENV": "production", "DJANGO_ALLOWED_HOSTS": "hindsight.example"},
        tmp_path,
    )
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_production_passes_the_deploy_check_without_warnings(tmp_path):
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        {
            "DJANGO_ENV": "production",
            "DJANGO_ALLOWED_HOSTS": "hindsight.example",
            "SECRET_KEY": "k3y-" + "x7Yq9" * 12,
        },
        tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_a_misspelt_boolean_is_an_error(tmp_path):
    done = run(PRINT_SETTINGS, {"DJANGO_DEBUG": "maybe"}, tmp_path)
    assert done.returncode != 0 and "DJANGO_DEBUG must be true or false" in done.stderr


def test_request_lines_and_inline_job_lines_are_off_unless_asked(tmp_path):
    levels = (
        "import django, logging; django.setup(); print(logging.getLevelName("
        "logging.getLogger('django.server').level), logging.getLevelName("
        "logging.getLogger('celery.app.trace').level))"
    )
    assert run(levels, {}, tmp_path).stdout.split() == ["WARNING", "WARNING"]
    assert run(levels, {"HINDSIGHT_REQUEST_LOG": "true"}, tmp_path).stdout.split() == [
        "INFO",
        "WARNING",
    ]
    # A worker with a broker logs each job, as Celery workers do.
    assert run(levels, {"REDIS_URL": "redis://cache.example:6379/2"}, tmp_path).stdout.split() == [
        "WARNING",
        "INFO",
    ]
