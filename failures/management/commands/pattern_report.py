"""``manage.py pattern_report [--since ISO_DATETIME]``: build, store and point to a report."""

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from config.moments import moment_parsed
from failures.analysis.regressions import regressions_detect
from failures.analysis.rootcauses import root_causes_detect
from failures.staff.report_markdown import report_summary
from failures.staff.reports import pattern_report_build
from failures.store.pattern_job import patterns_update


class Command(BaseCommand):
    help = "Build and store a pattern-analysis report (the last 24 hours unless --since)."

    def add_arguments(self, parser):
        parser.add_argument("--since", help="start of the window, ISO 8601 (UTC when no offset)")
        parser.add_argument(
            "--detect",
            action="store_true",
            help="run update_patterns, detect_root_causes and detect_regressions "
            "first (for installs where no beat runs them)",
        )

    def handle(self, *args, **options):
        since = self._since(options["since"])
        if options["detect"]:
            patterns_update()
            root_causes_detect()
            regressions_detect()
        try:
            report = pattern_report_build(since=since)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Pattern report {report.pk} stored ({report.since:%Y-%m-%d %H:%M} to "
            f"{report.until:%Y-%m-%d %H:%M} UTC): {report_summary(report.data)}\n"
            f"  HTML (staff): {reverse('reports:detail', args=[report.pk])}\n"
            f"  markdown: {reverse('reports:markdown', args=[report.pk])}\n"
            f"  JSON: {reverse('reports:json', args=[report.pk])}"
        )

    @staticmethod
    def _since(raw: str | None):
        if not raw:
            return None
        try:
            return moment_parsed(raw)
        except (ValueError, OverflowError):
            raise CommandError(f"--since must be an ISO 8601 date and time, not {raw!r}") from None
