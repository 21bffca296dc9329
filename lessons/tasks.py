"""Celery jobs for lessons: thin wrappers over services, idempotent, safe to ack late."""

from celery import shared_task

from .effectiveness import effectiveness_recompute


@shared_task(acks_late=True)
def effectiveness_recompute_task(lesson_ids: list[str] | None = None) -> int:
    """Recompute effectiveness, ranking score and flags (all lessons, or the ones named)."""
    return effectiveness_recompute(lesson_ids=lesson_ids)
