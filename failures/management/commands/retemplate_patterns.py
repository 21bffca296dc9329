"""``manage.py retemplate_patterns``: after an upgrade of the engine, template every stored message
again and merge the patterns the current engine joins (failures.store.retemplate)."""

from django.core.management.base import BaseCommand

from failures.store.retemplate import patterns_retemplate


class Command(BaseCommand):
    help = (
        "Template every stored message with the current engine and merge the patterns it "
        "joins, keeping lessons, links, triage and counts; safe to run again."
    )

    def handle(self, *args, **options):
        result = patterns_retemplate()
        self.stdout.write(
            f"{result.messages} distinct message(s) templated again: {result.filed} new "
            f"shape(s) filed, {result.joined} pattern(s) merged; then {result.mined.templates} "
            f"templates regrouped: {result.mined.merged} more merged, {result.mined.widened} "
            "widened."
        )
