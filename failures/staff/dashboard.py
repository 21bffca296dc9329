"""The staff dashboard's reads: bounded aggregate queries, composed once and cached briefly.

Like the boot composer, this module reads across apps: lessons (the curation queue and the
effectiveness distribution), outcomes (success rates) and alerts (destinations paused). Every
read is an aggregate over a bounded window on an indexed column, so a page costs the same with a
million failures as with a thousand (figures: bench/dashboard_bench.py):

* failures over time: daily counts of the top patterns from the (pattern, occurred_at) index,
  and daily totals from the (occurred_at) index, a finished day's total cached for an hour
  (yesterday) or a day (older days);
* top patterns: exact, without counting every pattern of the window (see _top_patterns);
* the other sections (failures.staff.dashboard_sections) read a day, a week or a capped sample.

The composed data is plain JSON, cached for CACHE_SECONDS; curation in the admin drops it
(dashboard_invalidate) so a human sees their own change at once.
"""

import json
import random
from datetime import UTC, date, datetime, time, timedelta

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from alerts.selectors import destinations_paused
from failures.models import Failure, FailurePattern
from failures.staff import dashboard_sections as sections

CACHE_KEY = "dashboard:v1"
# A minute: a page a person refreshes, or several staff open, runs its queries once a minute.
CACHE_SECONDS = 60
# Thirty daily buckets, today included (today's bar grows through the day).
WINDOW_DAYS = 30
TOP_PATTERNS = 8
# Candidates whose daily counts are read per query while looking for the top patterns, and
# at most how many are looked at: past that the top list is taken as it stands.
CANDIDATE_BATCH = 8
MAX_CANDIDATES = 256
# A finished day's total changes only when a late event arrives (an agent reporting a failure
# with an old timestamp): yesterday's is recounted hourly, older days' daily (see
# _day_total_seconds); that staleness in "other" is the price of not recounting the window.
DAY_TOTAL_SECONDS = 3600
OLD_DAY_TOTAL_SECONDS = 24 * 3600
DAY_TOTAL_KEY = "dashboard:day-total:{}"


def dashboard_data(*, now: datetime | None = None) -> dict:
    """The dashboard's data, from the cache when it is fresh."""
    data = cache.get(CACHE_KEY)
    if data is None:
        data = dashboard_compose(now=now or timezone.now())
        cache.set(CACHE_KEY, data, CACHE_SECONDS)
    return data


def dashboard_invalidate(**_signal) -> None:
    """Drop the cached dashboard (after a curation that changes what it shows; a receiver of
    lessons.signals.lessons_curated too)."""
    cache.delete(CACHE_KEY)


def dashboard_compose(*, now: datetime) -> dict:
    """Every section of the dashboard, as plain JSON values."""
    over_time = failures_over_time(now=now)
    data = {
        "generated_at": now,
        "failures_over_time": over_time,
        "rising": sections.patterns_rising(now=now),
        "success": sections.success_rates(now=now),
        "curation_queue": sections.curation_queue(now=now),
        "effectiveness": sections.effectiveness_distribution(),
        "loops": sections.loops_recent(now=now),
        "regressions": sections.regressions_recent(now=now),
        "spans_refused": sections.spans_refused(now=now),
        "releases": sections.releases_latest(),
        "alerts_paused": destinations_paused(),
    }
    data["summary"] = sections.summary(data)
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def failures_over_time(*, now: datetime) -> dict:
    """Failures per UTC day over the last WINDOW_DAYS, split into the top patterns and the rest."""
    today = now.astimezone(UTC).date()
    days = [today - timedelta(days=WINDOW_DAYS - 1 - i) for i in range(WINDOW_DAYS)]
    since = _midnight(days[0])
    top = _top_patterns(since=since, now=now)
    totals = _daily_totals(days=days, now=now)
    patterns = FailurePattern.objects.in_bulk(list(top))
    series = [
        {
            "id": pk,
            "template": patterns[pk].template,
            "error_type": patterns[pk].error_type,
            "counts": [top[pk].get(day, 0) for day in days],
            "total": sum(top[pk].values()),
        }
        for pk in top
        if pk in patterns
    ]
    other = [
        max(totals[day] - sum(s["counts"][i] for s in series), 0) for i, day in enumerate(days)
    ]
    return {
        "days": [day.isoformat() for day in days],
        "series": series,
        "other": other,
        "totals": [totals[day] for day in days],
        "total": sum(totals.values()),
    }


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _daily_counts(pattern_ids: list[int], since: datetime, now: datetime) -> dict:
    """``{pattern: {day: failures}}``: an index-only scan of failure_pattern_time_idx."""
    rows = (
        Failure.objects.filter(
            pattern_id__in=pattern_ids, occurred_at__gte=since, occurred_at__lte=now
        )
        .annotate(day=TruncDate("occurred_at"))
        .values_list("pattern_id", "day")
        .annotate(n=Count("*"))
        .order_by()
    )
    counts: dict[int, dict[date, int]] = {pk: {} for pk in pattern_ids}
    for pk, day, n in rows:
        counts[pk][day] = n
    return counts


