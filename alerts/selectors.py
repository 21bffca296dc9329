"""Reads of the alerts for other pages: the dashboard shows the destinations that are paused."""

from django.urls import reverse

from config.formats import moment_shown

from .models import Destination


def destinations_paused() -> list[dict]:
    """Every paused destination, the longest paused first, with why and where to resume it."""
    paused = Destination.objects.filter(paused_at__isnull=False).order_by("paused_at", "pk")
    return [
        {
            "name": destination.name,
            "paused_at": moment_shown(destination.paused_at),
            "reason": destination.paused_reason,
            "url": reverse("admin:alerts_destination_change", args=[destination.pk]),
        }
        for destination in paused
        if destination.paused_at is not None
    ]
