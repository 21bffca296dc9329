"""Fill a dedicated PostgreSQL database with a realistic failure history for the benchmarks.

Run from the project root:
    .venv/bin/python bench/datagen.py [--database hindsight_bench] [--failures N] [--patterns P]

What it writes (all with COPY, never the ORM row by row):
  patterns   P (default 50,000) patterns, one stored template each (bench.messages shapes);
  failures   N (default 1,000,000), patterns drawn Zipf-like (a few hot ones, a long tail; every
             pattern at least once), several hundred agents (also skewed), thousands of tasks of
             ~20 task types, ~90 days of timestamps leaning recent, mostly resolved/abandoned,
             open ones mostly recent, some with checkpoints;
  lessons    a few thousand: templates, slugs and phrases, many linked to patterns, about a
             third approved, a tenth rejected; plus the seeded known patterns.
Pattern counters (events, agents, tasks, resolved, unsafe, first/last seen, retry_after) are then
computed from the failures in SQL, and the database is vacuumed and analysed.

The database is created if missing and migrated with ``manage.py migrate``. Its name must
contain "bench": this script truncates the Hindsight tables of that database and nothing else.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from bisect import bisect
from datetime import datetime, timedelta, timezone
from itertools import accumulate
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lessongen import lessons_write  # noqa: E402
from bench.messages import all_makers  # noqa: E402
from failures.patterns import WILDCARD, fingerprint_of, template_of  # noqa: E402
from failures.patterns.tokens import split  # noqa: E402

DEFAULT_DATABASE = "hindsight_bench"
SERVER_URL = os.environ.get("BENCH_PG_SERVER", "postgres://postgres@127.0.0.1:5432")
# Zipf exponents: 1.0 over 50k patterns puts ~8% of failures on the top pattern and leaves the
# tail with a handful each; agents are less skewed (a few busy agents, none idle).
PATTERN_SKEW = 1.0
AGENT_SKEW = 0.8
# Share of an agent's failures on its own tasks; the rest on any task (shared work, handovers).
OWN_TASK_SHARE = 0.9
# Recent failures are the ones still open: within OPEN_RECENT_DAYS 40% are open, older ones 2%.
OPEN_RECENT_DAYS = 3
ROLES = "coder reviewer deployer researcher tester planner triager writer analyst migrator".split()
TASK_TYPES = """code_review bug_fix deploy data_sync report triage refactor migration test_run
    doc_write research invoice_run email_campaign embedding_build backup dependency_update
    incident_response etl scrape summarise""".split()
HINTS = [
    "",
    "",
    "",
    "retry with a smaller batch",
    "check the service status page",
    "rotate the API key",
    "wait for the lock holder to finish",
    "pin the previous version",
]
TRUNCATED = [
    "lessons_lesson_patterns",
    "lessons_lesson",
    "failures_failuretemplate",
    "failures_failure",
    "failures_failurepattern",
]


def database_url(name: str) -> str:
    return f"{SERVER_URL}/{name}"


def database_prepare(name: str) -> str:
    """Create the bench database if missing, migrate it, and return its URL."""
    if "bench" not in name:
        raise SystemExit(f"refusing to touch database {name!r}: its name must contain 'bench'")
    with psycopg.connect(database_url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = database_url(name)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"},
        check=True,
    )
    return url


def pattern_head(tokens: tuple[str, ...]) -> str:
    """As failures.store.patterns.pattern_head (not imported: that module needs Django set up)."""
    first = tokens[0] if tokens else ""
    return "*" if WILDCARD in first else first[:200]


def zipf_cum_weights(n: int, skew: float) -> list[float]:
    return list(accumulate(1.0 / (rank**skew) for rank in range(1, n + 1)))


def patterns_make(count: int, rng: random.Random) -> list[dict]:
    """``count`` distinct patterns: their maker, template, fingerprint, type and popularity rank."""
    makers = all_makers()
    if count > len(makers):
        raise SystemExit(f"at most {len(makers)} patterns can be generated")
    patterns, seen = [], set()
    for maker in rng.sample(makers, len(makers)):
        template = template_of(maker.make(rng))
        fingerprint = fingerprint_of(template)
        if fingerprint in seen or template_of(maker.make(rng)) != template:
            continue  # a shape whose values leak into the template: not a stable pattern
        seen.add(fingerprint)
        tokens = split(template)
        patterns.append(
            {
                "id": len(patterns) + 1,
                "maker": maker,
                "template": template,
                "fingerprint": fingerprint,
                "error_type": maker.error_type,
                "token_count": len(tokens),
                "head": pattern_head(tokens),
                "unsafe": rng.random() < 0.05,
            }
        )
        if len(patterns) == count:
            return patterns
    raise SystemExit(f"only {len(patterns)} stable patterns available")


def patterns_write(conn, patterns: list[dict], now: datetime) -> None:
    with conn.cursor() as cur:
        with cur.copy(
            "COPY failures_failurepattern (id, fingerprint, template, error_type, "
            "token_count, head, first_seen, last_seen, event_count, agent_count, "
            "task_count, resolved_count, unsafe_count, status) FROM STDIN"
        ) as copy:
            for p in patterns:
                copy.write_row(
                    (
                        p["id"],
                        p["fingerprint"],
                        p["template"],
                        p["error_type"],
                        p["token_count"],
                        p["head"],
                        now,
                        now,
                        0,
                        0,
                        0,
                        0,
                        0,
                        "open",
                    )
                )
        with cur.copy(
            "COPY failures_failuretemplate (id, fingerprint, template, pattern_id) FROM STDIN"
        ) as copy:
            for p in patterns:
                copy.write_row((p["id"], p["fingerprint"], p["template"], p["id"]))


def fleet_make(agent_count: int, task_count: int) -> tuple[list[str], list[tuple], dict]:
    """Agents, tasks as (name, type) and each agent's own tasks."""
    agents = [f"{ROLES[i % len(ROLES)]}-{i:03d}" for i in range(agent_count)]
    tasks, owned = [], {a: [] for a in agents}
    for i in range(task_count):
        task = (f"{TASK_TYPES[i % len(TASK_TYPES)]}-{i:05d}", TASK_TYPES[i % len(TASK_TYPES)])
        tasks.append(task)
        owned[agents[(i * 7) % agent_count]].append(task)
    return agents, tasks, owned


