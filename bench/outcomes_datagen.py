"""Fill a dedicated PostgreSQL database with a realistic outcome ledger for the outcome benchmarks.

Run from the project root:
    .venv/bin/python bench/outcomes_datagen.py [--database hindsight_bench_outcomes]
        [--outcomes N] [--failures F --patterns P --lessons L] [--failures-regenerate]
        [--producers K] [--seed S]

What it writes (COPY over psycopg, never the ORM row by row):
  patterns   only when the database has none: bench/datagen.py fills the failure side first
             (F failures, default N/5, over P patterns, default 10,000, with their templates,
             counters, the seeded lessons and --lessons L generated ones), so failed outcomes
             have real patterns to point at;
  outcomes   N (default 10,000,000) attempts of ~N/1.2 tasks: ~400 agents (Zipf-skewed), ~20
             task types, a task retried a few times (~80% success, ~20% failure); a failure
             carries an error type and usually an error message of a stored pattern
             (bench/messages.py shapes; pattern_id set, drawn by the pattern's event count),
             the success after failures counts them as resolved; context/result JSON as the
             task-history seed sends it (error_type, error_message, file_path, files;
             approach, files_changed); durations; 90 days of timestamps leaning recent, written
             oldest first as a live ledger would be; ~70% with an event_id;
  files      0-4 per outcome (the task's files, from a few thousand paths drawn Zipf-like).
Rows are made by one producer process per core and streamed to two COPY connections (outcomes,
files). The ledger tables' secondary indexes and unique/foreign-key constraints are dropped for
the load (COPY FREEZE right after TRUNCATE) and rebuilt afterwards; the restoring statements wait
in a table of their own until they have run, so a load killed halfway is repaired by the next
run. Then the database is vacuumed and analysed. Every step's time and the final sizes are
printed. ``--failures-regenerate`` rewrites the failure side even when patterns are stored.

The database is created if missing and migrated; its name must contain "bench" and must not be
hot_path.py's database. This script truncates the outcome tables of that database (and, when it
has to generate patterns, bench/datagen.py's tables) and nothing else.
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
import uuid
from bisect import bisect
from datetime import datetime, timedelta, timezone
from itertools import accumulate
from pathlib import Path
from queue import Empty

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import datagen  # noqa: E402
from bench.messages import OBJECTS, SERVICES, all_makers  # noqa: E402
from failures.patterns import fingerprint_of, template_of  # noqa: E402

DEFAULT_DATABASE = "hindsight_bench_outcomes"
OUTCOME_TABLE, FILE_TABLE = "outcomes_outcome", "outcomes_outcomefile"
OUTCOME_COLUMNS = (
    "id",
    "event_id",
    "digest",
    "task_id",
    "agent",
    "task_type",
    "outcome",
    "context",
    "result",
    "duration_ms",
    "occurred_at",
    "recorded_at",
    "error_type",
    "pattern_id",
    "resolved_failures",
)
FILE_COLUMNS = ("outcome_id", "path", "occurred_at")
# Where the statements that restore the dropped indexes and keys wait until they have run.
PENDING_TABLE = "bench_outcomes_pending_ddl"
# Outcomes per chunk a producer hands over: a few MB, few enough queue round trips.
CHUNK = 5_000
DAYS = 90
AGENTS = 400
PATHS = 3_000
# Failed attempts before a task's last try (0..4); with SUCCESS_AFTER_FAILURES this gives
# ~1.22 attempts per task and ~20% failed outcomes.
FAILED_TRIES = (0.85, 0.09, 0.035, 0.015, 0.01)
SUCCESS_AFTER_FAILURES = 0.8  # the rest of the failing tasks are given up
FILES_PER_TASK = (0.25, 0.30, 0.25, 0.12, 0.08)  # 0..4 files, ~1.5 on average
SAME_PATTERN = 0.75  # a retry usually fails the same way
MESSAGE_SHARE = 0.95  # failures that carry an error message (the rest only an error type)
EVENT_ID_SHARE = 0.7  # outcomes sent with an idempotency id
OWN_TYPES = 0.8  # an agent's tasks are mostly of its three usual task types
PATH_SKEW, AGENT_SKEW = 1.0, datagen.AGENT_SKEW
# Success takes ~45 s, a failure ~12 s (medians of a log-normal, sigma 1.0).
SUCCESS_MS, FAILURE_MS = math.log(45_000), math.log(12_000)
MAX_DURATION_MS = 24 * 3600 * 1000  # the log-normal's far tail, cut at a day
APPROACHES = [
    "Fetched {obj} from {svc} in pages of 100",
    "Retried the {svc} call with backoff",
    "Raised the {svc} client timeout to 60s",
    "Upserted {obj} on the unique key",
    "Pinned the {svc} SDK to the previous version",
    "Split the {obj} batch in halves",
    "Re-ran the {obj} tests alone and fixed the fixture",
    "Cached {svc} {obj} lookups",
    "Validated the {obj} payload before parsing",
    "Rotated the {svc} key and retried",
]
FILE_SHAPES = [
    "src/{svc}/{obj}.py",
    "src/{svc}/client.py",
    "tests/{svc}/test_{obj}.py",
    "config/{svc}.yaml",
    "docs/{obj}.md",
    "migrations/{obj}_{svc}.sql",
]


def paths_make(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct repository paths, in a random popularity order."""
    every = sorted(
        {shape.format(svc=s, obj=o) for shape in FILE_SHAPES for s in SERVICES for o in OBJECTS}
    )
    return rng.sample(every, min(count, len(every)))


