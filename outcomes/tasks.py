"""Celery jobs for the outcome ledger: thin wrappers over services, idempotent."""

from celery import shared_task
from django.conf import settings

from .otlp.services import span_rejections_prune
from .releases.services import versions_judge
from .services import outcomes_prune


@shared_task(acks_late=True)
def outcomes_prune_task() -> int:
    """Retention: delete outcomes older than HINDSIGHT_OUTCOME_RETENTION_DAYS (0: keep all),
    and refused OpenTelemetry spans kept past their week."""
    span_rejections_prune()
    days = settings.HINDSIGHT_OUTCOME_RETENTION_DAYS
    return outcomes_prune(older_than_days=days) if days > 0 else 0


@shared_task(acks_late=True)
def versions_judge_task() -> dict[str, int]:
    """Count what each release, model and prompt version ran and met, and judge which patterns
    are new or gone in it (outcomes.releases)."""
    return versions_judge()
