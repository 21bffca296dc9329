"""The outcome ledger under load: history uncached, single and bulk record, beside a bare DRF
endpoint, in one run.

Run from the project root:
    .venv/bin/python bench/outcomes_bench.py [--generate --outcomes N] [--requests R --warmup W]
        [--single-requests S --bulk-requests B --bulk-size K] [--event-ids v7|v4]
        [--concurrency C --workers G] [--cache unique|dummy] [--no-writes] [--no-vacuum]

It fills the bench database when it has no outcome or ``--generate`` is given
(bench/outcomes_datagen.py), vacuums and analyses the tables the endpoints use (earlier runs'
writes leave them in whatever state; autovacuum would get there eventually), creates a write API
key, starts gunicorn (config.wsgi with the bench settings: Server-Timing header and the baseline
endpoint) on 127.0.0.1, warms every endpoint up, then measures, one endpoint after another from
C client processes:
  baseline   GET /api/v1/bench/baseline?id=N (one pattern by primary key), first and again last;
  history    GET /api/v1/outcomes/history in four parameter mixes (agent; agent+task_type;
             agent+task_id+files; agent+error_type+error_message), each request a cache miss:
             with ``--cache unique`` (default) the production Redis cache and a distinct
             budget_tokens per request (far above any answer, so nothing is trimmed), with
             ``--cache dummy`` bench.settings_nocache (Django's DummyCache);
  single     POST /api/v1/outcomes, one outcome per request;
  bulk       POST /api/v1/outcomes/bulk, K (default 1000) outcomes per request.
Written outcomes are ~80% successes (some closing stored open failures, some after a failure of
the same task in the same request) and ~20% failures (error messages of stored templates, 5%
of new ones), most with files and an event_id (time-ordered as the client makes them, or
random with ``--event-ids v4``). It prints the machine, the commit, the load
before and after the run (and whether hot_path.py was running), the counts before and after,
per read endpoint req/s and p50/p99 of server time (Server-Timing) and client latency beside the
baseline, per write endpoint outcomes/s as well, and an in-process floor: the rows such a write
stores (outcomes, their files, the failed ones' failure records) written with COPY (one
transaction per batch, rolled back). ``--no-writes`` measures the reads
only. It asserts nothing; gunicorn is stopped at the end, also on error.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
import uuid
from bisect import bisect
from datetime import datetime, timedelta, timezone
from itertools import accumulate, count
from pathlib import Path
from urllib.parse import urlencode

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import datagen, outcomes_datagen  # noqa: E402
from bench.floor import Floor, copy_floor, row_files  # noqa: E402
from bench.loadgen import LoadRunner, load_options, percentile  # noqa: E402
from bench.messages import all_makers  # noqa: E402
from bench.server import Server, machine_lines, probe  # noqa: E402
from failures.patterns import fingerprint_of, template_of  # noqa: E402

try:  # the client (client/), installed by `make install-dev` and `make bench`
    from hindsight_client import event_id_new
except ImportError:
    event_id_new = None

BASELINE = "baseline"
HISTORY = "/api/v1/outcomes/history?"
SINGLE, BULK = "/api/v1/outcomes", "/api/v1/outcomes/bulk"
SETTINGS = {"unique": "bench.settings", "dummy": "bench.settings_nocache"}
# A history answer holds at most 20 items, a few thousand tokens: a budget from 50,000 up never
# trims, and the API takes up to 100,000, so up to 50,000 distinct budgets (cache keys) per run.
BUDGET_FIRST, BUDGET_LAST = 50_000, 100_000
# History mixes: a task_id query retries a sampled task half the time (else a new task id with
# a sampled task's files); 10% of error messages have a template no pattern holds yet.
RETRY_SHARE, NOVEL_MESSAGE_SHARE = 0.5, 0.1
# Writes: a task starts with a failure 21% of the time, and a quarter of those are followed by a
# success in the same request: 0.21 / (1 + 0.21 / 4) = ~20% failed outcomes. 5% of tasks are
# the success of a stored open failure's task (it closes it); 5% of failures have a new template.
FAILURE_START, RETRY_IN_REQUEST, CLOSE_SHARE, NEW_TEMPLATE = 0.21, 0.25, 0.05, 0.05
FILES_SHARE, EVENT_ID_SHARE = 0.7, 0.7
# Recent outcomes sampled to draw who asks and writes (weighted by activity) and about what.
SAMPLE_ROWS, RECENT_DAYS = 20_000, 7


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=outcomes_datagen.DEFAULT_DATABASE)
    parser.add_argument("--generate", action="store_true", help="(re)generate the data first")
    parser.add_argument("--outcomes", type=int, default=10_000_000, help="when generating")
    load_options(parser, time_limit=180, redis_db=13, seed=23, writes=True)
    parser.add_argument(
        "--cache",
        choices=SETTINGS,
        default="unique",
        help="how history requests miss the cache (see the docstring)",
    )
    parser.add_argument("--floor-batches", type=int, default=10, help="COPY batches, 0: none")
    parser.add_argument(
        "--no-writes",
        action="store_true",
        help="measure the reads only (the database does not grow)",
    )
    parser.add_argument(
        "--no-vacuum",
        action="store_true",
        help="skip the VACUUM (ANALYZE) of the tables before measuring",
    )
    return parser.parse_args()


def data_counts(url: str) -> dict:
    """What the ledger and the failure side hold now."""
    with psycopg.connect(url) as conn:
        one = lambda q: conn.execute(q).fetchone()[0]  # noqa: E731
        return {
            "outcomes": one("SELECT count(*) FROM outcomes_outcome"),
            "outcome files": one("SELECT count(*) FROM outcomes_outcomefile"),
            "failures": one("SELECT count(*) FROM failures_failure"),
            "open failures": one("SELECT count(*) FROM failures_failure WHERE status = 'open'"),
            "patterns": one("SELECT count(*) FROM failures_failurepattern"),
            "database": one("SELECT pg_size_pretty(pg_database_size(current_database()))"),
        }


def sample(conn, seed: int) -> list[dict]:
    """About SAMPLE_ROWS outcomes of the last RECENT_DAYS, from pages spread over the table."""
    recent = conn.execute(
        "SELECT count(*) FROM outcomes_outcome WHERE occurred_at > "
        "now() - make_interval(days => %s)",
        [RECENT_DAYS],
    ).fetchone()[0]
    # SYSTEM samples pages of the whole table; the recent rows among them are that share too.
    percent = min(100.0, 100.0 * SAMPLE_ROWS / max(1, recent))
    rows = conn.execute(
        "SELECT agent, task_id, task_type, outcome, error_type, context, result "
        "FROM outcomes_outcome TABLESAMPLE SYSTEM (%s) REPEATABLE (%s) "
        "WHERE occurred_at > now() - make_interval(days => %s)",
        [percent, seed, RECENT_DAYS],
    ).fetchall()
    keys = ("agent", "task_id", "task_type", "outcome", "error_type", "context", "result")
    found = [dict(zip(keys, row)) for row in rows]
    for row in found:
        row["files"] = row_files(row["context"], row["result"])
        row["message"] = row["context"].get("error_message", "")
    if not found:
        raise SystemExit("no outcome in the last days: generate the data again")
    return found


def makers_split(conn, rng: random.Random) -> tuple[list, list, list]:
    """bench.messages makers whose template is stored (with their event counts as cumulative
    weights) and, shuffled, those whose template no pattern holds yet."""
    stored = dict(conn.execute("SELECT fingerprint, event_count FROM failures_failurepattern"))
    known, weights, novel = [], [], []
    for maker in all_makers():
        events = stored.get(fingerprint_of(template_of(maker.make(rng))))
        if events is None:
            novel.append(maker)
        else:
            known.append(maker)
            weights.append(max(1, events))
    rng.shuffle(novel)
    return known, list(accumulate(weights)), novel


def history_queries(rows: list[dict], novel: list, rng: random.Random, n: int) -> dict:
    """``n`` query parameter sets per history mix, drawn from sampled recent outcomes."""
    with_files = [r for r in rows if r["files"]] or rows
    failed = [r for r in rows if r["message"]] or rows
    mixes = {
        name: []
        for name in (
            "agent",
            "agent+task_type",
            "agent+task_id+files",
            "agent+error_type+error_message",
        )
    }
    for i in range(n):
        row = rng.choice(rows)
        mixes["agent"].append({"agent": row["agent"]})
        row = rng.choice(rows)
        mixes["agent+task_type"].append({"agent": row["agent"], "task_type": row["task_type"]})
        row = rng.choice(with_files)
        retry = rng.random() < RETRY_SHARE
        files = row["files"] if retry else rng.choice(with_files)["files"]
        mixes["agent+task_id+files"].append(
            {
                "agent": row["agent"],
                "files": ",".join(files),
                "task_id": row["task_id"] if retry else f"{row['task_type']}-next-{i}",
            }
        )
        row = rng.choice(failed)
        message = (
            novel[i % len(novel)].make(rng)
            if rng.random() < NOVEL_MESSAGE_SHARE
            else row["message"]
        )
        mixes["agent+error_type+error_message"].append(
            {"agent": row["agent"], "error_type": row["error_type"], "error_message": message}
        )
    return mixes


def history_paths(mixes: dict, cache_mode: str) -> dict:
    """Request paths per mix; with the unique mode each has a budget_tokens of its own."""
    budgets = count(BUDGET_FIRST)
    total = sum(len(queries) for queries in mixes.values())
    if cache_mode == "unique" and total > BUDGET_LAST - BUDGET_FIRST:
        raise SystemExit(
            f"at most {BUDGET_LAST - BUDGET_FIRST} history requests per run with "
            "--cache unique; use --cache dummy"
        )
    extra = (lambda: {"budget_tokens": next(budgets)}) if cache_mode == "unique" else dict
    return {
        f"history ({name})": [HISTORY + urlencode({**q, **extra()}) for q in queries]
        for name, queries in mixes.items()
    }


# How a writer's event ids are made: as the project's client makes them (time-ordered, version
# 7), or random (version 4), which an agent that draws its own may send. Random ids land on a
# random leaf of the unique index on event ids, so each costs the database a page more to read,
# dirty and log (bench/README.md).
EVENT_IDS = {"v7": event_id_new, "v4": uuid.uuid4}


class Writer:
    """Outcomes as a fleet sends them (see the shares at the top), as JSON-ready dicts."""

    def __init__(
        self, conn, rows: list[dict], makers: tuple, rng: random.Random, event_ids: str = "v7"
    ):
        self.rng, self.rows = rng, rows
        if EVENT_IDS[event_ids] is None:
            raise SystemExit(
                "time-ordered event ids are made by the client: install it with "
                "`make install-dev`, or pass --event-ids v4"
            )
        self.event_id = EVENT_IDS[event_ids]
        self.known, self.known_cw, self.novel = makers
        self.file_sets = [r["files"] for r in rows if r["files"]] or [[]]
        # Stored open failures; a success of one's (agent, task) closes it. Each used once.
        self.open = conn.execute(
            "SELECT agent, task, task_type FROM failures_failure WHERE status = 'open' "
            "ORDER BY random() LIMIT 50000"
        ).fetchall()
        self.tasks = count(1)
        self.run = uuid.uuid4().hex[:6]  # task ids of this run, apart from earlier runs'

    def batch(self, size: int) -> list[dict]:
        """``size`` outcomes; a task's retry follows its failure in the same batch."""
        items = []
        while len(items) < size:
            items.extend(self._task(size - len(items)))
        return items

    def _task(self, room: int) -> list[dict]:
        rng, row = self.rng, self.rng.choice(self.rows)
        files = rng.choice(self.file_sets) if rng.random() < FILES_SHARE else []
        task = {
            "agent": row["agent"],
            "task_type": row["task_type"],
            "task_id": f"{row['task_type']}-{self.run}-{next(self.tasks)}",
        }
        roll = rng.random()
        if roll < FAILURE_START:
            failed = self._outcome(task, "failure", files)
            if room > 1 and rng.random() < RETRY_IN_REQUEST:
                return [failed, self._outcome(task, "success", files, later=True)]
            return [failed]
        if roll < FAILURE_START + CLOSE_SHARE and self.open:
            agent, task_id, task_type = self.open.pop()
            task = {"agent": agent, "task_id": task_id, "task_type": task_type or row["task_type"]}
        return [self._outcome(task, "success", files)]

    def _outcome(self, task: dict, outcome: str, files: list, later: bool = False) -> dict:
        rng = self.rng
        ago = timedelta(seconds=rng.uniform(0, 60) if later else rng.uniform(60, 600))
        item = {
            **task,
            "outcome": outcome,
            "duration_ms": int(rng.lognormvariate(10, 1.0)),
            "occurred_at": (datetime.now(timezone.utc) - ago).isoformat(),
        }
        if rng.random() < EVENT_ID_SHARE:
            item["event_id"] = str(self.event_id())
        if outcome == "failure":
            item["context"] = self._failure_context(files)
            item["result"] = {"approach": "Retried the call once"}
        else:
            item["context"] = {"file_path": files[0]} if files else {}
            item["result"] = {"approach": "Fetched in pages of 100", "files_changed": files}
        return item

    def _failure_context(self, files: list) -> dict:
        rng = self.rng
        if rng.random() < NEW_TEMPLATE and self.novel:
            maker = self.novel.pop()
        else:
            maker = self.known[bisect(self.known_cw, rng.random() * self.known_cw[-1])]
        context = {"error_type": maker.error_type, "error_message": maker.make(rng)}
        if files:
            context.update({"file_path": files[0], **({"files": files} if len(files) > 1 else {})})
        if rng.random() < 0.3:  # some agents say whether a retry is safe, some name the skill
            context["retry_safe"] = rng.random() < 0.8
        if rng.random() < 0.2:
            context["skill_name"] = f"{maker.svc}_api"
        return context