def world_make(conn, rng: random.Random) -> dict:
    """What every producer shares: patterns, paths and agents by popularity, usual task types."""
    agents = [f"{datagen.ROLES[i % len(datagen.ROLES)]}-{i:03d}" for i in range(AGENTS)]
    agents = rng.sample(agents, len(agents))  # popularity rank independent of the name
    return {
        "patterns": patterns_load(conn, rng),
        "paths": paths_make(PATHS, rng),
        "agents": agents,
        "usual": {a: rng.sample(datagen.TASK_TYPES, 3) for a in agents},
    }


def patterns_load(conn, rng: random.Random) -> list[dict]:
    """The stored live patterns a bench.messages maker produces, with their event counts."""
    stored = {
        fp: (pk, n)
        for fp, pk, n in conn.execute(
            "SELECT fingerprint, id, event_count FROM failures_failurepattern "
            "WHERE merged_into_id IS NULL"
        )
    }
    found = []
    for maker in all_makers():
        hit = stored.get(fingerprint_of(template_of(maker.make(rng))))
        if hit:
            found.append({"id": hit[0], "maker": maker, "weight": max(1, hit[1])})
    if not found:
        raise SystemExit("no stored pattern matches bench/messages.py; regenerate the failures")
    return found


class Ledger:
    """Draws tasks and their attempts; yields outcome rows and their file rows."""

    def __init__(self, world: dict, rng: random.Random, *, first: int = 1, stride: int = 1):
        self.rng, self.patterns, self.paths = rng, world["patterns"], world["paths"]
        self.agents, self.usual = world["agents"], world["usual"]
        self.pattern_cw = list(accumulate(p["weight"] for p in self.patterns))
        self.path_cw = datagen.zipf_cum_weights(len(self.paths), PATH_SKEW)
        self.agent_cw = datagen.zipf_cum_weights(len(self.agents), AGENT_SKEW)
        # Producer k of n numbers outcomes and tasks k+1, k+1+n, ...: no two collide.
        self.next_id = self.next_task = first
        self.stride = stride

    def _pick(self, items, cum):
        return items[bisect(cum, self.rng.random() * cum[-1])]

    def _pattern(self) -> dict:
        return self._pick(self.patterns, self.pattern_cw)

    def task(self, start: datetime, now: datetime):
        """Yield ``(outcome row, file rows)`` for every attempt of one new task."""
        rng = self.rng
        agent = self._pick(self.agents, self.agent_cw)
        task_type = (
            rng.choice(self.usual[agent])
            if rng.random() < OWN_TYPES
            else rng.choice(datagen.TASK_TYPES)
        )
        task_id = f"{task_type}-{self.next_task:08d}"
        self.next_task += self.stride
        files = list(
            dict.fromkeys(
                self._pick(self.paths, self.path_cw) for _ in range(_draw(FILES_PER_TASK, rng))
            )
        )
        failed = _draw(FAILED_TRIES, rng)
        succeeds = failed == 0 or rng.random() < SUCCESS_AFTER_FAILURES
        maker = rng.choice(self.patterns)["maker"]  # names the approach's service and object
        approach = rng.choice(APPROACHES).format(svc=maker.svc, obj=maker.obj)
        pattern, moment, with_message = None, start, 0
        for attempt in range(failed + succeeds):
            if attempt < failed:
                if pattern is None or rng.random() > SAME_PATTERN:
                    pattern = self._pattern()
                row = self._failure(agent, task_id, task_type, files, approach, pattern, moment)
                with_message += row[-2] is not None
            else:
                row = self._success(
                    agent, task_id, task_type, files, approach, moment, with_message
                )
            yield row, [(row[0], path, moment) for path in files]
            # Next try after a pause of a few minutes (30 s at least, ~20 min on average).
            moment = min(now, moment + timedelta(seconds=30 + rng.expovariate(1 / 1200)))

    def _common(self, agent, task_id, task_type, outcome, moment, mu) -> tuple:
        rng, pk = self.rng, self.next_id
        self.next_id += self.stride
        event = (None, "")
        if rng.random() < EVENT_ID_SHARE:
            event = (str(_uuid4(rng)), "%032x" % rng.getrandbits(128))  # id, request digest
        duration = None  # 5% of agents do not time their attempts
        if rng.random() >= 0.05:
            duration = min(int(rng.lognormvariate(mu, 1.0)), MAX_DURATION_MS)
        recorded = moment + timedelta(milliseconds=rng.randint(5, 2000))
        return (pk, *event, task_id, agent, task_type, outcome), (duration, moment, recorded)

    def _failure(self, agent, task_id, task_type, files, approach, pattern, moment) -> tuple:
        maker = pattern["maker"]
        head, tail = self._common(agent, task_id, task_type, "failure", moment, FAILURE_MS)
        context = {"error_type": maker.error_type}
        with_message = self.rng.random() < MESSAGE_SHARE
        if with_message:
            context["error_message"] = maker.make(self.rng)
        if files:
            context["file_path"] = files[0]
            if len(files) > 1:
                context["files"] = files
        result = json.dumps({"approach": approach})
        return (
            *head,
            json.dumps(context),
            result,
            *tail,
            maker.error_type,
            pattern["id"] if with_message else None,
            0,
        )

    def _success(self, agent, task_id, task_type, files, approach, moment, resolved) -> tuple:
        head, tail = self._common(agent, task_id, task_type, "success", moment, SUCCESS_MS)
        context = json.dumps({"file_path": files[0]} if files else {})
        result = json.dumps({"approach": approach, "files_changed": files})
        return (*head, context, result, *tail, "", None, resolved)


