"""The staff dashboard against the 1M-failure bench database, beside the admin index page.

Run from the project root (after bench/hot_path.py or bench/datagen.py filled the database):
    .venv/bin/python bench/dashboard_bench.py [--database hindsight_bench] [--runs 7]
                                              [--outcomes-database hindsight_bench_outcomes]

It renders the pages in process through their views (a RequestFactory request from an unsaved
staff user, so nothing is written to the database: no session, no login), with the project's
Redis cache under a key prefix of its own (deleted at the end). Per page it prints p50, p90
and max over its runs:

  dashboard, fully cold   every cache key dropped before each run (payload and day totals)
  dashboard, uncached     the composed payload dropped, finished days' totals cached
  dashboard, cached       the payload served from the cache (the usual case within a minute)
  admin index             the baseline: the admin's own index page, same request path

then the time of each section of a cold composition. With --outcomes-database it also times the
success-rate section alone against that database (the outcome ledger's bench). It asserts
nothing; the database must hold the project's migrations (it says so and stops if not).
"""

import argparse
import os
import platform
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER = os.environ.get("BENCH_PG_SERVER", "postgres://postgres@127.0.0.1:5432")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="hindsight_bench")
    parser.add_argument("--outcomes-database", default=None)
    parser.add_argument("--runs", type=int, default=7, help="cold and uncached runs; x5 cached")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--success-only", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def setup(database: str, redis_url: str) -> None:
    if "bench" not in database:
        raise SystemExit(f"refusing to use database {database!r}: its name must contain 'bench'")
    os.environ.update(
        DATABASE_URL=f"{SERVER}/{database}",
        REDIS_URL=redis_url,
        HINDSIGHT_CACHE_PREFIX=f"dashboard-bench-{uuid.uuid4().hex[:8]}",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    import django

    django.setup()


def indexes_missing() -> bool:
    """Whether the database lacks the migration that adds the dashboard's indexes."""
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    applied = MigrationRecorder(connection).applied_migrations()
    return ("failures", "0004_dashboard_indexes") not in applied


def staff_request(path: str):
    from django.contrib.auth import get_user_model
    from django.test import RequestFactory

    request = RequestFactory().get(path)
    request.user = get_user_model()(
        username="bench", is_staff=True, is_superuser=True, is_active=True
    )
    return request


def timed(call, runs: int, before=None) -> list[float]:
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def line(name: str, times: list[float], base: float | None = None) -> str:
    p50 = statistics.median(times)
    p90 = sorted(times)[max(0, round(0.9 * len(times)) - 1)]
    ratio = f"{p50 / base:8.1f}x" if base else ""
    return f"{name:34s} {len(times):5d} {p50:9.1f} {p90:9.1f} {max(times):9.1f} {ratio}"


def day_keys() -> list[str]:
    from datetime import timedelta

    from django.utils import timezone

    from failures.staff.dashboard import DAY_TOTAL_KEY, WINDOW_DAYS

    today = timezone.now().date()
    return [
        DAY_TOTAL_KEY.format((today - timedelta(days=i)).isoformat())
        for i in range(WINDOW_DAYS + 1)
    ]


def main() -> None:
    args = parse_args()
    setup(args.database, args.redis_url)
    if indexes_missing():
        raise SystemExit(
            f"{args.database} lacks the dashboard's indexes: run DATABASE_URL="
            f"{SERVER}/{args.database} .venv/bin/python manage.py migrate failures"
        )
    if args.success_only:
        return success_only(args.runs)
    from django.contrib import admin
    from django.core.cache import cache

    from failures.staff.dashboard import CACHE_KEY
    from failures.staff.dashboard_views import dashboard

    describe(args.database)

    def page():
        response = dashboard(staff_request("/dashboard/"))
        assert response.status_code == 200

    def index():
        admin.site.index(staff_request("/admin/")).render()

    try:
        base = timed(index, args.runs * 5)
        rows = [
            ("admin index (baseline)", base),
            (
                "dashboard, fully cold",
                timed(page, args.runs, lambda: cache.delete_many([CACHE_KEY, *day_keys()])),
            ),
            ("dashboard, uncached", timed(page, args.runs, lambda: cache.delete(CACHE_KEY))),
            ("dashboard, cached", timed(page, args.runs * 5)),
        ]
        print(
            f"\n{'page':34s} {'runs':>5s} {'p50 ms':>9s} {'p90 ms':>9s} {'max ms':>9s}  p50/base"
        )
        for name, times in rows:
            print(line(name, times, statistics.median(base)))
        sections(args.runs)
    finally:
        cache.delete_many([CACHE_KEY, *day_keys()])
    if args.outcomes_database:
        success_child(args)


def describe(database: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT count(*) FROM failures_failure), "
            "(SELECT count(*) FROM failures_failurepattern), "
            "(SELECT count(*) FROM outcomes_outcome), "
            "(SELECT count(*) FROM lessons_lesson), version()"
        )
        failures, patterns, outcomes, lessons, version = cursor.fetchone()
    print(
        f"machine: {os.cpu_count()} cores, {platform.platform()}, Python "
        f"{platform.python_version()}; {version.split(' on ')[0]}"
    )
    print(
        f"database {database}: {failures:,} failures, {patterns:,} patterns, "
        f"{outcomes:,} outcomes, {lessons:,} lessons"
    )


def sections(runs: int) -> None:
    from django.core.cache import cache
    from django.utils import timezone

    from failures.staff import dashboard
    from failures.staff import dashboard_sections as parts

    now = timezone.now()
    calls = {
        "failures over time (cold)": (
            lambda: dashboard.failures_over_time(now=now),
            lambda: cache.delete_many(day_keys()),
        ),
        "failures over time (days cached)": (lambda: dashboard.failures_over_time(now=now), None),
        "rising patterns": (lambda: parts.patterns_rising(now=now), None),
        "success rates": (lambda: parts.success_rates(now=now), None),
        "curation queue": (lambda: parts.curation_queue(now=now), None),
        "effectiveness distribution": (parts.effectiveness_distribution, None),
        "loops (last 24 h)": (lambda: parts.loops_recent(now=now), None),
        "regressions": (lambda: parts.regressions_recent(now=now), None),
    }
    print(f"\n{'section':34s} {'runs':>5s} {'p50 ms':>9s} {'p90 ms':>9s} {'max ms':>9s}")
    for name, (call, before) in calls.items():
        print(line(f"{name:34s}", timed(call, runs, before)))


def success_child(args) -> None:
    import subprocess

    print(f"\nsuccess rates against {args.outcomes_database}:")
    subprocess.run(
        [
            sys.executable,
            __file__,
            "--database",
            args.outcomes_database,
            "--runs",
            str(args.runs),
            "--success-only",
        ],
        check=False,
    )


def success_only(runs: int) -> None:
    from django.db import connection
    from django.utils import timezone

    from failures.staff.dashboard_sections import success_rates

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM outcomes_outcome WHERE occurred_at >= now() - interval '7 days'"
        )
        week = cursor.fetchone()[0]
    result = success_rates(now=timezone.now())
    print(
        f"  {week:,} outcomes in the last 7 days; the section reads the newest "
        f"{result['outcomes']:,}"
    )
    print(line("  success rates", timed(lambda: success_rates(now=timezone.now()), runs)))


if __name__ == "__main__":
    main()
