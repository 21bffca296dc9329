"""Settings, read from the environment.

With nothing set, Hindsight runs embedded: the PostgreSQL server that ``make run`` starts under
``var/`` (config.embedded), a local-memory cache and Celery tasks executed eagerly in process.
``DATABASE_URL`` selects an external PostgreSQL server, ``REDIS_URL``
switches the cache and the Celery broker to Redis, and ``DJANGO_ENV=production`` turns on the
deployment hardening (and refuses to start without ``SECRET_KEY``).
"""

import os
import secrets
import socket
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.embedded import database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("HINDSIGHT_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no variable; unknown spellings are an error rather than a silent default."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "").strip().lower() == "production"


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production")
    # Embedded mode keeps a generated key in var/ so sessions survive restarts.
    return kept_secret_key(VAR_DIR)


def kept_secret_key(folder: Path) -> str:
    """The key kept in ``folder``/secret_key, generated there if there is none. Several workers
    may start at once on a fresh folder: each writes a key whole to a file of its own (readable
    by the owner only from the start), then links it into place, which only one of them can do;
    the others read the winner's key. (A worker that read a neighbour's file half-written got
    an empty key and failed to start; two that each wrote one held different keys.)"""
    path = folder / "secret_key"
    if path.exists():
        return path.read_text().strip()
    folder.mkdir(parents=True, exist_ok=True)
    draft = folder / f"secret_key.{os.getpid()}.{secrets.token_hex(4)}"
    with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
        file.write(secrets.token_urlsafe(50))
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = False if PRODUCTION else env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_ENV=production")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "config.staff_admin.HindsightAdminConfig",  # the stock admin, guarded (config.staff_admin)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "config.api",
    "failures",
    "outcomes",
    "lessons",
    "alerts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.api.middleware.BodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# API paths answer with and without a trailing slash on their own (see config/urls.py), so a