def _draw(weights: tuple, rng: random.Random) -> int:
    roll, total = rng.random(), 0.0
    for index, weight in enumerate(weights):
        total += weight
        if roll < total:
            return index
    return len(weights) - 1


def _uuid4(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def hours(days: int, now: datetime):
    """Yield ``(hour start, share of all outcomes)`` oldest first. An age drawn as
    ``span * U ** 1.5`` (bench/datagen.py's "leaning recent") has
    P(age < a) = (a / span) ** (2/3)."""
    span = days * 24
    for h in range(span):
        older, newer = (span - h) / span, (span - h - 1) / span
        yield now - timedelta(hours=span - h), older ** (2 / 3) - newer ** (2 / 3)


def ledger_rows(ledger: Ledger, count: int, now: datetime):
    """Yield exactly ``count`` (outcome row, file rows), hour by hour, oldest hour first."""
    written = 0
    for start, share in hours(DAYS, now):
        quota = round(count * share)  # this hour's outcomes; tasks started in it may spill over
        made = 0
        while made < quota and written < count:
            begin = start + timedelta(seconds=ledger.rng.random() * 3600)
            for item in ledger.task(begin, now):
                yield item
                made += 1
                written += 1
                if written == count:
                    return
    while written < count:  # rounding left a few: the newest hour takes them
        for item in ledger.task(now - timedelta(seconds=60), now):
            yield item
            written += 1
            if written == count:
                return


def detach(conn, table: str) -> list[str]:
    """Drop a table's unique and foreign-key constraints and its other secondary indexes (the
    primary key stays); answer the statements that restore them, indexes first."""
    constraints = conn.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass AND contype IN ('u', 'f') ORDER BY contype DESC",
        [table],
    ).fetchall()
    indexes = conn.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = %s::regclass AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)",
        [table],
    ).fetchall()
    restore = [definition for _, definition in indexes]
    for name, definition in constraints:  # 'u' before 'f': a key before what may use it
        restore.append(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
        conn.execute(
            sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(
                sql.Identifier(table), sql.Identifier(name)
            )
        )
    for name, _ in indexes:
        conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
    return restore


def _line(values) -> str:
    """One row in COPY's text format. Only the JSON columns can hold a backslash (json.dumps
    escapes every control character), so doubling backslashes is all the escaping needed."""
    return "\t".join("\\N" if v is None else str(v).replace("\\", "\\\\") for v in values) + "\n"


def produce(ledger: Ledger, count: int, now: datetime, queue) -> None:
    """In a child process: put ``(outcome lines, file lines, outcomes, files)`` chunks of
    CHUNK outcomes on ``queue``, then None."""
    # Die at once when the parent terminates us: its SIGTERM handler, inherited through fork,
    # would raise SystemExit here and hang at exit on the unread queue.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    outcomes, files = [], []
    for row, file_rows in ledger_rows(ledger, count, now):
        outcomes.append(_line(row))
        files.extend(_line(f) for f in file_rows)
        if len(outcomes) == CHUNK:
            queue.put(("".join(outcomes), "".join(files), len(outcomes), len(files)))
            outcomes, files = [], []
    queue.put(("".join(outcomes), "".join(files), len(outcomes), len(files)))
    queue.put(None)


def copy_ledger(url: str, ledgers: list[Ledger], count: int, now: datetime) -> tuple[int, int]:
    """COPY outcomes and files over two connections at once, fed by one producer process per
    ledger; each table truncated in its own transaction so COPY can FREEZE. Answer the counts."""
    context = multiprocessing.get_context("fork")  # the children inherit the loaded patterns
    queue = context.Queue(maxsize=4 * len(ledgers))
    shares = [count // len(ledgers) + (k < count % len(ledgers)) for k in range(len(ledgers))]
    children = [
        context.Process(target=produce, args=(ledger, share, now, queue), daemon=True)
        for ledger, share in zip(ledgers, shares)
    ]
    outcomes = files = 0
    with psycopg.connect(url) as a, psycopg.connect(url) as b:
        for conn, table in ((a, OUTCOME_TABLE), (b, FILE_TABLE)):
            conn.execute("SET synchronous_commit = off")
            conn.execute(sql.SQL("TRUNCATE {}").format(sql.Identifier(table)))
        with (
            a.cursor().copy(_copy_sql(OUTCOME_TABLE, OUTCOME_COLUMNS)) as out,
            b.cursor().copy(_copy_sql(FILE_TABLE, FILE_COLUMNS)) as out_files,
        ):
            for child in children:
                child.start()
            for chunk in _chunks(queue, children):
                out.write(chunk[0])
                out_files.write(chunk[1])
                outcomes, files = outcomes + chunk[2], files + chunk[3]
    return outcomes, files


def _chunks(queue, children):
    """Every chunk the producers put, until each has put its None; fails if one dies."""
    running = len(children)
    while running:
        try:
            chunk = queue.get(timeout=5)
        except Empty:
            if any(child.exitcode not in (None, 0) for child in children):
                raise RuntimeError("a producer process failed") from None
            continue
        if chunk is None:
            running -= 1
        else:
            yield chunk


def _copy_sql(table: str, columns: tuple) -> sql.Composed:
    return sql.SQL("COPY {} ({}) FROM STDIN WITH (FREEZE)").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )


def restore(url: str, statements: list[str], log) -> None:
    """Rebuild the dropped indexes and constraints, with memory enough to sort in one pass,
    then forget the pending list."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        for statement in statements:
            started = time.perf_counter()
            if _restored(conn, statement):
                continue  # an interrupted earlier restore got this far
            conn.execute(statement)
            log(f"    {time.perf_counter() - started:6.1f} s  {statement[:96]}")
        conn.execute(f"DROP TABLE {PENDING_TABLE}")


def _restored(conn, statement: str) -> bool:
    """Whether the index or constraint this statement makes exists already."""
    words = statement.split()
    name = words[5] if words[0] == "ALTER" else words[words.index("INDEX") + 1]
    return conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = %s) "
        "OR to_regclass(%s) IS NOT NULL",
        [name, name],
    ).fetchone()[0]


def sequences_reset(conn) -> None:
    """Make the id sequences continue after the loaded (explicit) ids."""
    for table in (OUTCOME_TABLE, FILE_TABLE):
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
        )


def sizes(conn) -> dict:
    """Row counts and on-disk sizes of the ledger, the failure side and the database."""
    one = lambda q: conn.execute(q).fetchone()[0]  # noqa: E731
    size = lambda rel: one(f"SELECT pg_size_pretty(pg_total_relation_size('{rel}'))")  # noqa: E731
    return {
        "outcomes": one(f"SELECT count(*) FROM {OUTCOME_TABLE}"),
        "failed outcomes": one(f"SELECT count(*) FROM {OUTCOME_TABLE} WHERE outcome = 'failure'"),
        "outcome files": one(f"SELECT count(*) FROM {FILE_TABLE}"),
        "failures": one("SELECT count(*) FROM failures_failure"),
        "patterns": one("SELECT count(*) FROM failures_failurepattern"),
        "outcomes table": size(OUTCOME_TABLE),
        "files table": size(FILE_TABLE),
        "database": one("SELECT pg_size_pretty(pg_database_size(current_database()))"),
    }


def database_check(name: str) -> None:
    """Refuse hot_path.py's database: another benchmark may be measuring on it."""
    if name == datagen.DEFAULT_DATABASE:
        raise SystemExit(
            f"{name} is hot_path.py's database; use another (default {DEFAULT_DATABASE})"
        )


def failure_side(
    url: str,
    *,
    database: str,
    failures: int,
    patterns: int,
    lessons: int,
    regenerate: bool,
    seed: int,
    log,
) -> None:
    """Fill the failure side with bench/datagen.py when the database has no pattern yet."""
    with psycopg.connect(url) as conn:
        empty = conn.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM failures_failurepattern)"
        ).fetchone()[0]
    if not empty and not regenerate:
        log("  patterns     present: failed outcomes link to the stored ones")
        return
    patterns = min(patterns, failures)
    log(
        f"  patterns     none stored: bench/datagen.py writes {failures:,} failures over "
        f"{patterns:,} patterns"
    )
    datagen.generate(
        database=database,
        failures=failures,
        patterns=patterns,
        lessons=lessons,
        seed=seed,
        log=lambda line: log("  " + line),
    )


