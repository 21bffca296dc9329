"""The effectiveness job over millions of applications, beside a one-pass aggregate of the same rows.

Run from the project root:
    .venv/bin/python bench/effectiveness_bench.py [--lessons 100000] [--applications 10000000]
                                                  [--database hindsight_bench_lessons] [--runs 2]

It fills its own database (created and migrated if missing; the name must contain "bench") with
L lessons and N applications written by SQL (lessons drawn skewed, so a few have hundreds of
thousands of applications and many have a handful; each lesson has its own success rate; 180
days of timestamps), unless that many are already there. Then, per run, it times:

  baseline   SELECT lesson_id, COUNT(*), SUM(worked) ... GROUP BY lesson_id: one read of every
             application, the least any recompute must do;
  recompute  lessons.effectiveness.effectiveness_recompute(): the job itself (decay weights,
             smoothed rate, Wilson bound, flags, one UPDATE of every lesson).

The requirement it checks: with 10M applications the recompute takes at most 60 s.
"""

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.datagen import database_prepare  # noqa: E402

DEFAULT_DATABASE = "hindsight_bench_lessons"

# Lessons are picked as floor(L * random()^3): the cube puts most applications on a few lessons
# (the first 1% of lessons get about a fifth of them), like real fleets where a handful of
# lessons answer the common failures. Each lesson's success rate is fixed by its id.
FILL = """
INSERT INTO lessons_lesson (id, error_pattern, error_type, skill_name, context, resolution,
    resolution_code, occurrences, last_occurred, effectiveness, created_at, status, source,
    rank_score, evidence, applications_count, flagged, flagged_reason)
SELECT md5('lesson' || n)::uuid, 'bench-pattern-' || n, 'type-' || (n %% 40), NULL, '{}',
       'resolution ' || n, NULL, 1, now(), 0.5, now(), 'unverified', 'agent', 0.0945, 0, 0,
       false, ''
FROM generate_series(1, %(lessons)s) AS n;

INSERT INTO lessons_application (lesson_id, worked, agent, task_id, failure_id, applied_at,
    recorded_at)
SELECT md5('lesson' || pick)::uuid,
       random() < (0.15 + 0.8 * ((pick * 7919) %% 1000) / 1000.0),
       'agent-' || (n %% 400), 'task-' || (n %% 50000), NULL,
       now() - random() * interval '180 days', now()
FROM (SELECT n, 1 + floor(%(lessons)s * power(random(), 3))::int AS pick
      FROM generate_series(1, %(applications)s) AS n) AS drawn;
"""


def fill(url: str, lessons: int, applications: int) -> None:
    """Write the lessons and applications (index dropped during the load, rebuilt after)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "TRUNCATE lessons_application, lessons_lesson_patterns, lessons_lesson "
            "RESTART IDENTITY CASCADE"
        )
        conn.execute("DROP INDEX IF EXISTS application_lesson_idx")
        started = time.perf_counter()
        for statement in FILL.split(";")[:2]:  # one statement per execute (server-side binding)
            conn.execute(statement, {"lessons": lessons, "applications": applications})
        print(f"  loaded in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        conn.execute(
            "CREATE INDEX application_lesson_idx ON lessons_application "
            "(lesson_id, applied_at DESC)"
        )
        conn.execute("VACUUM (ANALYZE) lessons_application")
        conn.execute("VACUUM (ANALYZE) lessons_lesson")
        print(f"  indexed and analysed in {time.perf_counter() - started:.1f} s")


def counts(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        return (
            conn.execute("SELECT count(*) FROM lessons_lesson").fetchone()[0],
            conn.execute("SELECT count(*) FROM lessons_application").fetchone()[0],
        )


def baseline(url: str) -> float:
    with psycopg.connect(url) as conn:
        started = time.perf_counter()
        conn.execute(
            "SELECT lesson_id, count(*), sum(CASE WHEN worked THEN 1 ELSE 0 END) "
            "FROM lessons_application GROUP BY lesson_id"
        ).fetchall()
        return time.perf_counter() - started


def recompute() -> tuple[float, int]:
    from lessons.effectiveness import effectiveness_recompute

    started = time.perf_counter()
    updated = effectiveness_recompute()
    return time.perf_counter() - started, updated


def machine(url: str) -> str:
    with psycopg.connect(url) as conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
        memory = conn.execute("SHOW shared_buffers").fetchone()[0]
        size = conn.execute(
            "SELECT pg_size_pretty(pg_database_size(current_database()))"
        ).fetchone()[0]
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"{os.cpu_count()} cores, Python {platform.python_version()}, PostgreSQL {version} "
        f"(shared_buffers {memory}, database {size}), load average {load}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--lessons", type=int, default=100_000)
    parser.add_argument("--applications", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    url = database_prepare(args.database)
    if counts(url) != (args.lessons, args.applications):
        print(
            f"Filling {args.database}: {args.lessons:,} lessons, "
            f"{args.applications:,} applications"
        )
        fill(url, args.lessons, args.applications)
    os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    lessons, applications = counts(url)
    print(f"Machine: {machine(url)}")
    print(f"Data: {lessons:,} lessons, {applications:,} applications")
    print(f"{'run':>4} {'baseline s':>11} {'recompute s':>12} {'ratio':>6} {'lessons':>9}")
    for run in range(1, args.runs + 1):
        base = baseline(url)
        took, updated = recompute()
        print(f"{run:>4} {base:>11.2f} {took:>12.2f} {took / base:>5.1f}x {updated:>9,}")


if __name__ == "__main__":
    main()
