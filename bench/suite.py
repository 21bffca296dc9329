"""The issue's benchmark table in one run: every endpoint beside a bare DRF one, with targets.

Check, boot, history, single and bulk record, each beside the baseline endpoint measured in the
same run under the same load and server settings, with its target and whether it is met.

Run from the project root (or ``make bench BENCH_ARGS="..."``):
    .venv/bin/python bench/suite.py [--generate] [--requests R --warmup W]
        [--single-requests S --bulk-requests B --bulk-size K] [--event-ids v7|v4]
        [--concurrency C --workers G]

One database (``hindsight_bench_suite``) holds all four sizes: 1M failures over 50k patterns,
100k lessons (bench/datagen.py, bench/lessongen.py) and 10M outcomes (bench/outcomes_datagen.py).
They are generated when the database has no failure or no outcome, or with ``--generate``; the
sizes printed are counted from the database. Then the tables the endpoints use are vacuumed and
analysed, a write API key is made, gunicorn (config.wsgi with bench.settings: Server-Timing and
the baseline endpoint; 2 sync workers, PostgreSQL, Redis) starts on 127.0.0.1, and one load
generator (bench/loadgen.py, C client processes) warms every endpoint up and measures, in turn:
  baseline   GET /api/v1/bench/baseline?id=N: one pattern by primary key, measured first and again
             after every endpoint: each endpoint's ratios are against the two around it, pooled,
             and a verdict on a ratio says "unsteady" when those two differ by more than 20%;
  check      GET /api/v1/lessons/check with a fresh message of a stored pattern (bench/hot_path.py);
  boot       GET /api/v1/boot?agent= (some with task_type) (bench/hot_path.py);
  history    GET /api/v1/outcomes/history, its four parameter mixes interleaved, every request a
             cache miss (bench/outcomes_bench.py);
  single     POST /api/v1/outcomes, one outcome per request (bench/outcomes_bench.py's Writer);
  bulk       POST /api/v1/outcomes/bulk, K (default 1,000) outcomes per request;
  otlp       POST /v1/traces, exports of 512 spans (protobuf) made of the same kind of outcomes
             (bench/otlp_bench.py), about one span in five an error, as many spans as bulk
             sends outcomes: its spans/s beside bulk's outcomes/s of the same run.
The writes' event ids are time-ordered, as the project's client makes them, or with
``--event-ids v4`` random, as an agent that draws its own may send them.
Before gunicorn stops, each worker's VmRSS is read from /proc/<pid>/status. After it stops, what
storing a bulk write's rows (outcomes, files, failure records) costs here, each time rolled back:
  database floor  the rows read from files by C PostgreSQL backends at once (COPY FROM a file
                  the server wrote first: no client work at all), with the backends' CPU per
                  outcome; with the CPU of decoding the request's JSON, the least CPU any bulk
                  write spends per outcome, and so the most outcomes/s the cores allow;
  indexes         one backend's rate with the tables' indexes and with only primary keys;
  bulk floor      the same rows COPYed from C client connections, with their CPU and their
                  backends'; with the CPU of the API's per-item checks and scrubbing, the bulk
                  ceiling: the most outcomes/s the cores allow a write that cost nothing more.
The database floor needs a superuser (or the pg_read/write_server_files roles) and the server on
this machine; otherwise that line says it was not measured. It prints the machine, the commit,
the load average, the data sizes, the table and the server-side times. It asserts nothing;
gunicorn is stopped at the end, also on error.
"""

import argparse
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import datagen, hot_path, otlp_bench, outcomes_bench, outcomes_datagen  # noqa: E402
from bench import floor as bulk_floor  # noqa: E402
from bench.loadgen import load_options  # noqa: E402
from bench.server import Server, machine_lines  # noqa: E402
from bench.loadgen import LoadRunner  # noqa: E402
from bench.suite_report import (
    BASELINE,
    BULK_FLOOR,
    baseline_after,  # noqa: E402
    memory_line,
    otlp_line,
    percentile,
    ratio_of,
    server_lines,
    table_lines,
    worker_rss,
)

