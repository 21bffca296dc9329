"""How relevant a past outcome is to the task at hand: a pure scoring function.

score = 3 per shared file (at most 3 files count)
      + 4 if it failed with the same pattern (same root error, whatever the wording)
      + 2 if it has the same error type
      + 2.5 if it is an earlier attempt at the same task
      + 1 if it is the same task type
      + 2 x 0.5 ** (age in days / 7)   (recency: half the weight per week)

A past outcome is "related" only if it shares a file, a pattern, an error type or the task;
task type and recency order what is related, they do not make it so. The weights put evidence
about the same fault (pattern) above a shared file, and a shared file above a shared error type,
which many unrelated failures have in common.
"""

from dataclasses import dataclass, field
from datetime import datetime

FILE_WEIGHT = 3.0
MAX_FILES_COUNTED = 3
PATTERN_WEIGHT = 4.0
ERROR_TYPE_WEIGHT = 2.0
SAME_TASK_WEIGHT = 2.5
TASK_TYPE_WEIGHT = 1.0
RECENCY_WEIGHT = 2.0
RECENCY_HALF_LIFE_DAYS = 7.0


@dataclass(frozen=True)
class Focus:
    """What the current task is about."""

    task_id: str = ""
    task_type: str = ""
    files: frozenset = field(default_factory=frozenset)
    patterns: frozenset = field(default_factory=frozenset)
    error_types: frozenset = field(default_factory=frozenset)


def shared_evidence(focus: Focus, *, task_id: str, files, pattern_id, error_type: str) -> dict:
    """What a past outcome has in common with the focus."""
    return {
        "files": len(focus.files.intersection(files)),
        "pattern": pattern_id is not None and pattern_id in focus.patterns,
        "error_type": bool(error_type) and error_type in focus.error_types,
        "task": bool(focus.task_id) and task_id == focus.task_id,
    }


def is_related(evidence: dict) -> bool:
    """Related means a shared file, pattern, error type or task, not just recency."""
    return bool(
        evidence["files"] or evidence["pattern"] or evidence["error_type"] or evidence["task"]
    )


def score(
    focus: Focus, evidence: dict, *, task_type: str, occurred_at: datetime, now: datetime
) -> float:
    """The relevance of a past outcome (see the module docstring)."""
    age_days = max((now - occurred_at).total_seconds(), 0.0) / 86400
    return (
        FILE_WEIGHT * min(evidence["files"], MAX_FILES_COUNTED)
        + PATTERN_WEIGHT * evidence["pattern"]
        + ERROR_TYPE_WEIGHT * evidence["error_type"]
        + SAME_TASK_WEIGHT * evidence["task"]
        + TASK_TYPE_WEIGHT * (bool(focus.task_type) and task_type == focus.task_type)
        + RECENCY_WEIGHT * 0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS)
    )