def workloads(url: str, args, rng: random.Random) -> tuple[dict, dict, Writer]:
    """Read paths per endpoint and write requests per endpoint, and the writer (for the floor)."""
    reads_n = args.warmup + args.requests
    with psycopg.connect(url) as conn:
        rows = sample(conn, args.seed)
        makers = makers_split(conn, rng)
        top = conn.execute("SELECT max(id) FROM failures_failurepattern").fetchone()[0]
        writer = Writer(conn, rows, makers, rng, args.event_ids)
    reads = {
        BASELINE: [f"/api/v1/bench/baseline?id={rng.randint(1, top)}" for _ in range(reads_n)]
    }
    reads.update(history_paths(history_queries(rows, makers[2], rng, reads_n), args.cache))
    return reads, {} if args.no_writes else write_requests(writer, args), writer


def write_requests(writer: Writer, args) -> dict:
    """Per write endpoint: (requests, how many warm up, outcomes per request)."""
    single_warmup = 25 * args.write_warmup  # a bulk warm-up request is worth many singles
    singles = [
        (SINGLE, json.dumps(writer.batch(1)[0]).encode())
        for _ in range(single_warmup + args.single_requests)
    ]
    bulks = [
        (BULK, json.dumps({"outcomes": writer.batch(args.bulk_size)}).encode())
        for _ in range(args.write_warmup + args.bulk_requests)
    ]
    return {
        "record (single)": (singles, single_warmup, 1),
        f"record (bulk {args.bulk_size})": (bulks, args.write_warmup, args.bulk_size),
    }


