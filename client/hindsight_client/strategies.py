"""What the guard does when a known lesson matches a failure: retry after a delay, fall back to
another callable, or re-raise. Strategies are registered by a lesson's error_pattern or
error_type."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class Strategy:
    """One way to act on a lesson. Build with ``retry``, ``fallback`` or ``reraise``."""

    kind: Literal["retry", "fallback", "reraise"]
    delay: float = 0.0
    attempts: int = 1
    alternative: Callable[..., Any] | None = None


def retry(delay: float = 0.0, attempts: int = 1) -> Strategy:
    """Call the skill again, up to ``attempts`` times, waiting ``delay`` seconds before each."""
    if attempts < 1 or delay < 0:
        raise ValueError("retry needs attempts >= 1 and delay >= 0")
    return Strategy("retry", delay=delay, attempts=attempts)


def fallback(alternative: Callable[..., Any]) -> Strategy:
    """Call ``alternative`` with the skill's own arguments instead."""
    return Strategy("fallback", alternative=alternative)


def reraise() -> Strategy:
    """Let the error through: the lesson says trying again will not help."""
    return Strategy("reraise")


class Strategies:
    """A registry: lesson error_pattern or error_type to the strategy that applies it."""

    def __init__(self) -> None:
        self._by_pattern: dict[str, Strategy] = {}
        self._by_type: dict[str, Strategy] = {}

    def on_pattern(self, error_pattern: str, strategy: Strategy) -> Strategies:
        """Apply ``strategy`` when the lesson's error_pattern is this one (wins over a type)."""
        self._by_pattern[error_pattern] = strategy
        return self

    def on_type(self, error_type: str, strategy: Strategy) -> Strategies:
        """Apply ``strategy`` when the lesson's error_type is this one."""
        self._by_type[error_type] = strategy
        return self

    def pick(self, lessons: list[dict]) -> tuple[dict, Strategy] | None:
        """The best lesson (they arrive best first) that has a strategy, with that strategy."""
        for lesson in lessons:
            found = self._by_pattern.get(lesson.get("error_pattern", "")) or self._by_type.get(
                lesson.get("error_type", "")
            )
            if found:
                return lesson, found
        return None


class SkipTask(Exception):
    """Raised when a guarded call starts while the boot briefing says to skip its task.

    An exception rather than a sentinel return value, so that a skipped call can never be mistaken
    for the skill's own result. ``until`` is when the task may be tried again; ``why`` says why.
    """

    def __init__(self, task: str, *, until: str | None, why: str):
        super().__init__(f"skipping {task} until {until}: {why}")
        self.task, self.until, self.why = task, until, why
