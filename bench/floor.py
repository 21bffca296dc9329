"""The bulk write's floor: the rows a bulk write of outcomes stores, COPYed straight into the
tables with none of the API's work, and the CPU that takes; and the CPU of the API's own per-item
checks. Used by bench/outcomes_bench.py and bench/suite.py (see their headers).
"""

import json
import os
import threading
import time
import zlib
from dataclasses import dataclass

import psycopg
from psycopg import sql

from failures.patterns import template_of


def row_files(context: dict, result: dict) -> list[str]:
    """The files an outcome names, as outcomes.validation collects them."""
    found = []
    for source, key in (
        (context, "file_path"),
        (context, "file"),
        (context, "files"),
        (result, "files_changed"),
    ):
        value = source.get(key)
        found += [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return list(dict.fromkeys(found))


FLOOR_COLUMNS = (
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
    "error_type",
    "resolved_failures",
    "failure_id",
    "pattern_id",
)
FLOOR_FAILURE_COLUMNS = (
    "id",
    "occurred_at",
    "agent",
    "task",
    "task_description",
    "task_type",
    "skill_name",
    "title",
    "error",
    "error_type",
    "retry_safe",
    "side_effects",
    "recovery_hint",
    "attempt_count",
    "status",
    "pattern_id",
)
FLOOR_FILE_COLUMNS = ("outcome_id", "path", "occurred_at")
# Where each kind of row goes, and its columns: the failure records, the outcomes, their files.
TABLES = ("failures_failure", "outcomes_outcome", "outcomes_outcomefile")
_COLUMNS = (FLOOR_FAILURE_COLUMNS, FLOOR_COLUMNS, FLOOR_FILE_COLUMNS)
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Floor:
    """What COPYing a bulk write's rows cost: outcomes/s, and CPU seconds per outcome (read from
    the kernel: the client process and its PostgreSQL backend for copy_floor, the backend alone
    for database_floor)."""

    rate: float
    cpu_per_outcome: float


def copy_floor(url: str, batches: list[list[dict]]) -> Floor:
    """Store the rows a bulk write of these outcomes stores (the outcomes, their files, and the
    failure record of each failed one with an error message, under a stored pattern) with COPY
    in process, one transaction per batch, rolled back: the rows' own cost, without the API's
    work (parsing, checks, scrubbing, patterns, counters, closing failures) and without a
    commit."""
    stored, elapsed, cpu = 0, 0.0, 0.0
    with psycopg.connect(url) as conn:
        patterns = _patterns(conn)
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.rollback()
        for batch in batches:
            started, cpu_started = time.perf_counter(), _cpu_seconds(backend)
            _rows_copy(conn, batch, patterns, TABLES)
            conn.execute("SELECT 1")  # the last COPY has reached the server and is done
            elapsed += time.perf_counter() - started
            cpu += _cpu_seconds(backend) - cpu_started
            stored += len(batch)
            conn.rollback()
    return Floor(stored / elapsed if elapsed else 0.0, cpu / stored if stored else 0.0)


def _patterns(conn) -> list[int]:
    return [
        pk
        for (pk,) in conn.execute("SELECT id FROM failures_failurepattern ORDER BY id LIMIT 10000")
    ]


def _rows_copy(conn, batch: list[dict], patterns: list[int], tables: tuple) -> None:
    """COPY one batch's rows (failure records, outcomes, files) into ``tables``, in that order."""
    failing = [
        item
        for item in batch
        if item["outcome"] == "failure" and item["context"].get("error_message")
    ]
    ids = _next_ids(conn, "outcomes_outcome", len(batch))
    failure_ids = dict(zip(map(id, failing), _next_ids(conn, "failures_failure", len(failing))))
    pattern_of = {
        id(item): patterns[
            zlib.crc32(template_of(item["context"]["error_message"]).encode()) % len(patterns)
        ]
        for item in failing
    }
    failures, outcomes, files = tables
    with conn.cursor().copy(
        "COPY {} ({}) FROM STDIN".format(failures, ", ".join(FLOOR_FAILURE_COLUMNS))
    ) as copy:
        for item in failing:
            copy.write_row(_floor_failure(failure_ids[id(item)], item, pattern_of[id(item)]))
    with conn.cursor().copy(
        "COPY {} ({}) FROM STDIN".format(outcomes, ", ".join(FLOOR_COLUMNS))
    ) as copy:
        for pk, item in zip(ids, batch):
            copy.write_row(
                _floor_row(pk, item, failure_ids.get(id(item)), pattern_of.get(id(item)))
            )
    with conn.cursor().copy(f"COPY {files} ({', '.join(FLOOR_FILE_COLUMNS)}) FROM STDIN") as copy:
        for pk, item in zip(ids, batch):
            for path in row_files(item["context"], item["result"]):
                copy.write_row((pk, path, item["occurred_at"]))


def database_floor(url: str, batches: list[list[dict]], folder: str, start=None) -> Floor | None:
    """The database alone: the same rows as copy_floor, first written to files in ``folder``
    (not measured), then read by the server itself (``COPY ... FROM 'file'``) into the tables,
    one transaction per batch, rolled back. No client formats or sends anything while it is
    measured, so the rate is what PostgreSQL does with these rows and these tables' indexes, and
    the CPU is the backend's alone. None when the role may not read or write server files (it
    needs pg_read_server_files and pg_write_server_files, or superuser) or the server is not on
    this machine. With ``start`` (a barrier shared with other processes doing the same), the
    measured part begins when every one of them has staged its files."""
    with psycopg.connect(url) as conn:
        files = _files_staged(conn, batches, folder)
        if files is None:
            if start is not None:
                start.abort()  # the others stop waiting: the floor is not measured
            return None
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.rollback()
        if start is not None:
            try:
                start.wait()
            except threading.BrokenBarrierError:  # another process could not measure
                return None
        stored, elapsed, cpu = 0, 0.0, 0.0
        for batch, paths in zip(batches, files):
            started, cpu_started = time.perf_counter(), _backend_cpu_seconds(backend)
            for table, columns, path in zip(TABLES, _COLUMNS, paths):
                _file_copy(conn, table, columns, path)
            elapsed += time.perf_counter() - started
            cpu += _backend_cpu_seconds(backend) - cpu_started
            stored += len(batch)
            conn.rollback()
    return Floor(stored / elapsed if elapsed else 0.0, cpu / stored if stored else 0.0)


def _file_copy(conn, table: str, columns: tuple, path: str) -> None:
    """The server reads ``path`` (a file it wrote) into ``table``."""
    conn.execute(sql.SQL(f"COPY {table} ({', '.join(columns)}) FROM {{}}").format(path))


def indexes_share(url: str, batches: list[list[dict]], folder: str) -> tuple[float, float] | None:
    """Outcomes/s of one backend reading the same rows from files (as database_floor) with the
    tables' indexes, then with none but their primary keys (dropped inside the transaction that
    is rolled back, so nothing changes; it locks the three tables meanwhile): how much of the
    database's floor the indexes take. None where database_floor cannot run."""
    with psycopg.connect(url) as conn:
        files = _files_staged(conn, batches, folder)
        if files is None:
            return None
        rates = []
        for bare in (False, True):
            stored, elapsed = 0, 0.0
            for batch, paths in zip(batches, files):
                if bare:
                    _secondary_indexes_drop(conn)
                started = time.perf_counter()
                for table, columns, path in zip(TABLES, _COLUMNS, paths):
                    _file_copy(conn, table, columns, path)
                elapsed += time.perf_counter() - started
                stored += len(batch)
                conn.rollback()
            rates.append(stored / elapsed if elapsed else 0.0)
    return rates[0], rates[1]


def _secondary_indexes_drop(conn) -> None:
    """Drop every index of TABLES but the primary keys (with the unique constraints and foreign
    keys that use them), in the open transaction."""
    for table, constraint in conn.execute(
        "SELECT c.conrelid::regclass::text, c.conname FROM pg_constraint c"
        " WHERE c.conrelid = ANY(%s::regclass[]) AND c.contype IN ('u', 'f')",
        [list(TABLES)],
    ).fetchall():
        conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"')
    for (index,) in conn.execute(
        "SELECT i.indexrelid::regclass::text FROM pg_index i"
        " WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisprimary",
        [list(TABLES)],
    ).fetchall():
        conn.execute(f"DROP INDEX {index}")


def _files_allowed(conn) -> bool:
    """Whether the server may read and write files for this role, and is on this machine."""
    allowed = conn.execute(
        "SELECT rolsuper OR (pg_has_role(current_user, 'pg_read_server_files', 'MEMBER')"
        " AND pg_has_role(current_user, 'pg_write_server_files', 'MEMBER'))"
        " FROM pg_roles WHERE rolname = current_user"
    ).fetchone()[0]
    return bool(allowed) and conn.info.hostaddr in ("127.0.0.1", "::1", "")


def _files_staged(conn, batches: list, folder: str) -> list[tuple[str, ...]] | None:
    """The batches' files (see _stage), or None when the server may not write and read them
    here: the role lacks the right, the server is elsewhere, or it cannot reach ``folder``."""
    if not _files_allowed(conn):
        return None
    try:
        return _stage(conn, batches, _patterns(conn), folder)
    except psycopg.Error:
        conn.rollback()
        return None


def _stage(conn, batches: list, patterns: list[int], folder: str) -> list[tuple[str, ...]]:
    """Each batch's rows written by the server to files in ``folder`` (through temporary tables
    shaped like the real ones), one file per table: their paths, per batch."""
    stages = tuple(f"floor_stage_{n}" for n in range(len(TABLES)))
    for stage, table in zip(stages, TABLES):
        conn.execute(
            f"CREATE TEMPORARY TABLE {stage} (LIKE {table} INCLUDING DEFAULTS INCLUDING IDENTITY)"
        )
    paths = []
    for n, batch in enumerate(batches):
        _rows_copy(conn, batch, patterns, stages)
        batch_paths = tuple(
            os.path.join(folder, f"{os.getpid()}-{n}-{table}.copy") for table in TABLES
        )
        for stage, columns, path in zip(stages, _COLUMNS, batch_paths):
            conn.execute(sql.SQL(f"COPY {stage} ({', '.join(columns)}) TO {{}}").format(path))
            conn.execute(f"TRUNCATE {stage}")
        paths.append(batch_paths)
    for stage in stages:
        conn.execute(f"DROP TABLE {stage}")
    conn.commit()
    return paths


def _next_ids(conn, table: str, n: int) -> list[int]:
    return [
        pk
        for (pk,) in conn.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [table, n],
        )
    ]


