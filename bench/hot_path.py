"""The agent's hot path under load: check and boot beside a bare DRF endpoint, in one run.

Run from the project root:
    .venv/bin/python bench/hot_path.py [--generate] [--failures N --patterns P]
                                       [--requests R --concurrency C --workers W]

It fills the bench database when it is empty or ``--generate`` is given (bench/datagen.py),
creates a read API key, starts gunicorn (config.wsgi with bench.settings: the project's settings
plus a Server-Timing header and the baseline endpoint) on 127.0.0.1, warms every endpoint up,
then sends each one a fixed number of requests from C client processes and prints, per endpoint:
requests, errors, req/s, p50/p99 of server time (the Server-Timing figure: the whole Django
request) and of client latency, and p99 server time and req/s relative to the baseline.

Endpoints: the baseline (one pattern by primary key, same auth and permissions as the API);
check by message (fresh messages of stored patterns, hot and tail, some with skill_name) and by
error type only; boot for one agent (some with task_type) and with scope=fleet. It asserts
nothing and exits 0 when it ran; gunicorn is stopped at the end, also on error.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import datagen  # noqa: E402
from bench.loadgen import LoadRunner, load_options, percentile  # noqa: E402
from bench.messages import all_makers  # noqa: E402
from bench.server import Server, machine_lines, probe  # noqa: E402
from failures.patterns import fingerprint_of, template_of  # noqa: E402

BASELINE = "baseline"
# Shares of check requests: a message of a hot pattern (drawn by event count), of any pattern
# (uniform: the long tail), and how many of the message checks also name a skill.
HOT_SHARE, SKILL_SHARE = 0.5, 0.2
TASK_TYPE_SHARE = 0.3  # boot requests that also narrow by task_type


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=datagen.DEFAULT_DATABASE)
    parser.add_argument("--generate", action="store_true", help="(re)generate the data first")
    parser.add_argument("--failures", type=int, default=1_000_000)
    parser.add_argument("--patterns", type=int, default=50_000)
    parser.add_argument("--lessons", type=int, default=3_000)
    load_options(parser, time_limit=180, redis_db=14, seed=11)
    return parser.parse_args()


def data_sizes(conn) -> dict:
    one = lambda q: conn.execute(q).fetchone()[0]  # noqa: E731
    return {
        "failures": one("SELECT count(*) FROM failures_failure"),
        "open failures": one("SELECT count(*) FROM failures_failure WHERE status = 'open'"),
        "patterns": one("SELECT count(*) FROM failures_failurepattern"),
        "templates": one("SELECT count(*) FROM failures_failuretemplate"),
        "lessons": one("SELECT count(*) FROM lessons_lesson"),
        "approved lessons": one("SELECT count(*) FROM lessons_lesson WHERE status = 'approved'"),
        "lesson-pattern links": one("SELECT count(*) FROM lessons_lesson_patterns"),
    }


def check_paths(conn, rng: random.Random, count: int) -> tuple[list[str], list[str], float]:
    """Check by message (fresh values of stored patterns) and by error type; and the share of
    messages whose fingerprint is stored (should be 1.0)."""
    stored = dict(conn.execute("SELECT fingerprint, event_count FROM failures_failurepattern"))
    makers = {}
    for maker in all_makers():
        fingerprint = fingerprint_of(template_of(maker.make(rng)))
        if fingerprint in stored:
            makers[fingerprint] = maker
    fingerprints = list(makers)
    weights = [stored[f] for f in fingerprints]
    by_message, mapped = [], 0
    for i in range(count):
        if rng.random() < HOT_SHARE:
            maker = makers[rng.choices(fingerprints, weights)[0]]
        else:
            maker = makers[rng.choice(fingerprints)]
        message = maker.make(rng)
        mapped += fingerprint_of(template_of(message)) in stored
        query = {"error_message": message, "error_type": maker.error_type}
        if rng.random() < SKILL_SHARE:
            query["skill_name"] = f"{maker.svc}_api"
        by_message.append("/api/v1/lessons/check?" + urlencode(query))
    types = [t for (t,) in conn.execute("SELECT DISTINCT error_type FROM failures_failurepattern")]
    by_type = [
        "/api/v1/lessons/check?" + urlencode({"error_type": rng.choice(types)})
        for _ in range(count)
    ]
    return by_message, by_type, mapped / count if count else 0.0


def boot_paths(conn, rng: random.Random, count: int) -> tuple[list[str], list[str]]:
    agents = [a for (a,) in conn.execute("SELECT DISTINCT agent FROM failures_failure")]
    types = [t for (t,) in conn.execute("SELECT DISTINCT task_type FROM failures_failure")]
    own, fleet = [], []
    for _ in range(count):
        query = {"agent": rng.choice(agents)}
        if rng.random() < TASK_TYPE_SHARE:
            query["task_type"] = rng.choice(types)
        own.append("/api/v1/boot?" + urlencode(query))
        fleet.append("/api/v1/boot?" + urlencode({**query, "scope": "fleet"}))
    return own, fleet


def workloads(url: str, args, rng: random.Random) -> tuple[dict, dict, float]:
    count = args.warmup + args.requests
    with psycopg.connect(url) as conn:
        sizes = data_sizes(conn)
        top = conn.execute("SELECT max(id) FROM failures_failurepattern").fetchone()[0]
        by_message, by_type, mapped = check_paths(conn, rng, count)
        own, fleet = boot_paths(conn, rng, count)
    baseline = [f"/api/v1/bench/baseline?id={rng.randint(1, top)}" for _ in range(count)]
    return (
        {
            BASELINE: baseline,
            "check (message)": by_message,
            "check (error_type only)": by_type,
            "boot (agent)": own,
            "boot (scope=fleet)": fleet,
        },
        sizes,
        mapped,
    )


def measure(server: Server, token: str, loads: dict, args) -> dict:
    """Warm every endpoint up, then measure each in turn (the baseline first and again last)."""
    runner = LoadRunner(port=server.port, token=token, concurrency=args.concurrency)
    results = {}
    try:
        for name, paths in loads.items():
            runner.run(paths[: args.warmup], time_limit_s=args.time_limit)
        for name, paths in [*loads.items(), (f"{BASELINE} (again)", loads[BASELINE])]:
            results[name] = runner.run(paths[args.warmup :], time_limit_s=args.time_limit)
            print(f"  measured {name}: {results[name].requests} requests", flush=True)
    finally:
        runner.close()
    return results


def table_print(results: dict) -> None:
    base = results[BASELINE]
    base_p99 = percentile(base.server_ms, 0.99)
    head = (
        f"{'endpoint':<26}{'requests':>9}{'errors':>8}{'req/s':>8}{'srv p50':>9}{'srv p99':>9}"
        f"{'cli p50':>9}{'cli p99':>9}{'p99/base':>10}{'rate/base':>10}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        p99 = percentile(r.server_ms, 0.99)
        print(
            f"{name:<26}{r.requests:>9}{r.errors:>8}{r.rate:>8.0f}"
            f"{percentile(r.server_ms, 0.5):>9.2f}{p99:>9.2f}"
            f"{percentile(r.client_ms, 0.5):>9.2f}{percentile(r.client_ms, 0.99):>9.2f}"
            f"{p99 / base_p99:>9.1f}x{r.rate / base.rate:>9.2f}x"
        )
    print(
        "(times in ms; srv = Server-Timing app;dur, the whole Django request; "
        "cli = client round trip)"
    )
    for name, r in results.items():
        if r.errors:
            print(f"  {name}: answers by status {r.statuses}")


def api_key_make(url: str, redis_url: str) -> str:
    os.environ.update(
        DATABASE_URL=url, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="bench.settings"
    )
    import django

    django.setup()
    from django.db import connections

    from config.api.services import api_key_create

    raw = api_key_create(name="bench-hot-path", scope="read").raw
    connections.close_all()  # the client processes are forked from here
    return raw


def main() -> int:
    args = parse_args()
    rng = random.Random(args.seed)
    print(f"Hindsight hot path, {time.strftime('%Y-%m-%d %H:%M %Z')}")
    url = datagen.database_prepare(args.database)
    with psycopg.connect(url) as conn:
        empty = conn.execute("SELECT NOT EXISTS (SELECT 1 FROM failures_failure)").fetchone()[0]
    if empty or args.generate:
        print(f"Generating {args.failures:,} failures over {args.patterns:,} patterns...")
        datagen.generate(
            database=args.database,
            failures=args.failures,
            patterns=args.patterns,
            lessons=args.lessons,
        )
    loads, sizes, mapped = workloads(url, args, rng)
    for line in machine_lines(url):
        print(line)
    print("Data: " + ", ".join(f"{k} {v:,}" for k, v in sizes.items()))
    print(f"Check messages whose template is stored: {mapped:.1%}")
    token = api_key_make(url, args.redis_url)
    with Server(database_url=url, redis_url=args.redis_url, workers=args.workers) as server:
        print(server.describe())
        print(
            f"Client: {args.concurrency} processes, http.client, {args.requests} measured "
            f"requests per endpoint after {args.warmup} warm-up, limit {args.time_limit:.0f} s"
        )
        boot = probe(server.port, token, loads["boot (agent)"][0])
        if boot[0] == 404:
            print("boot: GET /api/v1/boot answers 404 (not routed yet); its rows are skipped")
            loads = {k: v for k, v in loads.items() if not k.startswith("boot")}
        print()
        table_print(measure(server, token, loads, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