def django_setup(url: str, redis_url: str, settings: str) -> None:
    """This process's Django, on the database ``url`` (Django reads its settings once a
    process: a second database needs a process of its own)."""
    os.environ.update(DATABASE_URL=url, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE=settings)
    import django

    django.setup()


def api_key_make(url: str, redis_url: str, settings: str) -> str:
    """A write key (it reads too), made through the project's own service."""
    django_setup(url, redis_url, settings)
    from django.db import connections

    from config.api.services import api_key_create

    raw = api_key_create(name="bench-outcomes", scope="write").raw
    connections.close_all()  # the client processes are forked from here
    return raw


def cache_check(port: int, token: str, reads: dict, warmup: int) -> list[str]:
    """Ask each history mix's first request twice: the first answer must be a miss (and with
    the Redis cache the second a hit); and the mean items per answer over a few requests.
    Only warm-up requests are sent, so no measured request is answered from the cache."""
    if warmup < 2:
        return ["  (skipped: it needs at least 2 warm-up requests per endpoint)"]
    lines = []
    for name, paths in reads.items():
        if not name.startswith("history"):
            continue
        first, again = probe(port, token, paths[0]), probe(port, token, paths[0])
        stats = [
            probe(port, token, p)[1]["metadata"]["historyStats"]
            for p in paths[1 : min(21, warmup)]
        ]
        mean = {k: sum(s[k] for s in stats) / len(stats) for k in stats[0]}
        lines.append(
            f"  {name}: status {first[0]}, cached {first[1]['metadata']['cached']}, "
            f"same request again cached {again[1]['metadata']['cached']}; per answer "
            + ", ".join(f"{k} {v:.1f}" for k, v in mean.items())
        )
    return lines