def failure_rows(
    count: int, patterns: list[dict], fleet, rng: random.Random, now: datetime, days: int
):
    """Yield failure rows (see FAILURE_COLUMNS); every pattern at least once."""
    agents, tasks, owned = fleet
    pattern_cw = zipf_cum_weights(len(patterns), PATTERN_SKEW)
    agent_cw = zipf_cum_weights(len(agents), AGENT_SKEW)
    by_rank = rng.sample(patterns, len(patterns))  # popularity rank independent of shape
    agents_by_rank = rng.sample(agents, len(agents))
    total_p, total_a, span = pattern_cw[-1], agent_cw[-1], days * 86400
    for i in range(count):
        if i < len(patterns):
            pattern = by_rank[i]
        else:
            pattern = by_rank[bisect(pattern_cw, rng.random() * total_p)]
        agent = agents_by_rank[bisect(agent_cw, rng.random() * total_a)]
        mine = owned[agent]
        task, task_type = (
            rng.choice(mine) if mine and rng.random() < OWN_TASK_SHARE else rng.choice(tasks)
        )
        yield _failure_row(rng, now, span, pattern, agent, task, task_type)


def _failure_row(rng, now, span, pattern, agent, task, task_type) -> tuple:
    maker = pattern["maker"]
    age = span * rng.random() ** 1.5  # leaning recent
    occurred = now - timedelta(seconds=age)
    recent = age < OPEN_RECENT_DAYS * 86400
    roll = rng.random()
    if roll < (0.4 if recent else 0.02):
        status, resolved_at = "open", None
    else:
        status = "resolved" if rng.random() < 0.75 else "abandoned"
        resolved_at = min(now, occurred + timedelta(seconds=rng.randint(30, 6 * 3600)))
    checkpoint = None
    if rng.random() < (0.3 if status == "open" else 0.03):
        checkpoint = json.dumps(
            {"step": rng.randint(1, 9), "of": 10, "cursor": f"{maker.obj}:{rng.randint(1, 10**6)}"}
        )
    if pattern["unsafe"]:
        retry_safe = False if rng.random() < 0.7 else None
    else:
        retry_safe = rng.choice((True, True, None, None)) if rng.random() > 0.01 else False
    limited = maker.error_type in ("rate_limit", "quota")
    side_effects = (
        "[]" if rng.random() < 0.85 else json.dumps([f"wrote partial {maker.obj} batch"])
    )
    return (
        occurred,
        occurred + timedelta(milliseconds=rng.randint(5, 3000)),
        agent,
        task,
        f"{task_type.replace('_', ' ')} for {maker.obj}",
        task_type,
        f"{maker.svc}_api" if rng.random() < 0.6 else "",
        f"{task_type} failed on {maker.svc}",
        maker.make(rng),
        maker.error_type,
        retry_safe,
        rng.randint(5, 120) if limited else None,
        side_effects,
        rng.choice(HINTS),
        1 + min(9, int(rng.expovariate(1.2))),
        checkpoint,
        status,
        resolved_at,
        pattern["id"],
    )


