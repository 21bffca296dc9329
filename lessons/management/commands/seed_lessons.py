"""``manage.py seed_lessons``: load the known patterns (idempotent)."""

from django.core.management.base import BaseCommand

from lessons.services import lessons_seed


class Command(BaseCommand):
    help = "Create the known error patterns and their resolutions, approved; safe to run again."

    def handle(self, *args, **options):
        created = lessons_seed()
        self.stdout.write(f"Known patterns: {created} created, the rest already present.")