def measure_plan(reads: dict, writes: dict, warmup: int) -> list[tuple[str, list, list]]:
    """(name, warm-up requests, measured requests) per endpoint: the reads (their first
    ``warmup`` paths warm up), then the writes (with their own warm-up counts)."""
    plan = [(name, paths[:warmup], paths[warmup:]) for name, paths in reads.items()]
    plan += [(name, reqs[:warm], reqs[warm:]) for name, (reqs, warm, _) in writes.items()]
    return plan


def measure(server: Server, token: str, reads: dict, writes: dict, args) -> dict:
    """Warm every endpoint up, then measure each in turn: the baseline first and again last,
    reads before writes (writes add to what reads look at)."""
    runner = LoadRunner(port=server.port, token=token, concurrency=args.concurrency)
    plan = measure_plan(reads, writes, args.warmup)
    plan.append((f"{BASELINE} (again)", [], reads[BASELINE][args.warmup :]))
    results = {}
    try:
        for name, warm, _ in plan:
            runner.run(warm, time_limit_s=args.time_limit)
        for name, _, measured in plan:
            results[name] = runner.run(measured, time_limit_s=args.time_limit)
            print(f"  measured {name}: {results[name].requests} requests", flush=True)
    finally:
        runner.close()
    return results


def _times(r) -> str:
    return (
        f"{percentile(r.server_ms, 0.5):>9.2f}{percentile(r.server_ms, 0.99):>9.2f}"
        f"{percentile(r.client_ms, 0.5):>9.2f}{percentile(r.client_ms, 0.99):>9.2f}"
    )