FAILURE_COLUMNS = (
    "occurred_at",
    "recorded_at",
    "agent",
    "task",
    "task_description",
    "task_type",
    "skill_name",
    "title",
    "error",
    "error_type",
    "retry_safe",
    "retry_after",
    "side_effects",
    "recovery_hint",
    "attempt_count",
    "checkpoint",
    "status",
    "resolved_at",
    "pattern_id",
)


def failures_write(conn, rows) -> int:
    """COPY the failures with the table's secondary indexes dropped, then rebuild them exactly."""
    defs = conn.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = 'failures_failure'::regclass AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)"
    ).fetchall()
    for name, _ in defs:
        conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
    written = 0
    columns = sql.SQL(", ").join(map(sql.Identifier, FAILURE_COLUMNS))
    with conn.cursor() as cur:
        with cur.copy(sql.SQL("COPY failures_failure ({}) FROM STDIN").format(columns)) as copy:
            for row in rows:
                copy.write_row(row)
                written += 1
    # The foreign key is deferred; its queued checks must run before an index can be built.
    conn.execute("SET CONSTRAINTS ALL IMMEDIATE")
    conn.execute("SET maintenance_work_mem = '1GB'")
    for _, definition in defs:
        conn.execute(definition)
    return written


PATTERN_COUNTERS = """
UPDATE failures_failurepattern p SET event_count = s.n, agent_count = s.agents,
       task_count = s.tasks, resolved_count = s.resolved, unsafe_count = s.unsafe,
       first_seen = s.first, last_seen = s.last, retry_after = s.retry_after
FROM (SELECT pattern_id, count(*) AS n, count(DISTINCT agent) AS agents,
             count(DISTINCT task) AS tasks, count(*) FILTER (WHERE status = 'resolved') AS resolved,
             count(*) FILTER (WHERE retry_safe IS FALSE) AS unsafe,
             min(occurred_at) AS first, max(occurred_at) AS last,
             (array_agg(retry_after ORDER BY occurred_at DESC)
                FILTER (WHERE retry_after IS NOT NULL))[1] AS retry_after
      FROM failures_failure GROUP BY pattern_id) s
WHERE p.id = s.pattern_id
"""


def sequences_reset(conn) -> None:
    for table in (
        "failures_failurepattern",
        "failures_failuretemplate",
        "lessons_lesson_patterns",
    ):
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
        )


def generate(
    *,
    database: str = DEFAULT_DATABASE,
    failures: int = 1_000_000,
    patterns: int = 50_000,
    agents: int = 400,
    tasks: int = 8_000,
    lessons: int = 3_000,
    days: int = 90,
    seed: int = 7,
    log=print,
) -> dict:
    """Fill ``database`` (created and migrated if needed); return the timings in seconds."""
    if failures < patterns:
        raise SystemExit("need at least one failure per pattern")
    rng, now, timings = random.Random(seed), datetime.now(timezone.utc), {}
    started = step = time.perf_counter()

    def lap(name):
        nonlocal step
        timings[name] = time.perf_counter() - step
        step = time.perf_counter()
        log(f"  {name:<12} {timings[name]:7.1f} s")

    url = database_prepare(database)
    lap("migrate")
    with psycopg.connect(url) as conn:
        conn.execute("TRUNCATE {} RESTART IDENTITY CASCADE".format(", ".join(TRUNCATED)))
        made = patterns_make(patterns, rng)
        patterns_write(conn, made, now)
        lap("patterns")
        fleet = fleet_make(agents, tasks)
        failures_write(conn, failure_rows(failures, made, fleet, rng, now, days))
        lap("failures")
        conn.execute(PATTERN_COUNTERS)
        lap("counters")
        lessons_write(conn, made, count=lessons, rng=rng, now=now, days=days)
        sequences_reset(conn)
        lap("lessons")
    subprocess.run(
        [sys.executable, "manage.py", "seed_lessons"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"},
        stdout=subprocess.DEVNULL,
    )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE)")
    lap("analyze")
    timings["total"] = time.perf_counter() - started
    log(f"  {'total':<12} {timings['total']:7.1f} s")
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--failures", type=int, default=1_000_000)
    parser.add_argument("--patterns", type=int, default=50_000)
    parser.add_argument("--agents", type=int, default=400)
    parser.add_argument("--tasks", type=int, default=8_000)
    parser.add_argument("--lessons", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(
        f"Generating {args.failures:,} failures over {args.patterns:,} patterns into {args.database}"
    )
    generate(
        database=args.database,
        failures=args.failures,
        patterns=args.patterns,
        agents=args.agents,
        tasks=args.tasks,
        lessons=args.lessons,
        seed=args.seed,
    )


if __name__ == "__main__":
    main()
