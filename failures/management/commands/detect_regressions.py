"""``manage.py detect_regressions``: flag patterns that came back; count the fleet's loops."""
from django.core.management.base import BaseCommand

from failures.regressions import regressions_detect


class Command(BaseCommand):
    help = "Flag patterns that failed again after a lesson approval or after all were resolved."

    def handle(self, *args, **options):
        result = regressions_detect()
        self.stdout.write(
            f"{result.patterns} pattern(s) with new failures: {result.flagged} new regression(s); "
            f"{result.loops} task(s) looping across the fleet.")