def reads_print(results: dict) -> None:
    base = results[BASELINE]
    base_p99 = percentile(base.server_ms, 0.99)
    head = (
        f"{'endpoint':<42}{'requests':>9}{'errors':>8}{'req/s':>8}{'srv p50':>9}"
        f"{'srv p99':>9}{'cli p50':>9}{'cli p99':>9}{'p99/base':>10}{'rate/base':>10}"
    )
    print(head + "\n" + "-" * len(head))
    for name, r in results.items():
        print(
            f"{name:<42}{r.requests:>9}{r.errors:>8}{r.rate:>8.0f}{_times(r)}"
            f"{percentile(r.server_ms, 0.99) / base_p99:>9.1f}x{r.rate / base.rate:>9.2f}x"
        )


def writes_print(results: dict, writes: dict, floor: Floor | None) -> None:
    head = (
        f"{'endpoint':<42}{'requests':>9}{'errors':>8}{'req/s':>8}{'outcomes/s':>11}"
        f"{'srv p50':>9}{'srv p99':>9}{'cli p50':>9}{'cli p99':>9}"
    )
    print(head + "\n" + "-" * len(head))
    for name, (_, _, per_request) in writes.items():
        r = results[name]
        stored = (r.requests - r.errors) * per_request / r.wall_s if r.wall_s else 0.0
        print(f"{name:<42}{r.requests:>9}{r.errors:>8}{r.rate:>8.1f}{stored:>11,.0f}{_times(r)}")
    if floor is not None:
        print(f"{'floor: COPY in process (rolled back)':<42}{'':>25}{floor.rate:>11,.0f}")


def other_bench_running() -> str:
    """Whether bench/hot_path.py runs on this machine now (its figures and ours would mix)."""
    found = subprocess.run(["pgrep", "-f", "hot_path.py"], capture_output=True, text=True)
    return f"yes (pids {' '.join(found.stdout.split())})" if found.stdout.strip() else "no"


