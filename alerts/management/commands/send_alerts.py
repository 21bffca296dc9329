"""``manage.py send_alerts``: the alerts job, by hand (the embedded mode runs no beat)."""

from django.core.management.base import BaseCommand

from alerts.services import alerts_run


class Command(BaseCommand):
    help = (
        "Raise the alerts the rules name now and send every delivery that is due (as the"
        " periodic job does each minute); run it every minute from cron where no beat runs."
    )

    def handle(self, *args, **options):
        result = alerts_run()
        self.stdout.write(
            f"{result.raised} alert(s) raised, {result.handed_over} due delivery(ies) handed over."
        )
