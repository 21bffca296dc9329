"""Pattern-analysis reports: build one for a window, store it as JSON and markdown, mail it.

A report reads what the other jobs stored (patterns and their counters, root-cause groups,
regressions, lessons' effectiveness) plus two live reads (rising patterns, the fleet's loops);
see failures.staff.report_sections for each section and its thresholds. The JSON is made plain
(ISO timestamps) before it is stored, and the markdown is rendered from that same JSON, so
the two always agree. ADMINS get the markdown by email once the report is committed, when
email is configured (EMAIL_HOST or EMAIL_BACKEND set in the settings).
"""

import json
import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.mail import mail_admins
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from failures.analysis.regressions import loops_fleet_detect
from failures.models import PatternReport
from failures.staff import report_sections as sections
from failures.staff.report_markdown import report_markdown, report_summary

logger = logging.getLogger(__name__)

# The window of a report when no ``since`` is given: the daily report covers a day.
REPORT_WINDOW = timedelta(hours=24)


def pattern_report_build(
    *, since: datetime | None = None, until: datetime | None = None
) -> PatternReport:
    """Build and store the report of ``since`` .. ``until`` (default: the last REPORT_WINDOW up
    to now). A report of exactly that window already stored is rebuilt in place, and only a
    new report is mailed."""
    until = until or timezone.now()
    since = since or until - REPORT_WINDOW
    if since >= until:
        raise ValueError("since must be before until")
    data = pattern_report_compose(since=since, until=until)
    with transaction.atomic():
        report, created = PatternReport.objects.update_or_create(
            since=since, until=until, defaults={"data": data, "markdown": report_markdown(data)}
        )
        if created:
            transaction.on_commit(partial(pattern_report_email, report=report), robust=True)
    return report


def pattern_report_compose(*, since: datetime, until: datetime) -> dict:
    """The report's data, JSON-ready: one list per section, with the thresholds used."""
    data = {
        "since": since,
        "until": until,
        "thresholds": {
            "rising_min_events": sections.RISING_MIN_EVENTS,
            "rising_factor": sections.RISING_FACTOR,
            "effectiveness_drop": sections.EFFECTIVENESS_DROP,
            "curation_window_days": sections.CURATION_WINDOW.days,
            "section_cap": sections.SECTION_CAP,
        },
        "new_patterns": sections.new_patterns(since=since, until=until),
        "rising_patterns": sections.rising_patterns(since=since, until=until),
        "root_cause_groups": sections.root_cause_groups(since=since),
        "loops": loops_fleet_detect(now=until)[: sections.SECTION_CAP],
        "regressions": sections.regressions(since=since, until=until),
        "recurring_handled": sections.recurring_handled(since=since, until=until),
        "lessons_fell": sections.lessons_fell(),
        "curation_queue": sections.curation_queue(until=until),
    }
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def report_email_configured() -> bool:
    """ADMINS listed and an email backend chosen on purpose (not Django's localhost default)."""
    chosen = settings.is_overridden("EMAIL_HOST") or settings.is_overridden("EMAIL_BACKEND")  # type: ignore[misc]  # django-stubs leave is_overridden out of LazySettings, which hands it to Settings at run time; the plugin then takes the name for a setting
    return bool(settings.ADMINS) and chosen


def pattern_report_email(*, report: PatternReport) -> bool:
    """Mail the report's markdown to ADMINS when email is configured; True when sent."""
    if not report_email_configured():
        return False
    subject = f"Pattern report {report.until:%Y-%m-%d %H:%M}: {report_summary(report.data)}"
    mail_admins(subject, report.markdown)
    logger.info("pattern report %s mailed to %d admin(s)", report.pk, len(settings.ADMINS))
    return True
