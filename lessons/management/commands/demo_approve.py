"""``manage.py demo_approve PREFIX``: approve the demo fleet's lessons, as a human would in the
admin (through the same service, in the admin user's name)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from lessons.curation import lesson_approve
from lessons.models import Lesson


class Command(BaseCommand):
    help = "Approve unverified agent lessons whose error_pattern starts with PREFIX (demo only)."

    def add_arguments(self, parser):
        parser.add_argument("prefix")
        parser.add_argument(
            "--limit",
            type=int,
            default=None,
            help="approve at most this many, the most frequent first",
        )

    def handle(self, *args, prefix, limit, **options):
        """Print each approved lesson's error_pattern on its own line."""
        if not prefix.strip():
            raise CommandError("a non-empty prefix is needed: this must never approve everything")
        user = get_user_model().objects.filter(is_superuser=True).order_by("pk").first()
        if user is None:
            raise CommandError("no admin login: run manage.py ensure_admin first")
        pending = Lesson.objects.filter(
            error_pattern__startswith=prefix,
            status=Lesson.Status.UNVERIFIED,
            source=Lesson.Source.AGENT,
        ).order_by("-occurrences", "error_pattern")
        for lesson in pending[:limit]:
            lesson_approve(lesson=lesson, user=user)
            self.stdout.write(lesson.error_pattern)
