"""A fleet's week of failures, generated with a fixed seed, for the root-cause tests.

Two fleets, each a fresh database in its test:

* ``week_fleet``: twelve agents over seven days. Steady trickles (rate limits, missing files,
  bad JSON, test time-outs, rejected pushes) fail all week at their own rates; two faults come in
  episodes of a few minutes to half an hour (a registry's pull limit, a certificate store);
  four faults trickle for three hours each, two pairs of them overlapping in time; two pairs of
  faults burst together for one agent only (its own run hits both). Each symptom of an incident
  also fails alone now and then. Six true incidents: a dependency goes down for six to ten
  minutes and four agents see it as three symptoms that share no host and no word, retrying
  with backoff; three fall inside one clock hour, three across an hour boundary.
* ``fresh_fleet``: an install three hours old, eight unrelated faults that all began within
  those hours, each a trickle or a few short episodes at its own rate.
* ``young_fleet``: such an install of six agents, then its first outage, with unrelated bursts
  of one agent each in the same minutes (see its docstring).

``independent_pairs`` and ``incidents`` say which faults must stay apart and which must be
grouped; every fault is one pattern (its message varies only in numbers).
"""

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import combinations

NOW = datetime(2026, 11, 20, 14, 37, 12, tzinfo=timezone.utc)
WEEK = timedelta(days=7)
AGENTS = tuple(f"agent-{n:02d}" for n in range(1, 13))
SEED = 25  # one draw; tests.failures.test_rootcause_corpus also checks many (pure, no database)


@dataclass
class Fleet:
    now: datetime
    faults: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (template, type)
    failures: list[tuple[str, str, datetime]] = field(default_factory=list)  # fault, agent, at
    independent_pairs: list[tuple[str, str]] = field(default_factory=list)
    incidents: list[tuple[str, ...]] = field(default_factory=list)
    incident_starts: list[datetime] = field(default_factory=list)

    def fault(self, name: str, template: str, error_type: str) -> str:
        self.faults[name] = (template, error_type)
        return name

    def fail(self, name: str, agent: str, at: datetime) -> None:
        if at <= self.now:
            self.failures.append((name, agent, at))

    def message(self, name: str, rng: random.Random) -> str:
        template = self.faults[name][0]
        return template.format(*(rng.randint(2, 99999) for _ in range(template.count("{}"))))

    def entries(self, *, until: datetime | None = None) -> list[dict]:
        """The failures as ``failures_record_many`` entries (each its own task), up to
        ``until``."""
        rng = random.Random(SEED)
        return [
            {
                "agent": agent,
                "task": f"{name}-{index}",
                "task_type": "work",
                "error": self.message(name, rng),
                "error_type": self.faults[name][1],
                "occurred_at": at,
            }
            for index, (name, agent, at) in enumerate(sorted(self.failures, key=lambda f: f[2]))
            if until is None or at <= until
        ]