def detach_all(url: str) -> list[str]:
    """Detach both ledger tables; the restoring statements are kept in PENDING_TABLE in the same
    transaction as the drops, so a load killed halfway is restored by the next run."""
    with psycopg.connect(url) as conn:
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {PENDING_TABLE} "
            "(position serial PRIMARY KEY, statement text NOT NULL)"
        )
        pending = [
            s for (s,) in conn.execute(f"SELECT statement FROM {PENDING_TABLE} ORDER BY position")
        ]
        if pending:  # an earlier load stopped before restoring: its list is the full one
            return pending
        statements = detach(conn, FILE_TABLE) + detach(conn, OUTCOME_TABLE)
        statements.sort(key=lambda s: s.startswith("ALTER"))  # indexes, then constraints
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {PENDING_TABLE} (statement) VALUES (%s)", [(s,) for s in statements]
            )
    return statements


def ledger_load(
    url: str, world: dict, outcomes: int, now: datetime, *, producers: int, seed: int, lap, log
) -> None:
    """Drop the ledger's indexes and keys, COPY the rows, and restore them (also on error)."""
    # One producer per core: making rows in Python is most of a load's work.
    ledgers = [
        Ledger(world, random.Random(seed + k), first=k + 1, stride=producers)
        for k in range(producers)
    ]
    statements = detach_all(url)
    try:
        counts = copy_ledger(url, ledgers, outcomes, now)
        log(f"  wrote {counts[0]:,} outcomes and {counts[1]:,} files")
        lap("copy")
    finally:  # never leave the ledger without its indexes and keys
        restore(url, statements, log)
        lap("indexes")