def _cpu_seconds(backend_pid: int) -> float:
    """CPU seconds used so far by this process and by the PostgreSQL backend ``backend_pid``."""
    return time.process_time() + _backend_cpu_seconds(backend_pid)


def _backend_cpu_seconds(backend_pid: int) -> float:
    """CPU seconds used so far by the PostgreSQL backend ``backend_pid`` (on this machine:
    /proc/<pid>/stat, user and system time)."""
    with open(f"/proc/{backend_pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _floor_row(pk: int, item: dict, failure_id, pattern_id) -> tuple:
    return (
        pk,
        item.get("event_id"),
        "",
        item["task_id"],
        item["agent"],
        item["task_type"],
        item["outcome"],
        json.dumps(item["context"]),
        json.dumps(item["result"]),
        item["duration_ms"],
        item["occurred_at"],
        item["context"].get("error_type", ""),
        0,
        failure_id,
        pattern_id,
    )


def _floor_failure(pk: int, item: dict, pattern_id: int) -> tuple:
    context = item["context"]
    return (
        pk,
        item["occurred_at"],
        item["agent"],
        item["task_id"],
        "",
        item["task_type"],
        context.get("skill_name", ""),
        "",
        context["error_message"],
        context.get("error_type") or "unknown",
        context.get("retry_safe"),
        "[]",
        "",
        1,
        "open",
        pattern_id,
    )


def checking_cpu(batches: list[list[dict]]) -> float:
    """CPU seconds per outcome that the API's per-item checks and secret scrubbing take here
    (outcomes.validation, which scrubs what it passes), in this process: the part of a bulk
    write no database can take over. Needs Django set up."""
    from outcomes.services import outcome_row, outcomes_parse

    bodies = [json.dumps(batch) for batch in batches]
    started, items = time.process_time(), 0
    for body in bodies:
        parsed = [item for item, _ in outcomes_parse(raw_items=json.loads(body))]
        for item in parsed:
            outcome_row(item=item, api_key_id=None)
        items += len(parsed)
    return (time.process_time() - started) / items if items else 0.0


def decoding_cpu(batches: list[list[dict]]) -> float:
    """CPU seconds per outcome that decoding a bulk request's JSON body takes here (the standard
    library's decoder, which Django REST framework's parser uses): work any bulk write does
    before it can store anything."""
    bodies = [json.dumps({"outcomes": batch}).encode() for batch in batches]
    started = time.process_time()
    for body in bodies:
        json.loads(body)
    items = sum(map(len, batches))
    return (time.process_time() - started) / items if items else 0.0
