"""``manage.py prune_idempotency --older-than DAYS``: forget old event-id answers."""

from django.core.management.base import BaseCommand

from config.api.services import idempotency_prune


class Command(BaseCommand):
    help = "Delete remembered answers to writes older than DAYS (default 30), in small batches."

    def add_arguments(self, parser):
        parser.add_argument("--older-than", type=int, default=30, metavar="DAYS")

    def handle(self, *args, older_than, **options):
        deleted = idempotency_prune(older_than_days=older_than)
        self.stdout.write(f"Forgot {deleted} answer(s) older than {older_than} days.")