def code_revision() -> str:
    """The commit measured, and how many files differ from it (read-only git)."""

    def git(*words):
        run = subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True)
        return run.stdout.strip()

    changed = len(git("status", "--porcelain", "--untracked-files=no").splitlines())
    return f"commit {git('rev-parse', '--short', 'HEAD') or '?'}, {changed} tracked files changed"


def tables_vacuum(url: str) -> float:
    """VACUUM (ANALYZE) the tables the endpoints read and write, so that every run starts from
    the state autovacuum leaves (the writes of an earlier run clear visibility-map bits, which
    turns index-only scans into heap reads); answer the seconds it took."""
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        for table in (
            "outcomes_outcome",
            "outcomes_outcomefile",
            "failures_failure",
            "failures_failurepattern",
            "failures_failuretemplate",
        ):
            conn.execute(f"VACUUM (ANALYZE) {table}")
    return time.perf_counter() - started


def data_ready(args) -> str:
    """The bench database's URL, generated first when it has no outcome or when asked."""
    outcomes_datagen.database_check(args.database)
    url = datagen.database_prepare(args.database)
    with psycopg.connect(url) as conn:
        empty = conn.execute("SELECT NOT EXISTS (SELECT 1 FROM outcomes_outcome)").fetchone()[0]
    if empty or args.generate:
        print(f"Generating {args.outcomes:,} outcomes...")
        outcomes_datagen.generate(database=args.database, outcomes=args.outcomes)
    return url


def main() -> int:
    args = parse_args()
    rng = random.Random(args.seed)
    print(f"Hindsight outcome ledger, {time.strftime('%Y-%m-%d %H:%M %Z')}")
    load = os.getloadavg()
    url = data_ready(args)
    if not args.no_vacuum:
        print(f"VACUUM (ANALYZE) of the ledger and failure tables: {tables_vacuum(url):.1f} s")
    for line in machine_lines(url):
        print(line)
    print(f"Code: {code_revision()}")
    print(
        f"Load average before the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"hot_path.py running: {other_bench_running()}"
    )
    reads, writes, writer = workloads(url, args, rng)
    before = data_counts(url)
    print(
        "Data before: "
        + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in before.items())
    )
    results = serve_and_measure(url, reads, writes, args)
    after = data_counts(url)
    floor = (
        copy_floor(url, [writer.batch(args.bulk_size) for _ in range(args.floor_batches)])
        if args.floor_batches and writes
        else None
    )
    report(results, reads, writes, before, after, floor)
    load = os.getloadavg()
    print(
        f"Load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"hot_path.py running at the end: {other_bench_running()}"
    )
    return 0


def serve_and_measure(url: str, reads: dict, writes: dict, args) -> dict:
    """Start gunicorn with the chosen settings, check the history misses, measure, stop."""
    settings = SETTINGS[args.cache]
    token = api_key_make(url, args.redis_url, settings)
    with Server(
        database_url=url, redis_url=args.redis_url, workers=args.workers, settings=settings
    ) as server:
        print(server.describe())
        print(
            f"Client: {args.concurrency} processes, http.client; reads {args.requests} measured "
            f"after {args.warmup} warm-up; single {args.single_requests}, bulk "
            f"{args.bulk_requests} x {args.bulk_size}, event ids {args.event_ids}; limit "
            f"{args.time_limit:.0f} s each"
        )
        print(f"History cache check (--cache {args.cache}):")
        print("\n".join(cache_check(server.port, token, reads, args.warmup)), flush=True)
        return measure(server, token, reads, writes, args)


def report(results: dict, reads: dict, writes: dict, before: dict, after: dict, floor) -> None:
    print()
    reads_print({name: results[name] for name in [*reads, f"{BASELINE} (again)"]})
    print(
        "(times in ms; srv = Server-Timing app;dur, the whole Django request; "
        "cli = client round trip)\n"
    )
    if writes:
        writes_print(results, writes, floor)
        print("(outcomes/s = outcomes of answered requests / wall time; times in ms per request)")
    print(
        "Data after: "
        + ", ".join(
            f"{k} {v:,} ({v - before[k]:+,})" if isinstance(v, int) else f"{k} {v}"
            for k, v in after.items()
        )
    )
    for name, r in results.items():
        if r.errors:
            print(f"  {name}: answers by status {r.statuses}")


if __name__ == "__main__":
    sys.exit(main())
