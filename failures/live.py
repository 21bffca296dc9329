"""The live pattern: a pattern merged away answers for the one it was merged into.

Merging points every alias at the survivor, aliases of an alias included
(failures.store.mining), so one hop from any pattern reaches its live one. This module spells
that hop once: as an ORM expression for reads, in SQL for the raw reads that remain
(failures.queries, answers.queries), and for a pattern in hand.
"""

from django.db.models import Case, F, When
from django.db.models.functions import Coalesce

from .models import FailurePattern


def live_pattern(prefix: str = "", field: str = "id"):
    """``field`` of the live pattern, as an ORM expression over the pattern at ``prefix`` (a
    relation path such as ``"pattern"``; empty for patterns themselves)."""
    own = f"{prefix}__" if prefix else ""
    if field == "id":
        return Coalesce(f"{own}merged_into_id", f"{prefix}_id" if prefix else "id")
    return Case(
        When(**{f"{own}merged_into__isnull": True}, then=F(f"{own}{field}")),
        default=F(f"{own}merged_into__{field}"),
    )


def live_pattern_sql(pattern_id: str) -> str:
    """The live pattern's id in SQL, for the pattern whose id is the SQL ``pattern_id``."""
    return (
        f"COALESCE((SELECT merged_into_id FROM {FailurePattern._meta.db_table}"
        f" WHERE id = {pattern_id}), {pattern_id})"
    )


def live_of(pattern):
    """The live pattern of ``pattern`` (its ``merged_into`` loaded, or loaded on access)."""
    return pattern.merged_into or pattern