# Every fault's message: none shares a host with another, an incident's symptoms share no word.
STEADY = {
    "rate_limit": (
        "openai.RateLimitError: Error code: 429 - Rate limit reached for gpt-4o on "
        "tokens per min (TPM): Limit 30000, Used {}, Requested {}",
        "rate_limit",
    ),
    "missing_file": (
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/work/{}/output.json'",
        "file_not_found",
    ),
    "bad_json": (
        "json.decoder.JSONDecodeError: Expecting value: line {} column {} (char {})",
        "json_decode",
    ),
    "test_timeout": (
        "subprocess.TimeoutExpired: Command 'npm test' timed out after {} seconds",
        "timeout",
    ),
    "push_rejected": (
        "! [rejected] main -> main (fetch first) error: failed to push some refs "
        "after {} attempts",
        "git",
    ),
}
EPISODIC = {
    "pull_limit": (
        "docker: Error response from daemon: toomanyrequests: You have reached your "
        "pull rate limit, retry {}",
        "registry",
    ),
    "cert_store": (
        "ssl.SSLCertVerificationError: certificate verify failed: unable to get local "
        "issuer certificate (_ssl.c:{})",
        "ssl",
    ),
}
THREE_HOUR = {
    "schema_drift": (
        "pydantic_core.ValidationError: {} validation errors for InvoiceLine",
        "validation",
    ),
    "quota": (
        "google.api_core.exceptions.ResourceExhausted: 429 Quota exceeded for metric "
        "sheets-read, request {}",
        "quota",
    ),
    "lint": ("ruff check failed: Found {} errors (E501 line too long)", "lint"),
    "flaky_browser": (
        "playwright._impl._errors.TargetClosedError: Target page, context or "
        "browser has been closed at step {}",
        "browser",
    ),
}
ONE_AGENT = {
    "venv_perm": (
        "PermissionError: [Errno 13] Permission denied: '/workspace/{}/.venv/bin/pip'",
        "permission",
    ),
    "resolver": (
        "ERROR: ResolutionImpossible: cannot install numpy==1.{} because these package "
        "versions have conflicting dependencies",
        "dependency",
    ),
    "disk_full": ("OSError: [Errno 28] No space left on device writing chunk {}", "os"),
    "migration_lock": (
        "django.db.utils.OperationalError: database is locked (attempt {})",
        "database",
    ),
}
# Six outages, each seen as three symptoms (cause, then symptoms).
INCIDENTS = [
    {
        "cache_read": (
            "CacheReadError: memcached GET returned SERVER_ERROR out of memory for slab {}",
            "cache",
        ),
        "broker_reset": (
            "kombu.exceptions.OperationalError: [Errno 104] Connection reset by peer (channel {})",
            "broker",
        ),
        "session_timeout": ("SessionStore.load exceeded {}ms deadline", "timeout"),
    },
    {
        "db_closed": (
            "psycopg.OperationalError: server closed the connection unexpectedly (pid {})",
            "database",
        ),
        "pool_overflow": ("QueuePool limit of size {} overflow {} reached", "pool"),
        "advisory_lock": ("alembic could not acquire advisory lock {}", "lock"),
    },
    {
        "upload_stalled": ("S3 PutObject part {} incomplete after stall", "storage"),
        "index_missing": ("ElasticsearchWarning: index_not_found_exception [logs-{}]", "search"),
        "heartbeat_lost": ("Celery worker-{} missed heartbeat; task revoked", "worker"),
    },
    {
        "ldap_socket": (
            "ldap3.core.exceptions.LDAPSocketOpenError: socket ssl wrapping error {}",
            "auth",
        ),
        "token_refresh": ("OAuth token refresh returned invalid_grant for client {}", "oauth"),
        "saml_expired": ("SAML assertion {} expired NotOnOrAfter", "saml"),
    },
    {
        "dns_again": ("getaddrinfo EAI_AGAIN while resolving upstream {}", "dns"),
        "grpc_unavailable": ("grpc.RpcError: StatusCode.UNAVAILABLE details={}", "grpc"),
        "gateway_503": ("HTTP 503 Service Unavailable from gateway shard {}", "http"),
    },
    {
        "vault_sealed": (
            "hvac.exceptions.VaultDown: Vault is sealed (unseal progress {}/3)",
            "secrets",
        ),
        "kafka_leader": ("KafkaError NOT_LEADER_FOR_PARTITION on topic orders-{}", "kafka"),
        "smtp_refused": (
            "smtplib.SMTPServerDisconnected: please run connect() first ({})",
            "mail",
        ),
    },
]
# Minute of the hour each outage starts at: three inside one hour, three across a boundary.
INCIDENT_MINUTES = (12, 57, 31, 54, 5, 58)


def _poisson(rng: random.Random, start: datetime, end: datetime, per_hour: float):
    """Moments of a Poisson process of ``per_hour`` events an hour in [start, end)."""
    at = start
    while True:
        at += timedelta(hours=rng.expovariate(per_hour))
        if at >= end:
            return
        yield at


def _episode(
    fleet: Fleet, rng: random.Random, name: str, start: datetime, minutes: float, agents
) -> None:
    """A fault failing for ``minutes`` from ``start`` for these agents, each retrying with
    backoff (20 to 90 seconds between tries)."""
    for agent in agents:
        at = start + timedelta(seconds=rng.uniform(0, 60))
        while at <= start + timedelta(minutes=minutes):
            fleet.fail(name, agent, at)
            at += timedelta(seconds=rng.uniform(20, 90))