def _top_patterns(*, since: datetime, now: datetime) -> dict[int, dict]:
    """The TOP_PATTERNS patterns with most failures since ``since``, with their daily counts.

    A pattern's all-time count (its event_count) bounds its count in the window from above, so
    candidates are read most frequent first (pattern_frequent_idx) and counted a batch at a
    time until the next candidate's all-time count cannot beat the current TOP_PATTERNS-th.
    """
    ranked = list(
        FailurePattern.objects.filter(merged_into__isnull=True, last_seen__gte=since)
        .order_by("-event_count", "pk")
        .values_list("pk", "event_count")[:MAX_CANDIDATES]
    )
    counts: dict[int, dict] = {}
    for start in range(0, len(ranked), CANDIDATE_BATCH):
        if len(counts) >= TOP_PATTERNS and ranked[start][1] <= _kth_total(counts):
            break
        batch = [pk for pk, _ in ranked[start : start + CANDIDATE_BATCH]]
        counts.update(_daily_counts(batch, since, now))
    best = sorted(counts, key=lambda pk: (-sum(counts[pk].values()), pk))[:TOP_PATTERNS]
    return {pk: counts[pk] for pk in best if counts[pk]}


def _kth_total(counts: dict[int, dict]) -> int:
    totals = sorted((sum(days.values()) for days in counts.values()), reverse=True)
    return totals[TOP_PATTERNS - 1]


def _daily_totals(*, days: list[date], now: datetime) -> dict[date, int]:
    """All failures per day: finished days from the cache where possible, today counted live.
    Each day is its own index-only range count, so a cache miss costs one day, not the window."""
    today, finished = days[-1], days[:-1]
    keys = {day: DAY_TOTAL_KEY.format(day.isoformat()) for day in finished}
    cached = cache.get_many(list(keys.values()))
    totals = {day: cached[key] for day, key in keys.items() if key in cached}
    for day in finished:
        if day not in totals:
            totals[day] = _day_count(day, _midnight(day + timedelta(days=1)))
            cache.set(keys[day], totals[day], _day_total_seconds(day, today))
    totals[today] = _day_count(today, now)
    return totals


def _day_count(day: date, until: datetime) -> int:
    return Failure.objects.filter(occurred_at__gte=_midnight(day), occurred_at__lt=until).count()


def _day_total_seconds(day: date, today: date) -> int:
    """Yesterday may still get late events: an hour. An older day is final in practice: a day,
    each at a random point of its second half, so a cold cache does not expire all at once."""
    if day >= today - timedelta(days=1):
        return DAY_TOTAL_SECONDS
    return round(OLD_DAY_TOTAL_SECONDS * random.uniform(0.5, 1.0))
