"""``manage.py mine_patterns``: regroup templates into patterns and recount their counters."""

from django.core.management.base import BaseCommand

from failures.store.counts import patterns_recount
from failures.store.mining import patterns_mine


class Command(BaseCommand):
    help = "Merge stored patterns that the engine groups together, then recount every pattern."

    def handle(self, *args, **options):
        result = patterns_mine()
        recounted = patterns_recount()
        self.stdout.write(
            f"{result.templates} templates regrouped: {result.merged} pattern(s) merged, "
            f"{result.widened} widened; {recounted} pattern(s) recounted."
        )
