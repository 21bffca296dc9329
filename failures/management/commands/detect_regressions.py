"""``manage.py detect_regressions``: judge the patterns that came back (regression, or
recurring and handled); count the fleet's loops."""

from django.core.management.base import BaseCommand

from failures.analysis.regressions import regressions_detect


class Command(BaseCommand):
    help = (
        "Judge patterns that failed again after a lesson approval or after all were "
        "resolved: a regression when the fix stopped working, else recurring (handled)."
    )

    def handle(self, *args, **options):
        result = regressions_detect()
        self.stdout.write(
            f"{result.patterns} pattern(s) with new failures: {result.flagged} new regression(s), "
            f"{result.handled} recurring and handled; {result.loops} task(s) looping across the "
            "fleet."
        )
