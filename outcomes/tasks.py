"""Celery jobs for the outcome ledger: thin wrappers over services, idempotent."""

from celery import shared_task
from django.conf import settings

from .otlp.services import span_rejections_prune
from .services import outcomes_prune


@shared_task(acks_late=True)
def outcomes_prune_task() -> int:
    """Retention: delete outcomes older than HINDSIGHT_OUTCOME_RETENTION_DAYS (0: keep all),
    and refused OpenTelemetry spans kept past their week."""
    span_rejections_prune()
    days = settings.HINDSIGHT_OUTCOME_RETENTION_DAYS
    return outcomes_prune(older_than_days=days) if days > 0 else 0
