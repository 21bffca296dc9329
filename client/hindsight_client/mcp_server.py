"""An MCP server exposing Hindsight to any MCP-speaking agent: boot, check_known_errors,
record_failure, record_outcome and record_lesson, thin over the REST API through
``AsyncHindsight``.

Needs the ``mcp`` extra (``pip install 'hindsight-client[mcp]'``). Run over stdio with
``hindsight-mcp`` (or ``python -m hindsight_client.mcp_server``), configured by HINDSIGHT_URL,
HINDSIGHT_API_KEY and HINDSIGHT_AGENT like the client. The service being away answers empty
reads and spools writes, as the client does. The server names itself with the client
distribution's version; each tool's description is its docstring as one plain line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from mcp.server import MCPServer

from ._core import VERSION
from .aio import AsyncHindsight

INSTRUCTIONS = (
    "Hindsight is the fleet's failure memory. Call boot when you start, check_known_errors "
    "before retrying an error, record_failure when a task fails, record_outcome when a task "
    "ends (a success closes its open failures), record_lesson after a fix."
)


def build_server(client: AsyncHindsight | None = None) -> MCPServer:
    """The MCP server with its five tools, over ``client`` (by default one from the
    environment)."""
    hs = client or AsyncHindsight()
    server = MCPServer("hindsight", instructions=INSTRUCTIONS, version=VERSION)
    _add_reads(server, hs)
    _add_writes(server, hs)
    _add_outcome(server, hs)
    return server


def _tool(server: MCPServer) -> Callable[[Callable], Callable]:
    """Register a tool described by its docstring with the line wrapping and indentation undone,
    as an MCP client shows the description verbatim."""

    def register(function: Callable) -> Callable:
        assert function.__doc__ is not None, f"the tool {function.__name__} has no docstring"
        return server.tool(description=" ".join(function.__doc__.split()))(function)

    return register


def _add_reads(server: MCPServer, hs: AsyncHindsight) -> None:
    tool = _tool(server)

    @tool
    async def check_known_errors(
        error_message: str = "", error_type: str = "", skill_name: str = "", limit: int = 5
    ) -> dict[str, Any]:
        """Known resolutions for an error: lessons match it (best fit first), related share
        only its type and are no resolution. Give error_message or error_type."""
        return dict(
            await hs.check_known_errors(
                error_message=error_message or None,
                error_type=error_type or None,
                skill_name=skill_name or None,
                limit=limit,
            )
        )

    @tool
    async def boot(
        agent: str = "", task_type: str = "", scope: str = "agent", release: str = ""
    ) -> dict[str, Any]:
        """The boot briefing: tasks to skip, work to resume, hints, loops, recent failures, and
        the faults new in your release (default: the server's HINDSIGHT_RELEASE)."""
        return dict(
            await hs.boot(
                agent=agent or None,
                task_type=task_type or None,
                scope=scope,
                release=release or None,
            )
        )


def _add_writes(server: MCPServer, hs: AsyncHindsight) -> None:
    tool = _tool(server)

    @tool
    async def record_failure(
        task: str,
        error: str,
        error_type: str = "unknown",
        agent: str = "",
        task_type: str = "",
        retry_safe: bool | None = None,
        retry_after: int | None = None,
        side_effects: list[str] | None = None,
        recovery_hint: str = "",
        checkpoint: dict[str, Any] | None = None,
        release: str = "",
        model: str = "",
        prompt_version: str = "",
    ) -> dict[str, Any]:
        """Record a failed task; answers its pattern, retry advice, matching lessons, the
        event_id it was recorded under, and new_in: the release, model or prompt version you
        run in which this fault is new (then it likely comes from that change). release, model
        and prompt_version default to the server's HINDSIGHT_RELEASE, HINDSIGHT_MODEL and
        HINDSIGHT_PROMPT_VERSION."""
        return dict(
            await hs.record_failure(
                task,
                error,
                agent=agent or None,
                error_type=error_type,
                task_type=task_type or None,
                retry_safe=retry_safe,
                retry_after=retry_after,
                side_effects=side_effects,
                recovery_hint=recovery_hint or None,
                checkpoint=checkpoint,
                release=release or None,
                model=model or None,
                prompt_version=prompt_version or None,
            )
        )

    @tool
    async def record_lesson(
        error_pattern: str,
        error_type: str,
        resolution: str,
        error_message: str = "",
        error_messages: list[str] | None = None,
        skill_name: str = "",
    ) -> dict[str, Any]:
        """Record what fixed an error (unverified until a human approves it); error_message and
        up to ten error_messages (other wordings of the same fault) link it to their patterns."""
        return dict(
            await hs.record_lesson(
                error_pattern,
                error_type,
                resolution,
                error_message=error_message or None,
                error_messages=error_messages or None,
                skill_name=skill_name or None,
            )
        )


def _add_outcome(server: MCPServer, hs: AsyncHindsight) -> None:
    tool = _tool(server)

    @tool
    async def record_outcome(
        task_id: str,
        task_type: str,
        outcome: Literal["success", "failure"],
        agent: str = "",
        context: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        duration_ms: int | None = None,
        occurred_at: str = "",
        applied_lesson: str = "",
        event_id: str = "",
        release: str = "",
        model: str = "",
        prompt_version: str = "",
    ) -> dict[str, Any]:
        """Record how a task ended. A success closes the task's open failures (task_id is the
        task given to record_failure); a failure whose context has an error_message (and an
        error_type) is recorded as a failure too. context is what you knew, result what you
        did; occurred_at is ISO 8601, now by default; applied_lesson is the id of a lesson you
        applied, and the outcome says whether it worked. Sending the same event_id again
        records nothing new. release, model and prompt_version say what you run (defaults:
        the server's HINDSIGHT_RELEASE, HINDSIGHT_MODEL, HINDSIGHT_PROMPT_VERSION)."""
        return dict(
            await hs.record_outcome(
                task_id,
                task_type,
                outcome,
                agent=agent or None,
                context=context,
                result=result,
                duration_ms=duration_ms,
                occurred_at=occurred_at or None,
                applied_lesson=applied_lesson or None,
                event_id=event_id or None,
                release=release or None,
                model=model or None,
                prompt_version=prompt_version or None,
            )
        )


def main() -> None:
    """Serve the tools over stdio."""
    build_server().run()


if __name__ == "__main__":
    main()
