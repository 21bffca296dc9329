"""The operations, written once for both clients: each builds its request and hands it to the
client's ``_read`` or ``_write`` (plain in ``Hindsight``, awaitable in ``AsyncHindsight``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import _core
from ._core import Call, compact


class Operations:
    """Public operations; subclasses provide ``_read``, ``_write`` and ``_settings``."""

    _settings: _core.Settings

    def _read(self, call: Call) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError

    def _write(self, call: Call) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError

    def _agent(self, agent: str | None) -> str:
        chosen = agent or self._settings.agent
        if not chosen:
            raise ValueError("agent is required: pass agent= or set HINDSIGHT_AGENT")
        return chosen

    def _versions(
        self, release: str | None, model: str | None, prompt_version: str | None
    ) -> dict[str, str]:
        """What the agent runs: the call's values, else the client's (its constructor's, else
        HINDSIGHT_RELEASE / HINDSIGHT_MODEL / HINDSIGHT_PROMPT_VERSION); a blank one is not
        sent."""
        return compact(
            release=_core.version_named(release) or self._settings.release,
            model=_core.version_named(model) or self._settings.model,
            prompt_version=_core.version_named(prompt_version) or self._settings.prompt_version,
        )

    def record_outcome(
        self,
        task_id: str | int,
        task_type: str,
        outcome: str,
        *,
        agent: str | None = None,
        context: dict | None = None,
        result: dict | None = None,
        duration_ms: int | None = None,
        occurred_at: datetime | str | None = None,
        applied_lesson: str | None = None,
        event_id: str | None = None,
        release: str | None = None,
        model: str | None = None,
        prompt_version: str | None = None,
    ):
        """Record a task's outcome ("success" or "failure"); a success closes its open failures.
        ``release``, ``model`` and ``prompt_version`` say what the agent ran (default: the
        client's). Answers an OutcomeRecorded."""
        body = compact(
            task_id=str(task_id),
            task_type=task_type,
            outcome=outcome,
            agent=self._agent(agent),
            context=context,
            result=result,
            duration_ms=duration_ms,
            occurred_at=_iso(occurred_at),
            applied_lesson=applied_lesson,
            event_id=event_id,
            **self._versions(release, model, prompt_version),
        )
        return self._write(_core.write_call("outcomes", body))

    def record_failure(
        self,
        task: str,
        error: str,
        *,
        agent: str | None = None,
        error_type: str | None = None,
        task_type: str | None = None,
        skill_name: str | None = None,
        retry_safe: bool | None = None,
        retry_after: int | None = None,
        side_effects: list[str] | None = None,
        recovery_hint: str | None = None,
        attempt_count: int | None = None,
        checkpoint: dict | None = None,
        title: str | None = None,
        timestamp: datetime | str | None = None,
        applied_lesson: str | None = None,
        event_id: str | None = None,
        release: str | None = None,
        model: str | None = None,
        prompt_version: str | None = None,
    ):
        """Record a failure in the seed's format; ``release``, ``model`` and ``prompt_version``
        say what the agent ran (default: the client's). Answers a FailureRecorded (pattern,
        retry advice and matching lessons), or a spooled mark."""
        body = compact(
            agent=self._agent(agent),
            task=task,
            error=error,
            error_type=error_type,
            task_type=task_type,
            skill_name=skill_name,
            retry_safe=retry_safe,
            retry_after=retry_after,
            side_effects=side_effects,
            recovery_hint=recovery_hint,
            attempt_count=attempt_count,
            checkpoint=checkpoint,
            title=title,
            timestamp=_iso(timestamp),
            applied_lesson=applied_lesson,
            event_id=event_id,
            **self._versions(release, model, prompt_version),
        )
        return self._write(_core.write_call("failures", body))

    def record_lesson(
        self,
        error_pattern: str,
        error_type: str,
        resolution: str,
        *,
        skill_name: str | None = None,
        context: dict | None = None,
        resolution_code: str | None = None,
        error_message: str | None = None,
        error_messages: list[str] | None = None,
        event_id: str | None = None,
    ):
        """Record a lesson, or count one more occurrence of a known one; ``error_message``
        and up to ten ``error_messages`` (other wordings of the fault) link it to their
        patterns. Answers a LessonRecorded."""
        body = compact(
            error_pattern=error_pattern,
            error_type=error_type,
            resolution=resolution,
            skill_name=skill_name,
            context=context,
            resolution_code=resolution_code,
            error_message=error_message,
            error_messages=error_messages,
            event_id=event_id,
        )
        return self._write(_core.write_call("lessons", body))

    def report_application(
        self,
        lesson_id: str,
        worked: bool,
        *,
        agent: str | None = None,
        task_id: str | None = None,
        failure_id: int | None = None,
        event_id: str | None = None,
    ):
        """Say whether applying a lesson worked. Answers an ApplicationRecorded."""
        body = compact(
            worked=worked,
            agent=agent or self._settings.agent,
            task_id=task_id,
            failure_id=failure_id,
            event_id=event_id,
        )
        return self._write(_core.write_call(f"lessons/{lesson_id}/applications", body))

    def check_known_errors(
        self,
        *,
        error_type: str | None = None,
        error_message: str | None = None,
        skill_name: str | None = None,
        limit: int = 5,
    ):
        """Known resolutions for an error, best first. Answers a CheckResult."""
        return self._read(
            _core.check_call(
                error_type=error_type,
                error_message=error_message,
                skill_name=skill_name,
                limit=limit,
            )
        )

    def boot(
        self,
        *,
        agent: str | None = None,
        task_type: str | None = None,
        scope: str | None = None,
        window_hours: int | None = None,
        skip_after: int | None = None,
        release: str | None = None,
    ):
        """The boot briefing: skip, resume, hints, loops, and what is new in the agent's
        release. Answers a BootBriefing."""
        return self._read(
            _core.boot_call(
                agent=self._agent(agent),
                task_type=task_type,
                scope=scope,
                window_hours=window_hours,
                skip_after=skip_after,
                release=_core.version_named(release) or self._settings.release,
            )
        )

    def history(
        self,
        *,
        agent: str | None = None,
        task_type: str | None = None,
        task_id: str | None = None,
        files: list[str] | None = None,
        error_type: str | None = None,
        error_message: str | None = None,
        budget_tokens: int | None = None,
    ):
        """The task-history context for a prompt. Answers a History."""
        return self._read(
            _core.history_call(
                agent=self._agent(agent),
                task_type=task_type,
                task_id=task_id,
                files=files,
                error_type=error_type,
                error_message=error_message,
                budget_tokens=budget_tokens,
            )
        )


def _iso(value: datetime | str | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value
