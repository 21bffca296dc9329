"""The guard: Hindsight's flow around one skill or tool call, as a decorator or a with-block.

At start it reads the boot briefing and raises ``SkipTask`` if the task is to be skipped. When the
call raises, it records the failure (with the checkpoint, side effects and retry safety the call
left on ``current_attempt()``), looks up lessons, applies the registered strategy of the best one
that has a strategy, and reports whether that worked. On success it records the outcome, which
closes the task's open failures on the server. Hindsight being away never changes what the call
does: the guard's own requests are spooled or answered empty, and their errors only logged.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .client import Hindsight
from .errors import HindsightError
from .strategies import SkipTask, Strategies, Strategy

log = logging.getLogger("hindsight_client")


@dataclass
class Attempt:
    """The running call's notes for the guard, and what the guard did about a failure."""

    task: str
    checkpoint: dict | None = None
    side_effects: list[str] = field(default_factory=list)
    retry_safe: bool | None = None
    result: Any = None  # what a fallback returned, in a with-block
    failure: dict | None = None  # the last failure recorded, as the server answered it
    lesson: dict | None = None  # the lesson whose strategy was applied
    retry_after: float | None = None  # in a with-block, the delay a retry strategy asks for
    _started: float = field(default_factory=time.monotonic, repr=False)
    _token: Any = field(default=None, repr=False)


_current: contextvars.ContextVar[Attempt | None] = contextvars.ContextVar(
    "hindsight_attempt", default=None
)


def current_attempt() -> Attempt | None:
    """The guarded call running here, to set ``checkpoint``, ``side_effects`` or ``retry_safe``."""
    return _current.get()


def default_classify(exc: BaseException) -> dict[str, Any]:
    """Failure fields from an exception: its ``error_type`` / ``retry_after`` / ``recovery_hint``
    attributes when it has them, else its class name as the error type."""
    return {
        "error_type": getattr(exc, "error_type", None) or type(exc).__name__,
        "retry_after": getattr(exc, "retry_after", None),
        "recovery_hint": getattr(exc, "recovery_hint", None),
    }