class Laps:
    """Times consecutive steps and logs each as it ends."""

    def __init__(self, log):
        self.log, self.timings = log, {}
        self.started = self.step = time.perf_counter()

    def __call__(self, name: str) -> None:
        self.timings[name] = time.perf_counter() - self.step
        self.step = time.perf_counter()
        self.log(f"  {name:<12} {self.timings[name]:7.1f} s")

    def total(self) -> dict:
        self.timings["total"] = time.perf_counter() - self.started
        self.log(f"  {'total':<12} {self.timings['total']:7.1f} s")
        return self.timings


def generate(
    *,
    database: str = DEFAULT_DATABASE,
    outcomes: int = 10_000_000,
    failures: int | None = None,
    patterns: int = 10_000,
    lessons: int = 0,
    failures_regenerate: bool = False,
    producers: int | None = None,
    seed: int = 17,
    log=print,
) -> dict:
    """Fill ``database`` (created and migrated if needed); answer the timings in seconds."""
    database_check(database)
    rng, now, lap = random.Random(seed), datetime.now(timezone.utc), Laps(log)
    url = datagen.database_prepare(database)
    lap("migrate")
    failure_side(
        url,
        database=database,
        failures=failures or max(1, outcomes // 5),
        patterns=patterns,
        lessons=lessons,
        regenerate=failures_regenerate,
        seed=seed,
        log=log,
    )
    lap("failure side")
    with psycopg.connect(url) as conn:
        world = world_make(conn, rng)
    lap("patterns")
    ledger_load(
        url,
        world,
        outcomes,
        now,
        producers=producers or os.cpu_count() or 1,
        seed=seed,
        lap=lap,
        log=log,
    )
    with psycopg.connect(url, autocommit=True) as conn:
        sequences_reset(conn)
        conn.execute("VACUUM (ANALYZE)")
    lap("vacuum")
    return lap.total()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--outcomes", type=int, default=10_000_000)
    parser.add_argument(
        "--failures",
        type=int,
        default=None,
        help="failure side, when generated (default: outcomes / 5)",
    )
    parser.add_argument("--patterns", type=int, default=10_000)
    # bench/lessongen.py does not yet fill the NOT NULL columns lessons migration 0003 added, so
    # its COPY fails; until it does, the failure side gets the seeded lessons only.
    parser.add_argument(
        "--lessons",
        type=int,
        default=0,
        help="lessons for a generated failure side (bench/lessongen.py)",
    )
    parser.add_argument(
        "--failures-regenerate",
        action="store_true",
        help="regenerate the failure side even when patterns are stored",
    )
    parser.add_argument(
        "--producers", type=int, default=None, help="processes making rows (default: one per core)"
    )
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    # A plain kill ends the load through its finally blocks: the indexes are rebuilt.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(
        f"Generating {args.outcomes:,} outcomes into {args.database}, "
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}"
    )
    generate(
        database=args.database,
        outcomes=args.outcomes,
        failures=args.failures,
        patterns=args.patterns,
        lessons=args.lessons,
        failures_regenerate=args.failures_regenerate,
        producers=args.producers,
        seed=args.seed,
    )
    with psycopg.connect(datagen.database_url(args.database)) as conn:
        for name, value in sizes(conn).items():
            print(
                f"  {name:<16} {value:>14,}"
                if isinstance(value, int)
                else f"  {name:<16} {value:>14}"
            )


if __name__ == "__main__":
    main()
