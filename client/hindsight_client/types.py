"""Typed shapes of the service's answers (the JSON as it arrives, plus the client's marks).

Reads carry ``available``: False when the service could not be reached and the answer is the
empty stand-in. Writes carry ``event_id``, the one the write was sent with (resending with it
changes nothing), and ``spooled``: True when the event was kept in the local spool, to be sent
later, in which case only ``event_id`` is known.
"""

from __future__ import annotations

from typing import Any, TypedDict


class Lesson(TypedDict, total=False):
    """A lesson as check, failures and outcomes answer with it."""

    id: str
    error_pattern: str
    error_type: str
    skill_name: str | None
    context: dict[str, Any]
    resolution: str
    resolution_code: str | None
    occurrences: int
    effectiveness: float
    rank_score: float
    status: str  # unverified / approved / rejected
    source: str
    applications_count: int
    flagged: bool
    match: str  # pattern, template or words (it matches the error); type (related)
    match_score: float


class CheckResult(TypedDict):
    """Known resolutions for an error, best first: ``lessons`` match the error itself;
    ``related`` share only its type and are no resolution."""

    lessons: list[Lesson]
    related: list[Lesson]
    has_resolution: bool
    has_approved_resolution: bool
    available: bool


class RetryAdvice(TypedDict):
    retryable: bool | None
    after_seconds: int | None
    reason: str


class FailureRecorded(TypedDict, total=False):
    """A recorded failure with its pattern, retry advice and matching lessons; ``root_cause``
    names the other symptoms of its open root-cause group, if any."""

    id: int
    status: str
    pattern: dict[str, Any]
    retry_advice: RetryAdvice
    lessons: list[Lesson]
    related: list[Lesson]
    has_resolution: bool
    has_approved_resolution: bool
    root_cause: dict[str, Any] | None
    # The release, model or prompt version sent in which the pattern is new: likely the
    # agent's own change, not the environment's.
    new_in: list[dict[str, Any]]
    # The write's own marks: the failure an OutcomeRecorded carries has neither.
    event_id: str
    spooled: bool


class OutcomeRecorded(TypedDict, total=False):
    """A recorded outcome; ``failure`` is set for a failed one that carried an error."""

    id: int
    event_id: str
    task_id: str
    agent: str
    task_type: str
    release: str
    model: str
    prompt_version: str
    outcome: str
    occurred_at: str
    resolved_failures: int
    failure: FailureRecorded | None
    spooled: bool


class LessonRecorded(TypedDict, total=False):
    """A new lesson (``created``) or one more occurrence of a known one (``updated``)."""

    created: bool
    updated: bool
    id: str
    status: str
    occurrences: int
    event_id: str
    spooled: bool


class ApplicationRecorded(TypedDict, total=False):
    """A lesson's application and whether it worked."""

    id: int
    lesson: str
    worked: bool
    agent: str
    task_id: str
    failure_id: int | None
    event_id: str
    spooled: bool


class BootBriefing(TypedDict, total=False):
    """What an agent should know when it starts (see the README's boot section)."""

    agent: str
    skip: list[dict[str, Any]]
    resume: list[dict[str, Any]]
    hints: list[dict[str, Any]]
    loops: list[dict[str, Any]]
    root_causes: list[dict[str, Any]]
    retry_advice: list[dict[str, Any]]
    recent_failures: list[dict[str, Any]]
    release: str
    new_in_release: list[dict[str, Any]]
    fleet: list[dict[str, Any]] | None
    available: bool


class History(TypedDict, total=False):
    """The task-history context for a prompt."""

    historyContext: str
    historyTokens: int
    metadata: dict[str, Any]
    available: bool


EMPTY_CHECK: CheckResult = {
    "lessons": [],
    "related": [],
    "has_resolution": False,
    "has_approved_resolution": False,
    "available": False,
}


def empty_boot(agent: str) -> BootBriefing:
    """The stand-in briefing when the service cannot be reached: nothing known, nothing skipped."""
    return {
        "agent": agent,
        "skip": [],
        "resume": [],
        "hints": [],
        "loops": [],
        "retry_advice": [],
        "recent_failures": [],
        "new_in_release": [],
        "fleet": None,
        "available": False,
    }


def empty_history() -> History:
    """The stand-in history when the service cannot be reached."""
    return {"historyContext": "", "historyTokens": 0, "metadata": {}, "available": False}