# redirect, which would drop a POST body, is never needed.
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------------------------
# Without DATABASE_URL, the embedded server that `make run` starts under var/ (config.embedded).
DATABASE_URL = os.environ.get("DATABASE_URL") or database_url(VAR_DIR)
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(f"DATABASE_URL must name a PostgreSQL server, not {DATABASE_URL!r}")
# psycopg prepares a statement bound on the server once it has run this many times on a connection
# (the raw statements of the queries modules are: config.database); "off" behind a pooler that
# cannot keep prepared statements (PgBouncer's transaction mode before 1.21).
if os.environ.get("DB_PREPARE_THRESHOLD", "").strip().lower() != "off":
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = env_int(
        "DB_PREPARE_THRESHOLD", 5
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache and Celery ---------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("HINDSIGHT_CACHE_PREFIX", "hindsight"),
            "OPTIONS": {
                # A cache that answers slower than this is treated as down: a miss is cheaper,
                # and a stalled Redis then holds a request up by this much at most (once per
                # process per breaker interval, config.cache). A local Redis answers in well
                # under a millisecond; a spurious trip only skips the cache for a while.
                "socket_connect_timeout": 0.1,
                "socket_timeout": 0.1,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: the broker is REDIS_URL (or CELERY_BROKER_URL); without one, tasks run inline.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL == "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Every task recomputes from the database, so running one twice is harmless: ack after the work,
# and a task whose worker died is delivered again.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 600
CELERY_TASK_SOFT_TIME_LIMIT = 540
CELERY_TIMEZONE = "UTC"
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
# Two ways to talk to the broker. Whatever publishes (web requests, beat) uses the options below:
# a write must not wait on a stalled or dead broker (config.jobs), so one attempt, no retries, and
# a tenth of a second to connect or to get an answer (a local Redis answers in well under a
# millisecond); a job that could not be sent is left to its periodic run.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 0.1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 0.1,
    "socket_timeout": 0.1,
    "retry_on_timeout": False,
    "max_retries": 0,
}
# A worker (config.celery_app swaps these in as it starts) waits out a broker that is slow or
# stalled instead of dropping its connection: a BRPOP it sent during a stall is run by Redis when
# it resumes, and were the connection closed meanwhile the message it pops would go with it
# (popped, never delivered, never in the unacked index). A broker host that is gone is noticed
# by TCP keepalive (no answer to 3 probes 5 s apart after 10 s idle: about 25 s); a broker that
# restarts closes the connection, and the worker reconnects for as long as it takes.
HINDSIGHT_WORKER_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 5,
    "socket_timeout": None,
    "socket_keepalive": True,
    "socket_keepalive_options": {
        socket.TCP_KEEPIDLE: 10,
        socket.TCP_KEEPINTVL: 5,
        socket.TCP_KEEPCNT: 3,
    },
    # A message whose acknowledgement was lost (config.broker) comes back after this long: longer
    # than any task may run (CELERY_TASK_TIME_LIMIT), or a running task would be delivered twice.
    "visibility_timeout": 900,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task running when the connection drops is stopped (its message comes back and it runs again,
# which every task allows) rather than left to ack on a connection that is gone.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Each periodic job, how often it runs (seconds), and the management command that runs it by hand.
# HINDSIGHT_BEAT_EVERY_SECONDS runs them all at that interval instead (for tests and demos).
HINDSIGHT_PERIODIC_JOBS = {
    "update-patterns": ("failures.tasks.patterns_update_task", 5 * 60),
    "recompute-effectiveness": ("lessons.tasks.effectiveness_recompute_task", 15 * 60),
    "detect-regressions": ("failures.tasks.regressions_detect_task", 15 * 60),
    # Every five minutes: an incident's symptoms are grouped within 15 minutes of its start.
    "detect-root-causes": ("failures.tasks.root_causes_detect_task", 5 * 60),
    # Every five minutes: a release's new fault is named while the release rolls out.
    "judge-releases": ("outcomes.tasks.versions_judge_task", 5 * 60),
    "pattern-report": ("failures.tasks.pattern_report_task", 24 * 3600),
    "prune-outcomes": ("outcomes.tasks.outcomes_prune_task", 24 * 3600),
    "prune-idempotency": ("config.api.tasks.idempotency_prune_task", 24 * 3600),
    # Every minute: raise alerts, and send (or retry) the deliveries that are due.
    "send-alerts": ("alerts.tasks.alerts_run_task", 60),
}
_BEAT_EVERY = env_int("HINDSIGHT_BEAT_EVERY_SECONDS", 0)
CELERY_BEAT_SCHEDULE = {
    name: {"task": task, "schedule": float(_BEAT_EVERY or seconds)}
    for name, (task, seconds) in HINDSIGHT_PERIODIC_JOBS.items()
}
# Outcomes older than this many days are deleted by the daily job (0 keeps them all).
HINDSIGHT_OUTCOME_RETENTION_DAYS = env_int("HINDSIGHT_OUTCOME_RETENTION_DAYS", 90)

# --- auth, i18n, static -------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
# One format of moment on every staff page, with the time zone (config/formats).
FORMAT_MODULE_PATH = ["config.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Django's two finders, plus the dashboard's charting library (plotly.js) served from the
# installed plotly package rather than a copy in the repository (failures.staff.dashboard_static).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "failures.staff.dashboard_static.PlotlyFinder",
]
# Embedded mode serves static files straight from the apps; production serves the collected,
# compressed and hashed copies.
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns when it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- the API ------------------------------------------------------------------------------------
HINDSIGHT_MAX_BODY_BYTES = env_int("HINDSIGHT_MAX_BODY_BYTES", 1024 * 1024)
HINDSIGHT_MAX_JSON_DEPTH = 20
# POST /outcomes/bulk and /v1/traces take up to HINDSIGHT_BULK_MAX_ITEMS outcomes or
# HINDSIGHT_OTLP_MAX_SPANS spans, so a larger body.
HINDSIGHT_MAX_BULK_BODY_BYTES = env_int("HINDSIGHT_MAX_BULK_BODY_BYTES", 8 * 1024 * 1024)
# Django's own ceiling must admit the largest body a view accepts; each view's limit is
# enforced before the body is read (config.api.middleware) and again by the parser.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(HINDSIGHT_MAX_BODY_BYTES, HINDSIGHT_MAX_BULK_BODY_BYTES)
# Outcomes of one POST /outcomes/bulk and spans of one POST /v1/traces; more is a 413. With the
# body limit above, a request at a cap is recorded within 10 s on a 2-core machine
# (bench/caps.py), a third of gunicorn's 30 s worker timeout.
HINDSIGHT_BULK_MAX_ITEMS = env_int("HINDSIGHT_BULK_MAX_ITEMS", 1000)
HINDSIGHT_OTLP_MAX_SPANS = env_int("HINDSIGHT_OTLP_MAX_SPANS", 2000)

# History context for prompts (the task-history seed): how many items of each kind, from how
# many days back. The cache entry of an agent is dropped at once when it records an outcome;
# the timeout bounds how long other agents' new outcomes may be missing from its related tasks.
AGENT_ENABLE_TASK_HISTORY = env_bool("AGENT_ENABLE_TASK_HISTORY", True)
HINDSIGHT_HISTORY_LIMITS = {
    "successes": env_int("HINDSIGHT_HISTORY_SUCCESSES", 10),
    "success_days": env_int("HINDSIGHT_HISTORY_SUCCESS_DAYS", 7),
    "failures": env_int("HINDSIGHT_HISTORY_FAILURES", 5),
    "failure_days": env_int("HINDSIGHT_HISTORY_FAILURE_DAYS", 7),
    "related": env_int("HINDSIGHT_HISTORY_RELATED", 5),
    "related_days": env_int("HINDSIGHT_HISTORY_RELATED_DAYS", 30),
}
HINDSIGHT_HISTORY_CACHE_SECONDS = env_int("HINDSIGHT_HISTORY_CACHE_SECONDS", 600)

# The boot briefing: how far back "recent" reaches, and after how many failures of one task
# with one pattern (and no success since) the task is to be skipped.
HINDSIGHT_BOOT_WINDOW_HOURS = env_int("HINDSIGHT_BOOT_WINDOW_HOURS", 24)
HINDSIGHT_SKIP_AFTER = env_int("HINDSIGHT_SKIP_AFTER", 3)

# A lesson reported to have worked for a failure of a pattern it is not linked to is linked to it
# once it worked there this many times for at least this many agents and API keys, or once this
# many keys sent a wording of that pattern for it (lessons.links): one agent's repeated report is
# one opinion, and two could be a coincidence; a key names whatever agents it likes, so one key
# is one source however many names it sends.
HINDSIGHT_LINK_MIN_SUCCESSES = env_int("HINDSIGHT_LINK_MIN_SUCCESSES", 3)
HINDSIGHT_LINK_MIN_AGENTS = env_int("HINDSIGHT_LINK_MIN_AGENTS", 2)
HINDSIGHT_LINK_MIN_KEYS = env_int("HINDSIGHT_LINK_MIN_KEYS", 2)

# --- API throttling -----------------------------------------------------------------------------
# Request budgets per API key (not per address: a fleet behind one NAT shares an address, not a
# key), counted in fixed windows in the cache (config.api.throttling). Reads, writes and bulk
# writes each have their own budget. A rate is "N/second", "N/minute", "N/hour" or "N/day";
# "off" lifts that limit. The defaults (1,000 reads, 500 writes and 50 bulk writes of up to
# 1,000 outcomes a second, sustained over a minute) are far above what an agent or the demo
# fleet sends through one key, and above what the benchmarks (bench/) send through theirs: they
# stop a runaway loop, not traffic.
_RATE_PERIODS = {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}


def env_rate(name: str, default: str) -> str | None:
    """Read a throttle rate; a malformed one stops the start rather than a request later."""
    raw = (os.environ.get(name) or default).strip().lower()
    if raw in {"off", "none"}:
        return None
    count, _, period = raw.partition("/")
    if not (count.isdigit() and int(count) > 0 and period in _RATE_PERIODS):
        raise ImproperlyConfigured(f"{name} must look like 600/minute or be off, not {raw!r}")
    return raw


HINDSIGHT_THROTTLE_RATES = {
    "read": env_rate("HINDSIGHT_THROTTLE_READ", "60000/minute"),
    "write": env_rate("HINDSIGHT_THROTTLE_WRITE", "30000/minute"),
    # POST /outcomes/bulk: up to HINDSIGHT_BULK_MAX_ITEMS outcomes per request.
    "bulk": env_rate("HINDSIGHT_THROTTLE_BULK", "3000/minute"),
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["config.api.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["config.api.permissions.HasScopeForMethod"],
    "DEFAULT_PARSER_CLASSES": ["config.api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exceptions.api_exception_handler",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": ["config.api.throttling.ApiKeyRateThrottle"],
    "DEFAULT_THROTTLE_RATES": HINDSIGHT_THROTTLE_RATES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Hindsight API",
    "DESCRIPTION": "Failure memory for fleets of AI agents.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "PREPROCESSING_HOOKS": ["config.api.schema.drop_slash_variants"],
    # The enum hook is drf-spectacular's default; the second documents every error status.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api.schema.document_error_responses",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    # Several fields are called "status" with different choices; name each set explicitly.
    "ENUM_NAME_OVERRIDES": {
        "LessonStatusEnum": "lessons.models.Lesson.Status",
        "FailureStatusEnum": "failures.models.Failure.Status",
        "ClosingStatusEnum": ["resolved", "abandoned"],
        "OpenRootCauseStatusEnum": ["suggested", "confirmed"],
        "VersionKindEnum": "failures.models.Version.Kind",
    },
}

# --- production hardening -----------------------------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Alerts (alerts.sending): the service's own address, which an alert's links start with, and
# whether webhook and Slack URLs may be plain http and reach loopback, private, link-local or
# other non-public addresses (a receiver inside your own network); refused by default.
HINDSIGHT_PUBLIC_URL = os.environ.get("HINDSIGHT_PUBLIC_URL", "http://127.0.0.1:8000")
HINDSIGHT_ALERT_PRIVATE_URLS = env_bool("HINDSIGHT_ALERT_PRIVATE_URLS", False)

ADMINS = [("Hindsight admins", a) for a in env_list("DJANGO_ADMINS", [])]
# Email (the daily pattern report goes to ADMINS) is configured only when EMAIL_HOST or
# EMAIL_BACKEND is given: without either, nothing is sent.
if os.environ.get("EMAIL_HOST"):
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
if os.environ.get("EMAIL_BACKEND"):
    EMAIL_BACKEND = os.environ["EMAIL_BACKEND"]
SERVER_EMAIL = DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "hindsight@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"no_query": {"()": "config.logfilters.QueryStringDropped"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("HINDSIGHT_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # runserver's access lines (the embedded mode): the path, never the query's values;
        # only with HINDSIGHT_REQUEST_LOG, so the console keeps the start-up banner and its
        # admin login in sight (errors are logged either way). gunicorn's are shaped by
        # config/gunicorn.conf.py.
        "django.server": {
            "handlers": ["console"],
            "filters": ["no_query"],
            "level": "INFO" if env_bool("HINDSIGHT_REQUEST_LOG") else "WARNING",
            "propagate": False,
        },
        # Jobs run inline (no broker) would print a line per job ("succeeded in 0.0123s"): a
        # worker's log, not the console's.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}