def _outage(
    fleet: Fleet,
    rng: random.Random,
    symptoms: list[str],
    start: datetime,
    minutes: float,
    agents=AGENTS,
) -> list[str]:
    """A dependency down for ``minutes``: four of ``agents`` meet it on every try, each try
    showing one symptom (the call it was making), tries 20 to 90 seconds apart; the four."""
    chosen = rng.sample(agents, 4)
    for agent in chosen:
        at = start + timedelta(seconds=rng.uniform(0, 45))
        while at <= start + timedelta(minutes=minutes):
            fleet.fail(rng.choice(symptoms), agent, at)
            at += timedelta(seconds=rng.uniform(20, 90))
    return chosen


def week_fleet(*, seed: int = SEED) -> Fleet:
    rng = random.Random(seed)
    fleet = Fleet(now=NOW)
    since = NOW - WEEK
    for table in (STEADY, EPISODIC, THREE_HOUR, ONE_AGENT, *INCIDENTS):
        for name, (template, error_type) in table.items():
            fleet.fault(name, template, error_type)
    # Steady trickles: one failure at a time, random agents, all week.
    for name, per_hour in zip(STEADY, (4.0, 1.5, 2.5, 2.0, 1.0)):
        for at in _poisson(rng, since, NOW, per_hour):
            fleet.fail(name, rng.choice(AGENTS), at)
    # Episodic faults: a few episodes of 3 to 30 minutes for two to four agents.
    for name in EPISODIC:
        for at in _poisson(rng, since, NOW, 7 / (7 * 24)):
            _episode(
                fleet, rng, name, at, rng.uniform(3, 30), rng.sample(AGENTS, rng.randint(2, 4))
            )
    # Three-hour trickles: schema_drift and quota overlap by two hours, lint and flaky_browser
    # by all three.
    starts = {
        "schema_drift": NOW - timedelta(hours=50),
        "quota": NOW - timedelta(hours=49),
        "lint": NOW - timedelta(hours=100),
        "flaky_browser": NOW - timedelta(hours=100, minutes=10),
    }
    for name, start in starts.items():
        agents = rng.sample(AGENTS, rng.randint(3, 5))
        for at in _poisson(rng, start, start + timedelta(hours=3), rng.uniform(8, 16)):
            fleet.fail(name, rng.choice(agents), at)
    # One agent's own run hits two faults at once, three times; other agents hit each alone.
    for (first, second), agent in (
        ((("venv_perm", "resolver")), "agent-07"),
        ((("disk_full", "migration_lock")), "agent-03"),
    ):
        for _ in range(3):
            start = since + timedelta(hours=rng.uniform(2, 160))
            minutes = rng.uniform(8, 25)
            _episode(fleet, rng, first, start, minutes, [agent])
            _episode(fleet, rng, second, start, minutes, [agent])
        for name in (first, second):
            for at in _poisson(rng, since, NOW, 0.1):
                fleet.fail(name, rng.choice(AGENTS), at)
    # Incidents: each symptom also fails alone a few times a day.
    for number, (symptoms, minute) in enumerate(zip(INCIDENTS, INCIDENT_MINUTES)):
        for name in symptoms:
            for at in _poisson(rng, since, NOW, rng.uniform(1, 6) / 24):
                fleet.fail(name, rng.choice(AGENTS), at)
        hour = (NOW - timedelta(hours=6 + 26 * number)).replace(minute=0, second=0, microsecond=0)
        start = hour + timedelta(minutes=minute, seconds=rng.uniform(0, 50))
        _outage(fleet, rng, list(symptoms), start, rng.uniform(6, 10))
        fleet.incidents.append(tuple(symptoms))
        fleet.incident_starts.append(start)
    fleet.independent_pairs = [
        *combinations(STEADY, 2),
        *combinations(EPISODIC, 2),
        ("pull_limit", "rate_limit"),
        ("cert_store", "bad_json"),
        *combinations(THREE_HOUR, 2),
        ("venv_perm", "resolver"),
        ("disk_full", "migration_lock"),
        ("cache_read", "db_closed"),
        ("rate_limit", "cache_read"),
    ]
    return fleet


