"""``manage.py judge_releases``: the release job, by hand."""

from django.core.management.base import BaseCommand

from outcomes.releases.services import versions_judge


class Command(BaseCommand):
    help = (
        "Count what each release, model and prompt version ran and met, and judge which "
        "patterns are new or gone in each (as the periodic job does)."
    )

    def handle(self, *args, **options):
        for kind, count in versions_judge().items():
            self.stdout.write(f"{count} {kind.replace('_', ' ')}(s) judged.")
