"""Celery jobs for the outcome ledger: thin wrappers over services, idempotent."""
from celery import shared_task
from django.conf import settings

from .services import outcomes_prune


@shared_task(acks_late=True)
def outcomes_prune_task() -> int:
    """Retention: delete outcomes older than HINDSIGHT_OUTCOME_RETENTION_DAYS (0: keep all)."""
    days = settings.HINDSIGHT_OUTCOME_RETENTION_DAYS
    return outcomes_prune(older_than_days=days) if days > 0 else 0