DEFAULT_DATABASE = "hindsight_bench_suite"
SETTINGS = "bench.settings"
CHECK, BOOT, HISTORY = "check (message)", "boot (agent)", "history (uncached, 4 mixes)"
SINGLE = "record (single)"
OTLP = f"otlp ({otlp_bench.BATCH} spans)"
# The data sizes.
SIZES = {"failures": 1_000_000, "patterns": 50_000, "outcomes": 10_000_000, "lessons": 100_000}
# The second database: a tenth of the lessons and patterns, so that the reads' growth with the
# lesson count shows (the check's cost at 100k lessons is at most CHECK_GROWTH times its cost at
# 10k). Made once, like the first, and reused.
SMALL_DATABASE = "hindsight_bench_suite_10k"
SMALL_SIZES = {"failures": 100_000, "patterns": 5_000, "outcomes": 400_000, "lessons": 10_000}
CHECK_GROWTH = 1.3


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--generate", action="store_true", help="(re)generate all the data first")
    parser.add_argument(
        "--server-python",
        default=sys.executable,
        help="the interpreter gunicorn runs under (make bench: a virtualenv with "
        "the runtime packages only, as in production)",
    )
    for name, size in SIZES.items():
        parser.add_argument(f"--{name}", type=int, default=size, help="when generating")
    load_options(parser, time_limit=60, redis_db=12, seed=31, writes=True)
    parser.add_argument(
        "--no-vacuum",
        action="store_true",
        help="skip the VACUUM (ANALYZE) of the tables before measuring",
    )
    parser.add_argument(
        "--floor-batches",
        type=int,
        default=20,
        help="bulk-size batches COPYed for the bulk floor, 0: none",
    )
    parser.add_argument(
        "--small-database",
        default=SMALL_DATABASE,
        help="the second database, with SMALL_SIZES (made once); '' for none",
    )
    args = parser.parse_args()
    args.cache, args.no_writes = "unique", False  # as outcomes_bench.py's options name them
    return args


def data_ready(args) -> str:
    """The database's URL; all its data generated first when it lacks some, or when asked."""
    outcomes_datagen.database_check(args.database)
    url = datagen.database_prepare(args.database)
    with psycopg.connect(url) as conn:
        one = lambda q, *a: conn.execute(q, a).fetchone()[0]  # noqa: E731
        loading = one("SELECT to_regclass(%s) IS NOT NULL", outcomes_datagen.PENDING_TABLE)
        busy = one(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state <> 'idle'"
        )
        if busy and (loading or args.generate):
            raise SystemExit(
                f"{args.database} is being loaded or used by {busy} other "
                "session(s): wait until they end"
            )
        conn.execute("SET lock_timeout = '10s'")  # a load holds its tables: fail, do not hang
        no_failures = one("SELECT NOT EXISTS (SELECT 1 FROM failures_failure)")
        no_outcomes = one("SELECT NOT EXISTS (SELECT 1 FROM outcomes_outcome)")
    if busy and no_outcomes:
        raise SystemExit(
            f"{args.database} has no outcome yet and {busy} other session(s) use "
            "it: wait until they end"
        )
    if args.generate or no_failures or no_outcomes or loading:
        print(
            f"Generating {args.failures:,} failures over {args.patterns:,} patterns, "
            f"{args.lessons:,} lessons and {args.outcomes:,} outcomes...",
            flush=True,
        )
        outcomes_datagen.generate(
            database=args.database,
            outcomes=args.outcomes,
            failures=args.failures,
            patterns=args.patterns,
            lessons=args.lessons,
            failures_regenerate=args.generate or no_failures,
            log=lambda line: print(line, flush=True),
        )
    return url


def data_sizes(url: str) -> dict:
    """Both sides' counts, from the database."""
    with psycopg.connect(url) as conn:
        failure_side = hot_path.data_sizes(conn)
    return {**failure_side, **outcomes_bench.data_counts(url)}


