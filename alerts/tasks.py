"""Celery jobs of the alerts: thin wrappers over alerts.services, safe to run twice."""

from dataclasses import asdict

from celery import shared_task

from .services import alerts_run, delivery_attempt


@shared_task(acks_late=True)
def alerts_run_task() -> dict:
    """Raise what the rules name now and hand the due deliveries to the worker."""
    return asdict(alerts_run())


@shared_task(acks_late=True)
def alert_deliver_task(delivery_id: int) -> str | None:
    """Attempt one delivery if it is due (a delivery handed over twice is sent once)."""
    return delivery_attempt(delivery_id=delivery_id)