FRESH = {
    "fresh_auth": ("anthropic.AuthenticationError: invalid x-api-key (request {})", "auth"),
    "fresh_context": ("prompt is too long: {} tokens > 200000 maximum", "context"),
    "fresh_import": ("ModuleNotFoundError: No module named 'pandas' in step {}", "import"),
    "fresh_tool": ("tool_use ids were found without tool_result blocks: toolu_{}", "tool"),
    "fresh_clone": (
        "fatal: could not read Username for repository {}: terminal prompts disabled",
        "git",
    ),
    "fresh_port": ("OSError: [Errno 98] Address already in use: port {}", "os"),
    "fresh_oom": ("Killed: process {} exceeded memory limit", "oom"),
    "fresh_parse": (
        "yaml.scanner.ScannerError: mapping values are not allowed here, line {}",
        "yaml",
    ),
}


def _unrelated_faults(fleet: Fleet, rng: random.Random, born: datetime) -> None:
    """FRESH's eight faults, each begun in the first 90 minutes after ``born`` for two to five of
    the first six agents, then a trickle or a few short episodes at its own rate until now."""
    for name, (template, error_type) in FRESH.items():
        fleet.fault(name, template, error_type)
        start = born + timedelta(minutes=rng.uniform(0, 90))
        agents = rng.sample(AGENTS[:6], rng.randint(2, 5))
        if rng.random() < 0.5:  # a trickle
            for at in _poisson(rng, start, fleet.now, rng.uniform(3, 20)):
                fleet.fail(name, rng.choice(agents), at)
        else:  # a few episodes
            for at in _poisson(rng, start, fleet.now, rng.uniform(1, 3)):
                _episode(fleet, rng, name, at, rng.uniform(2, 12), rng.sample(agents, 2))


def fresh_fleet(*, seed: int = SEED) -> Fleet:
    """An install three hours old: eight unrelated faults, all begun within those hours."""
    rng = random.Random(seed)
    fleet = Fleet(now=NOW)
    _unrelated_faults(fleet, rng, NOW - timedelta(hours=3))
    fleet.independent_pairs = list(combinations(FRESH, 2))
    return fleet


CONTROLS = {
    "control_lint": ("eslint found {} problems in src/app.tsx", "lint"),
    "control_fixture": ("pytest fixture 'tenant_{}' not found", "test"),
    "provider_down": (
        "anthropic.InternalServerError: Error code: 529 - overloaded (request {})",
        "provider",
    ),
}


def young_fleet(*, seed: int = SEED) -> Fleet:
    """An install three hours old with six agents and the fresh fleet's kinds of background
    faults; then a shared dependency goes down for six to ten minutes and four of the agents
    meet it as three symptoms that share no word (one of INCIDENTS' outages, new to the fleet).
    In the same minutes two unrelated faults each burst for one of those agents, and another of
    them meets its model provider's outage alone. ``now`` is 15 minutes after the outage's
    start: it must be grouped by then, at its first occurrence."""
    rng = random.Random(seed)
    agents = AGENTS[:6]
    start = NOW - timedelta(minutes=15)
    born = start - timedelta(hours=3)
    fleet = Fleet(now=NOW)
    _unrelated_faults(fleet, rng, born)
    for name, (template, error_type) in CONTROLS.items():
        fleet.fault(name, template, error_type)
    symptoms = INCIDENTS[seed % len(INCIDENTS)]
    for name, (template, error_type) in symptoms.items():
        fleet.fault(name, template, error_type)
    seen = _outage(fleet, rng, list(symptoms), start, rng.uniform(6, 10), agents)
    for name, agent in zip(CONTROLS, seen):
        _episode(
            fleet,
            rng,
            name,
            start + timedelta(seconds=rng.uniform(0, 90)),
            rng.uniform(5, 10),
            [agent],
        )
    fleet.incidents.append(tuple(symptoms))
    fleet.incident_starts.append(start)
    others = [*FRESH, *CONTROLS]
    fleet.independent_pairs = [
        *combinations(others, 2),
        *((other, symptom) for other in others for symptom in symptoms),
    ]
    return fleet
