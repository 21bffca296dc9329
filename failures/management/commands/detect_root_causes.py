"""``manage.py detect_root_causes``: recompute the suggested root-cause groups."""

from django.core.management.base import BaseCommand

from failures.analysis.rootcauses import WINDOW_DAYS, root_causes_detect


class Command(BaseCommand):
    help = (
        "Group patterns whose failures start and stop together beyond chance, or that name "
        "the same dependency (root-cause groups)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=WINDOW_DAYS,
            help=f"how many days of failures to look at (default {WINDOW_DAYS})",
        )

    def handle(self, *args, **options):
        result = root_causes_detect(days=options["days"])
        self.stdout.write(
            f"{result.patterns} active pattern(s): {result.groups} suggested group(s), "
            f"{result.created} new, {result.removed} dropped."
        )
