"""Celery jobs of the failures app: thin, idempotent wrappers around the periodic services.

Each takes only JSON values, returns a JSON summary, and is safe to run twice (``acks_late``):
the services recompute and upsert, and the report of one window is rebuilt in place.
"""

from dataclasses import asdict

from celery import shared_task
from django.utils import timezone

from config.moments import moment_parsed
from failures.analysis.regressions import regressions_detect
from failures.analysis.rootcauses import root_causes_detect
from failures.staff.reports import pattern_report_build
from failures.store.pattern_job import patterns_update


@shared_task(acks_late=True)
def patterns_update_task() -> dict:
    """Merge new templates into patterns and recount the patterns that got failures."""
    return asdict(patterns_update())


@shared_task(acks_late=True)
def root_causes_detect_task() -> dict:
    """Recompute the suggested root-cause groups."""
    return asdict(root_causes_detect())


@shared_task(acks_late=True)
def regressions_detect_task() -> dict:
    """Flag patterns that came back after they counted as fixed; count the fleet's loops."""
    return asdict(regressions_detect())


@shared_task(acks_late=True)
def pattern_report_task(since: str | None = None, until: str | None = None) -> int:
    """Build and store a report (ISO timestamps); return its id. Without ``until`` the window
    ends at the start of the current hour, so a redelivered task rebuilds the same report."""
    end = _moment(until) or timezone.now().replace(minute=0, second=0, microsecond=0)
    return pattern_report_build(since=_moment(since), until=end).pk


def _moment(value: str | None):
    """An ISO timestamp in UTC (taken as UTC when it has no offset), or None."""
    return moment_parsed(value) if value else None
