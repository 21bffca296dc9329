"""``manage.py prune_outcomes --older-than DAYS``: retention for the outcome ledger."""

from django.core.management.base import BaseCommand, CommandError

from outcomes.otlp.services import REJECTION_RETENTION_DAYS, span_rejections_prune
from outcomes.services import outcomes_prune


class Command(BaseCommand):
    help = (
        "Delete outcomes older than DAYS, a batch per short transaction, and refused "
        f"OpenTelemetry spans older than {REJECTION_RETENTION_DAYS} days. Failure records and "
        "pattern counts are kept."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--older-than",
            type=int,
            required=True,
            metavar="DAYS",
            help="Delete outcomes that happened more than DAYS days ago.",
        )
        parser.add_argument(
            "--batch-size",
            type=int,
            default=5000,
            help="Rows deleted per transaction (default 5000).",
        )

    def handle(self, *args, older_than: int, batch_size: int, **options):
        if older_than < 1:
            raise CommandError("--older-than must be at least 1 day.")
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        deleted = outcomes_prune(older_than_days=older_than, batch_size=batch_size)
        self.stdout.write(f"{deleted} outcome(s) older than {older_than} day(s) deleted.")
        forgotten = span_rejections_prune()
        self.stdout.write(
            f"{forgotten} record(s) of refused spans older than "
            f"{REJECTION_RETENTION_DAYS} days deleted."
        )
