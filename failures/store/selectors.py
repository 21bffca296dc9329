"""Reads of the pattern store for the API: one pattern, answered by its live one."""

from config.errors import NotFound
from failures.live import live_of
from failures.models import MAX_ID, FailurePattern, pattern_ref
from failures.releases.selectors import pattern_versions_json


def pattern_json(*, pk: int) -> dict:
    """The pattern ``pk`` names, as the live one it was merged into if it was (``merged_from``
    then says which was asked), with its counts and the releases, models and prompt versions it
    was seen in; NotFound when there is none."""
    asked = (
        FailurePattern.objects.select_related("merged_into").filter(pk=pk).first()
        if pk <= MAX_ID
        else None
    )
    if asked is None:
        raise NotFound("No such pattern.")
    pattern = live_of(asked)
    return {
        **pattern_ref(pattern),
        "merged_from": asked.pk if pattern.pk != asked.pk else None,
        "error_type": pattern.error_type,
        "status": pattern.status,
        "first_seen": pattern.first_seen,
        "last_seen": pattern.last_seen,
        "events": pattern.event_count,
        "agents": pattern.agent_count,
        "tasks": pattern.task_count,
        **pattern_versions_json(pattern.pk),
    }