def interleave(mixes: dict, count: int) -> list[str]:
    """One list of ``count`` paths taking each mix in turn."""
    columns = list(mixes.values())
    return [columns[i % len(columns)][i // len(columns)] for i in range(count)]


def workloads(url: str, args, rng: random.Random) -> tuple[dict, dict, float, list]:
    """Read paths per endpoint (the baseline first), write requests per endpoint, the share
    of check messages whose template is stored, and batches for the bulk floor."""
    count = args.warmup + args.requests
    with psycopg.connect(url) as conn:
        by_message, _, mapped = hot_path.check_paths(conn, rng, count)
        own, _ = hot_path.boot_paths(conn, rng, count)
        rows = outcomes_bench.sample(conn, args.seed)
        makers = outcomes_bench.makers_split(conn, rng)
        top = conn.execute("SELECT max(id) FROM failures_failurepattern").fetchone()[0]
        writer = outcomes_bench.Writer(conn, rows, makers, rng, args.event_ids)
    per_mix = -(-count // 4)
    history = outcomes_bench.history_paths(
        outcomes_bench.history_queries(rows, makers[2], rng, per_mix), args.cache
    )
    reads = {
        BASELINE: [f"/api/v1/bench/baseline?id={rng.randint(1, top)}" for _ in range(count)],
        CHECK: by_message,
        BOOT: own,
        HISTORY: interleave(history, count),
    }
    floor = [writer.batch(args.bulk_size) for _ in range(args.floor_batches)]
    writes = outcomes_bench.write_requests(writer, args)
    writes[OTLP] = otlp_bench.otlp_requests(writer, args)
    return reads, writes, mapped, floor


def copy_floor(url: str, batches: list, processes: int) -> bulk_floor.Floor:
    """Outcomes/s of COPYing the batches' rows (outcomes, their files and the failed ones'
    failure records; each batch one transaction, rolled back) from ``processes`` connections at
    once, and the CPU they took per outcome (clients and their PostgreSQL backends): what
    storing such rows costs on this machine, with none of the API's work."""
    chunks = [batches[i::processes] for i in range(processes)]
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        floors = pool.starmap(bulk_floor.copy_floor, [(url, chunk) for chunk in chunks])
    elapsed = time.perf_counter() - started
    stored = [sum(map(len, chunk)) for chunk in chunks]
    return bulk_floor.Floor(sum(stored) / elapsed, _cpu_per_outcome(floors, stored))


def database_floor(url: str, batches: list, processes: int) -> tuple:
    """The same rows read from files by ``processes`` PostgreSQL backends at once (see
    bench.floor.database_floor): the database's own rate and CPU, no client work; and one
    backend's rate with and without the tables' secondary indexes (bench.floor.indexes_share).
    Nones when the server may not read files here."""
    chunks = [batches[i::processes] for i in range(processes)]
    folder = tempfile.mkdtemp(prefix="hindsight-floor-")
    os.chmod(folder, 0o733)  # the server writes the files; only their names are secret
    try:
        with multiprocessing.Manager() as manager, multiprocessing.Pool(processes) as pool:
            start = manager.Barrier(processes)  # all staged: they measure together
            floors = pool.starmap(
                bulk_floor.database_floor, [(url, chunk, folder, start) for chunk in chunks]
            )
        share = None if None in floors else bulk_floor.indexes_share(url, chunks[0], folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if None in floors:
        return None, None
    # Started together: all of them were stored by the time the slowest finished.
    stored = [sum(map(len, chunk)) for chunk in chunks]
    slowest = max(n / f.rate for f, n in zip(floors, stored))
    return bulk_floor.Floor(sum(stored) / slowest, _cpu_per_outcome(floors, stored)), share


def _cpu_per_outcome(floors: list, stored: list[int]) -> float:
    """The processes' CPU per outcome over all their outcomes (``stored`` of each)."""
    return sum(f.cpu_per_outcome * n for f, n in zip(floors, stored)) / sum(stored)


def bulk_ceiling_lines(
    floor: bulk_floor.Floor, database: tuple, checking: float, decoding: float, args
) -> list[str]:
    """The database's floor, the bulk floor, and the most outcomes/s this machine's cores could
    record if a bulk write cost no more than storing its rows (the floor's CPU) plus the
    per-item checks and scrubbing (``checking``, CPU seconds per outcome), with every core busy
    with nothing else."""
    cores = os.cpu_count() or 1
    per_outcome = floor.cpu_per_outcome + checking
    database, share = database
    lines = []
    if database is None:
        lines.append(
            "Database floor: not measured (the server cannot read files written here, "
            "or the role may not)"
        )
    else:
        verdict = (
            f"under {BULK_FLOOR:,}/s: no bulk write can reach the target on this machine "
            "with these tables"
            if database.rate < BULK_FLOOR
            else f"over {BULK_FLOOR:,}/s"
        )
        lines.append(
            f"Database floor: {database.rate:,.0f} outcomes/s, the same rows read from files by "
            f"{args.concurrency} PostgreSQL backends at once, no client work (rolled back); "
            f"backend CPU {database.cpu_per_outcome * 1e6:.1f} us per outcome; {verdict}"
        )
        least = database.cpu_per_outcome + decoding
        lines.append(
            f"Bulk least: the database's {database.cpu_per_outcome * 1e6:.1f} us plus decoding the "
            f"request's JSON ({decoding * 1e6:.1f} us) is {least * 1e6:.1f} us of CPU per outcome "
            f"that any bulk write spends here: at most {cores / least:,.0f} outcomes/s on "
            f"{cores} cores with nothing else running"
        )
    if share is not None:
        with_indexes, bare = share
        lines.append(
            f"Indexes: one backend stores {with_indexes:,.0f} outcomes/s into the tables as they "
            f"are, {bare:,.0f}/s with only their primary keys: the indexes the reads use take "
            f"{1 - with_indexes / bare:.0%} of the database's time"
        )
    return [
        *lines,
        f"Bulk floor: {floor.rate:,.0f} outcomes/s, the same rows a bulk write stores (outcomes, "
        f"files, failure records) COPYed by {args.concurrency} connections at once with no API "
        f"work (rolled back); CPU {floor.cpu_per_outcome * 1e6:.1f} us per outcome (clients and "
        "their PostgreSQL backends)",
        f"Bulk checks: the API's per-item checks and secret scrubbing take "
        f"{checking * 1e6:.1f} us of CPU per outcome (in process)",
        f"Bulk ceiling on {cores} cores: {cores / per_outcome:,.0f} outcomes/s, if a bulk write "
        f"cost only those two ({per_outcome * 1e6:.1f} us per outcome) and nothing else ran",
    ]


def serve_and_measure(url: str, reads: dict, writes: dict, args) -> tuple[dict, dict, dict]:
    """Start gunicorn, measure every endpoint with one load generator, read the workers'
    memory, stop."""
    # Django reads its settings once a process: each database's key is made in a fresh one.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        token = pool.apply(outcomes_bench.api_key_make, (url, args.redis_url, SETTINGS))
    with Server(
        database_url=url,
        redis_url=args.redis_url,
        workers=args.workers,
        settings=SETTINGS,
        python=args.server_python,
    ) as server:
        print(server.describe())
        written = (
            f"; single {args.single_requests}, bulk {args.bulk_requests} x "
            f"{args.bulk_size}, otlp {len(writes[OTLP][0]) - writes[OTLP][1]} x "
            f"{otlp_bench.BATCH} spans, event ids {args.event_ids}"
            if writes
            else ""
        )
        print(
            f"Client: {args.concurrency} processes (bench/loadgen.py, http.client); reads "
            f"{args.requests} measured after {args.warmup} warm-up{written}; limit "
            f"{args.time_limit:.0f} s each"
        )
        print("History cache check (each measured request must miss):")
        print(
            "\n".join(outcomes_bench.cache_check(server.port, token, reads, args.warmup)),
            flush=True,
        )
        results, around = measure(server, token, reads, writes, args)
        return results, around, worker_rss(server.process.pid)


def measure(server: Server, token: str, reads: dict, writes: dict, args) -> tuple[dict, dict]:
    """Warm every endpoint up, then measure the baseline, and each endpoint in turn followed by
    the baseline again (reads before writes: writes add to what reads look at). Results by name,
    and per endpoint the names of the baselines right before and after it: this machine's speed
    drifts, so each endpoint is compared with the baseline measured around it."""
    runner = LoadRunner(port=server.port, token=token, concurrency=args.concurrency)
    plan = outcomes_bench.measure_plan(reads, writes, args.warmup)
    baseline = next(measured for name, _, measured in plan if name == BASELINE)
    results, around = {}, {}
    try:
        for _name, warm, _ in plan:
            runner.run(warm, time_limit_s=args.time_limit)
        before = BASELINE
        results[before] = runner.run(baseline, time_limit_s=args.time_limit)
        for name, _, measured in (entry for entry in plan if entry[0] != BASELINE):
            results[name] = runner.run(measured, time_limit_s=args.time_limit)
            after = baseline_after(name)
            results[after] = runner.run(baseline, time_limit_s=args.time_limit)
            around[name], before = (before, after), after
            print(
                f"  measured {name}: {results[name].requests} requests, and the baseline again",
                flush=True,
            )
    finally:
        runner.close()
    return results, around


def report(results: dict, around: dict, writes: dict, rss: dict) -> None:
    bulk = next(name for name in writes if name not in (SINGLE, OTLP))
    rows = [
        (CHECK, "check", 0),
        (BOOT, "boot", 0),
        (HISTORY, "history", 0),
        (SINGLE, "single", 1),
        (bulk, "bulk", writes[bulk][2]),
        (OTLP, "otlp", writes[OTLP][2]),
    ]
    print(
        "\nLatency: client-observed round trip (what an agent waits for), in ms. Ratios: "
        "against the baseline measured right before and right after each endpoint, pooled. "
        "For otlp, outcomes/s is spans/s."
    )
    print("\n".join(table_lines(results, rows, around)))
    print(
        otlp_line(
            results[OTLP],
            writes[OTLP][2],
            otlp_bench.errors_share(writes[OTLP][0]),
            results[bulk],
            writes[bulk][2],
        )
    )
    print(memory_line(rss))
    print(
        "\nServer time (Server-Timing app;dur: the whole Django request) and client latency, "
        "in order of measurement, ms:"
    )
    print("\n".join(server_lines(results, around)))


def sizes_line(sizes: dict) -> str:
    return "Data (counted): " + ", ".join(
        f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in sizes.items()
    )


READS = [(CHECK, "check", 0), (BOOT, "boot", 0), (HISTORY, "history", 0)]


def small_run(args, rng: random.Random) -> tuple[dict, dict, dict]:
    """The reads again on the second database (SMALL_SIZES, generated when it lacks data):
    their table and the workers' memory."""
    small = argparse.Namespace(**{**vars(args), "database": args.small_database, **SMALL_SIZES})
    print(
        f"\nThe reads on the second database, {args.small_database} "
        f"({SMALL_SIZES['lessons']:,} lessons):",
        flush=True,
    )
    url = data_ready(small)
    if not args.no_vacuum:
        outcomes_bench.tables_vacuum(url)
    sizes = data_sizes(url)
    print(sizes_line(sizes))
    reads, _writes, _mapped, _floor = workloads(url, small, rng)
    results, around, rss = serve_and_measure(url, reads, {}, small)
    print("\n".join(table_lines(results, READS, around)))
    print(memory_line(rss))
    return results, around, (rss, sizes["lessons"])


def growth_lines(large: tuple, small: tuple) -> list[str]:
    """Each read's cost on the first database over its cost on the second: server time p50
    (the whole Django request) and the inverse of its req/s ratio to the baseline; the check's
    against CHECK_GROWTH, and the workers' memory on both."""
    results, around, rss, lessons = large
    small_results, small_around, (small_rss, small_lessons) = small
    lines = [
        f"\nGrowth from {small_lessons:,} to {lessons:,} lessons (cost on the first "
        f"database over cost on the second; the check's target ≤{CHECK_GROWTH}x):"
    ]
    for name, _key, _per in READS:
        srv = percentile(results[name].server_ms, 0.5) / percentile(
            small_results[name].server_ms, 0.5
        )
        ratio = ratio_of(small_results, small_around, name) / ratio_of(results, around, name)
        verdict = (
            "" if name != CHECK else "  met" if max(srv, ratio) <= CHECK_GROWTH else "  not met"
        )
        lines.append(f"  {name:<28} server p50 {srv:.2f}x, req/s ratio {ratio:.2f}x{verdict}")
    top = lambda memory: max((now for now, _ in memory.values()), default=0)  # noqa: E731
    lines.append(f"  {'worker RSS':<28} {top(small_rss):.0f} MB -> {top(rss):.0f} MB")
    return lines


def main() -> int:
    args = parse_args()
    started, rng = time.monotonic(), random.Random(args.seed)
    print(f"Hindsight benchmark suite, {time.strftime('%Y-%m-%d %H:%M %Z')}")
    url = data_ready(args)
    if not args.no_vacuum:
        print(
            f"VACUUM (ANALYZE) of the tables the endpoints use: "
            f"{outcomes_bench.tables_vacuum(url):.1f} s",
            flush=True,
        )
    for line in machine_lines(url):
        print(line)
    print(f"Code: {outcomes_bench.code_revision()}")
    load = os.getloadavg()
    print(f"Load average before the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    sizes = data_sizes(url)
    print(sizes_line(sizes))
    short = [f"{k} {sizes[k]:,} < {v:,}" for k, v in SIZES.items() if sizes[k] < v]
    print(
        "Issue's sizes (1M failures, 50k patterns, 10M outcomes, 100k lessons): "
        + ("held" if not short else "NOT held: " + ", ".join(short))
    )
    reads, writes, mapped, floor = workloads(url, args, rng)
    print(f"Check messages whose template is stored: {mapped:.1%}", flush=True)
    results, around, rss = serve_and_measure(url, reads, writes, args)
    report(results, around, writes, rss)
    if floor:
        outcomes_bench.django_setup(url, args.redis_url, SETTINGS)  # for the per-item checks
        database = database_floor(url, floor, args.concurrency)
        copied = copy_floor(url, floor, args.concurrency)
        print(
            "\n"
            + "\n".join(
                bulk_ceiling_lines(
                    copied,
                    database,
                    bulk_floor.checking_cpu(floor),
                    bulk_floor.decoding_cpu(floor),
                    args,
                )
            ),
            flush=True,
        )
    if args.small_database:
        small_results, small_around, small_rss = small_run(args, rng)
        print(
            "\n".join(
                growth_lines(
                    (results, around, rss, sizes["lessons"]),
                    (small_results, small_around, small_rss),
                )
            )
        )
    load = os.getloadavg()
    print(
        f"\nLoad average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"the suite took {time.monotonic() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
