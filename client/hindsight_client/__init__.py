"""Hindsight's agent-side client: record what happened, ask what is known, never fail the agent.

from hindsight_client import Hindsight
hs = Hindsight()   # HINDSIGHT_URL, HINDSIGHT_API_KEY, HINDSIGHT_AGENT
known = hs.check_known_errors(error_message=str(exc))
"""

from ._core import VERSION as __version__
from ._core import event_id_new
from .aio import AsyncHindsight
from .client import Hindsight
from .errors import (
    Conflict,
    Forbidden,
    HindsightError,
    InvalidRequest,
    NotFound,
    ServerError,
    Unauthorized,
    Unavailable,
)
from .guard import Attempt, Guard, current_attempt
from .strategies import SkipTask, Strategies, Strategy, fallback, reraise, retry
from .types import (
    ApplicationRecorded,
    BootBriefing,
    CheckResult,
    FailureRecorded,
    History,
    Lesson,
    LessonRecorded,
    OutcomeRecorded,
)

__all__ = [
    "ApplicationRecorded",
    "AsyncHindsight",
    "Attempt",
    "BootBriefing",
    "CheckResult",
    "Conflict",
    "FailureRecorded",
    "Forbidden",
    "Guard",
    "Hindsight",
    "HindsightError",
    "History",
    "InvalidRequest",
    "Lesson",
    "LessonRecorded",
    "NotFound",
    "OutcomeRecorded",
    "ServerError",
    "SkipTask",
    "Strategies",
    "Strategy",
    "Unauthorized",
    "Unavailable",
    "__version__",  # the installed distribution's version
    "current_attempt",
    "event_id_new",  # the time-ordered event id the client sends, for requests made elsewhere
    "fallback",
    "reraise",
    "retry",
]
