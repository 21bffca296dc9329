"""``manage.py update_patterns``: the incremental pattern job, for installs without a beat."""

from django.core.management.base import BaseCommand

from failures.store.pattern_job import patterns_update


class Command(BaseCommand):
    help = "Merge templates created since the last run into patterns; recount touched patterns."

    def handle(self, *args, **options):
        result = patterns_update()
        self.stdout.write(
            f"{result.templates} new template(s), {result.failures} new failure(s): "
            f"{result.merged} pattern(s) merged, {result.widened} widened, "
            f"{result.recounted} recounted."
        )