class Guard:
    """``@Guard(hs, task_type=...)`` on a function, or ``with Guard(hs, task=..., ...) as a:``.

    The task defaults to the function's name. In a with-block the body cannot be run again, so a
    retry strategy sets ``attempt.retry_after`` and re-raises, and a fallback is called with no
    arguments, its value left in ``attempt.result``.
    """

    def __init__(
        self,
        client: Hindsight,
        *,
        task_type: str,
        task: str | None = None,
        agent: str | None = None,
        skill_name: str | None = None,
        strategies: Strategies | None = None,
        classify: Callable[[BaseException], dict] = default_classify,
        check_boot: bool = True,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.client, self.task_type, self.task = client, task_type, task
        self.agent = client._agent(agent)  # fail now, not in the middle of a task
        self.skill_name, self.classify, self.check_boot = skill_name, classify, check_boot
        self.strategies = strategies or Strategies()
        self._sleep = sleep

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def guarded(*args, **kwargs):
            return self.run(func, *args, **kwargs)

        return guarded

    def run(self, func: Callable[..., Any], /, *args, **kwargs) -> Any:
        """Call ``func`` under the guard; its result, or the error no strategy could recover."""
        attempt = self._begin(self.task or func.__name__)
        try:
            try:
                result = func(*args, **kwargs)
            except Exception as exc:
                return self._recover(
                    attempt,
                    exc,
                    lambda: func(*args, **kwargs),
                    lambda alternative: alternative(*args, **kwargs),
                )
            self._succeeded(attempt)
            return result
        finally:
            _current.reset(attempt._token)

    def __enter__(self) -> Attempt:
        if not self.task:
            raise ValueError("a guarded with-block needs task=")
        return self._begin(self.task)

    def __exit__(self, exc_type, exc, traceback) -> bool:
        attempt = _current.get()
        # __enter__ set it, and a guard nested in the block has reset its own by now.
        assert attempt is not None, "Guard.__exit__ without its __enter__"
        _current.reset(attempt._token)
        if exc is None:
            self._succeeded(attempt)
            return False
        if not isinstance(exc, Exception):
            return False  # KeyboardInterrupt and the like are the operator's, not a failure
        try:
            attempt.result = self._recover(attempt, exc, None, lambda alternative: alternative())
        except Exception as raised:
            if raised is exc:
                return False
            raise
        return True

    def _begin(self, task: str) -> Attempt:
        if self.check_boot:
            self._check_skip(task)
        attempt = Attempt(task)
        attempt._token = _current.set(attempt)
        return attempt

    def _check_skip(self, task: str) -> None:
        briefing = self._quietly(self.client.boot, {}, agent=self.agent, task_type=self.task_type)
        for entry in briefing.get("skip", []):
            if entry.get("task") == task:
                raise SkipTask(task, until=entry.get("skip_until"), why=entry.get("why", ""))

    def _recover(
        self,
        attempt: Attempt,
        exc: Exception,
        rerun: Callable[[], Any] | None,
        call_alternative: Callable[[Callable], Any],
    ) -> Any:
        """Record, look up, apply the strategy; the recovered result, or raise the last error."""
        self._failed(attempt, exc, attempt_count=1)
        picked = self.strategies.pick(self._lessons(attempt, exc))
        if picked is None or picked[1].kind == "reraise":
            raise exc
        lesson, strategy = picked
        attempt.lesson = lesson
        if strategy.kind == "retry" and rerun is None:
            attempt.retry_after = strategy.delay
            raise exc
        try:
            result = self._apply(attempt, strategy, rerun, call_alternative)
        except Exception:
            self._report(attempt, lesson, worked=False)
            raise
        self._report(attempt, lesson, worked=True)
        self._succeeded(attempt)
        return result

    def _apply(
        self,
        attempt: Attempt,
        strategy: Strategy,
        rerun: Callable[[], Any] | None,
        call_alternative: Callable[[Callable], Any],
    ) -> Any:
        if strategy.kind == "fallback":
            alternative = strategy.alternative
            assert alternative is not None, "a fallback strategy is built with its alternative"
            try:
                return call_alternative(alternative)
            except Exception as exc:
                self._failed(attempt, exc, attempt_count=2)
                raise
        # A retry: in a with-block (no rerun) _recover has already re-raised.
        assert rerun is not None, "a retry needs the call to run again"
        for number in range(2, strategy.attempts + 2):
            self._sleep(strategy.delay)
            try:
                return rerun()
            except Exception as exc:
                self._failed(attempt, exc, attempt_count=number)
                if number == strategy.attempts + 1:
                    raise

    def _lessons(self, attempt: Attempt, exc: Exception) -> list[dict]:
        # A recorded failure answers with its lessons; a spooled one does not, so ask.
        if attempt.failure and "lessons" in attempt.failure:
            return attempt.failure["lessons"]
        found = self._quietly(
            self.client.check_known_errors,
            {},
            error_type=self.classify(exc).get("error_type"),
            error_message=_message(exc),
        )
        return found.get("lessons", [])

    def _failed(self, attempt: Attempt, exc: Exception, *, attempt_count: int) -> None:
        fields = {name: value for name, value in self.classify(exc).items() if value is not None}
        attempt.failure = self._quietly(
            self.client.record_failure,
            None,
            task=attempt.task,
            error=_message(exc),
            agent=self.agent,
            task_type=self.task_type,
            skill_name=self.skill_name,
            retry_safe=attempt.retry_safe,
            side_effects=attempt.side_effects or None,
            checkpoint=attempt.checkpoint,
            attempt_count=attempt_count,
            **fields,
        )

    def _report(self, attempt: Attempt, lesson: dict, *, worked: bool) -> None:
        failure_id = (attempt.failure or {}).get("id")
        self._quietly(
            self.client.report_application,
            None,
            lesson["id"],
            worked,
            agent=self.agent,
            task_id=attempt.task,
            failure_id=failure_id,
        )

    def _succeeded(self, attempt: Attempt) -> None:
        duration_ms = int((time.monotonic() - attempt._started) * 1000)
        self._quietly(
            self.client.record_outcome,
            None,
            attempt.task,
            self.task_type,
            "success",
            agent=self.agent,
            duration_ms=duration_ms,
        )

    @staticmethod
    def _quietly(operation: Callable[..., Any], default: Any, *args, **kwargs) -> Any:
        """Hindsight's own trouble is logged, never raised into the agent's call."""
        try:
            return operation(*args, **kwargs)
        except HindsightError as exc:
            log.warning("hindsight: %s failed: %s", operation.__name__, exc)
            return default


def _message(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
