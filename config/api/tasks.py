"""Celery jobs for the API frame: forget old event-id answers."""

from celery import shared_task

from .services import idempotency_prune


@shared_task(acks_late=True)
def idempotency_prune_task(older_than_days: int = 30) -> int:
    """Delete idempotency records older than ``older_than_days``."""
    return idempotency_prune(older_than_days=older_than_days)
