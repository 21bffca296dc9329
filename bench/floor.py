"""The bulk write's floor: the rows a bulk write of outcomes stores, COPYed straight into the
tables with none of the API's work, and the CPU that takes; and the CPU of the API's own per-item
checks. Used by bench/outcomes_bench.py and bench/suite.py (see their headers).
"""
import json
import os
import time
import zlib
from dataclasses import dataclass

import psycopg

from failures.patterns import template_of

def row_files(context: dict, result: dict) -> list[str]:
    """The files an outcome names, as outcomes.validation collects them."""
    found = []
    for source, key in ((context, "file_path"), (context, "file"), (context, "files"),
                        (result, "files_changed")):
        value = source.get(key)
        found += [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return list(dict.fromkeys(found))


FLOOR_COLUMNS = ("id", "event_id", "digest", "task_id", "agent", "task_type", "outcome", "context",
                 "result", "duration_ms", "occurred_at", "error_type", "resolved_failures",
                 "failure_id", "pattern_id")
FLOOR_FAILURE_COLUMNS = ("id", "occurred_at", "agent", "task", "task_description", "task_type",
                         "skill_name", "title", "error", "error_type", "retry_safe",
                         "side_effects", "recovery_hint", "attempt_count", "status", "pattern_id")
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Floor:
    """What COPYing a bulk write's rows cost: outcomes/s, and CPU seconds per outcome (this
    process and its PostgreSQL backend, both read from the kernel)."""

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
        patterns = [pk for (pk,) in conn.execute(
            "SELECT id FROM failures_failurepattern ORDER BY id LIMIT 10000")]
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.rollback()
        for batch in batches:
            started, cpu_started = time.perf_counter(), _cpu_seconds(backend)
            failing = [item for item in batch if item["outcome"] == "failure"
                       and item["context"].get("error_message")]
            ids = _next_ids(conn, "outcomes_outcome", len(batch))
            failure_ids = dict(zip(map(id, failing), _next_ids(conn, "failures_failure",
                                                                 len(failing))))
            pattern_of = {id(item): patterns[zlib.crc32(template_of(
                item["context"]["error_message"]).encode()) % len(patterns)] for item in failing}
            with conn.cursor().copy("COPY failures_failure ({}) FROM STDIN".format(
                    ", ".join(FLOOR_FAILURE_COLUMNS))) as copy:
                for item in failing:
                    copy.write_row(_floor_failure(failure_ids[id(item)], item,
                                                  pattern_of[id(item)]))
            with conn.cursor().copy("COPY outcomes_outcome ({}) FROM STDIN".format(
                    ", ".join(FLOOR_COLUMNS))) as copy:
                for pk, item in zip(ids, batch):
                    copy.write_row(_floor_row(pk, item, failure_ids.get(id(item)),
                                              pattern_of.get(id(item))))
            with conn.cursor().copy("COPY outcomes_outcomefile (outcome_id, path, occurred_at) "
                                    "FROM STDIN") as copy:
                for pk, item in zip(ids, batch):
                    for path in row_files(item["context"], item["result"]):
                        copy.write_row((pk, path, item["occurred_at"]))
            conn.execute("SELECT 1")  # the last COPY has reached the server and is done
            elapsed += time.perf_counter() - started
            cpu += _cpu_seconds(backend) - cpu_started
            stored += len(batch)
            conn.rollback()
    return Floor(stored / elapsed if elapsed else 0.0, cpu / stored if stored else 0.0)


def _next_ids(conn, table: str, n: int) -> list[int]:
    return [pk for (pk,) in conn.execute(
        "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
        [table, n])]


def _cpu_seconds(backend_pid: int) -> float:
    """CPU seconds used so far by this process and by the PostgreSQL backend ``backend_pid``
    (on this machine: /proc/<pid>/stat, user and system time)."""
    with open(f"/proc/{backend_pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return time.process_time() + (int(fields[11]) + int(fields[12])) / TICKS


def _floor_row(pk: int, item: dict, failure_id, pattern_id) -> tuple:
    return (pk, item.get("event_id"), "", item["task_id"], item["agent"], item["task_type"],
            item["outcome"], json.dumps(item["context"]), json.dumps(item["result"]),
            item["duration_ms"], item["occurred_at"], item["context"].get("error_type", ""), 0,
            failure_id, pattern_id)


def _floor_failure(pk: int, item: dict, pattern_id: int) -> tuple:
    context = item["context"]
    return (pk, item["occurred_at"], item["agent"], item["task_id"], "", item["task_type"],
            context.get("skill_name", ""), "", context["error_message"],
            context.get("error_type") or "unknown", context.get("retry_safe"), "[]", "", 1,
            "open", pattern_id)


def checking_cpu(batches: list[list[dict]]) -> float:
    """CPU seconds per outcome that the API's per-item checks and secret scrubbing take here
    (outcomes.validation and the scrubbing of what is stored), in this process: the part of a
    bulk write no database can take over. Needs Django set up."""
    from outcomes.services import outcomes_parse, Stored
    from failures.scrubbing import scrub_text
    bodies = [json.dumps(batch) for batch in batches]
    started, items = time.process_time(), 0
    for body in bodies:
        parsed = [item for item, _ in outcomes_parse(json.loads(body))]
        for item in parsed:
            Stored.of(item)
            if item.error:
                scrub_text(item.error)
        items += len(parsed)
    return (time.process_time() - started) / items if items else 0.0
