"""``manage.py recompute_effectiveness``: the effectiveness job, for when no beat runs."""

from django.core.management.base import BaseCommand

from lessons.effectiveness import effectiveness_recompute
from lessons.models import Lesson


class Command(BaseCommand):
    help = (
        "Recompute every lesson's effectiveness, ranking score and review flag from its "
        "applications."
    )

    def handle(self, *args, **options):
        updated = effectiveness_recompute()
        flagged = Lesson.objects.filter(flagged=True).count()
        self.stdout.write(f"{updated} lesson(s) rescored; {flagged} flagged for review.")
