from django.apps import AppConfig


class AlertsConfig(AppConfig):
    """Alerts: telling a human, where the team is, when the fleet needs one (the top layer: it
    reads the other apps, none reads it but the dashboard)."""

    name = "alerts"
    default_auto_field = "django.db.models.BigAutoField"
