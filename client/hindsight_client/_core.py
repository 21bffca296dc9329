"""What the sync and async clients share: configuration, the request for each operation, and how
an answer or a transport error becomes a result or an exception. No I/O happens here."""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import httpx

from .errors import Forbidden, Unauthorized, Unavailable, error_for
from .types import EMPTY_CHECK, empty_boot, empty_history

API = "/api/v1"


def _version() -> str:
    """The installed distribution's version, which client/pyproject.toml alone states."""
    try:
        return metadata.version("hindsight-client")
    except metadata.PackageNotFoundError:  # imported from a source tree never installed
        return "0+unknown"


VERSION = _version()


@dataclass(frozen=True)
class Call:
    """One request: a read has a stand-in answer for when the service is away; a write has none."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    body: dict[str, Any] | None = None
    fallback: dict[str, Any] | None = None


@dataclass(frozen=True)
class Settings:
    """Where the service is, who is asking, and how long to wait."""

    base_url: str
    api_key: str | None
    agent: str | None
    timeout: httpx.Timeout
    strict: bool
    # What the agent runs, sent with every outcome and failure (and the release with boot).
    release: str | None = None
    model: str | None = None
    prompt_version: str | None = None


def settings_resolve(
    url: str | None,
    api_key: str | None,
    agent: str | None,
    connect_timeout: float,
    read_timeout: float,
    strict: bool,
    *,
    release: str | None = None,
    model: str | None = None,
    prompt_version: str | None = None,
) -> Settings:
    """Arguments first, then HINDSIGHT_URL / HINDSIGHT_API_KEY / HINDSIGHT_AGENT /
    HINDSIGHT_RELEASE / HINDSIGHT_MODEL / HINDSIGHT_PROMPT_VERSION."""
    base_url = url or os.environ.get("HINDSIGHT_URL") or "http://127.0.0.1:8000"
    # Short by default: an agent waiting on its memory is worse than one without it.
    timeout = httpx.Timeout(read_timeout, connect=connect_timeout)
    return Settings(
        base_url=base_url.rstrip("/"),
        api_key=api_key or os.environ.get("HINDSIGHT_API_KEY"),
        agent=agent or os.environ.get("HINDSIGHT_AGENT"),
        timeout=timeout,
        strict=strict,
        release=version_named(release) or version_named(os.environ.get("HINDSIGHT_RELEASE")),
        model=version_named(model) or version_named(os.environ.get("HINDSIGHT_MODEL")),
        prompt_version=version_named(prompt_version)
        or version_named(os.environ.get("HINDSIGHT_PROMPT_VERSION")),
    )


def version_named(value: str | None) -> str | None:
    """A release, model or prompt version as sent: None when blank (an environment variable
    set to nothing, as a deployment template leaves it), so it is left out of the body rather
    than sent empty, which the failures endpoint refuses as it refuses any blank name."""
    value = (value or "").strip()
    return value or None


def headers(settings: Settings) -> dict[str, str]:
    """Authorization and content headers for every request."""
    found = {"Accept": "application/json", "User-Agent": f"hindsight-client/{VERSION}"}
    if settings.api_key:
        found["Authorization"] = f"Bearer {settings.api_key}"
    return found


def answer(response: httpx.Response) -> dict:
    """The JSON of a 2xx answer, or the matching exception for any other."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code >= 400:
        raise error_for(response.status_code, body)
    return body if isinstance(body, dict) else {}


def unavailable(exc: httpx.HTTPError) -> Unavailable:
    """A transport failure (refused, reset, timed out) as the client's exception."""
    return Unavailable(f"Hindsight unreachable: {type(exc).__name__}: {exc}")


def with_event_id(body: dict) -> dict:
    """The body with an event id, so that resending it is a no-op on the server."""
    event_id = body.get("event_id") or event_id_new()
    return {**body, "event_id": str(event_id)}


def event_id_new() -> uuid.UUID:
    """A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, then 74 random
    bits. Ids made close in time sit close together in the server's unique index on event ids,
    so recording touches a few recent index pages instead of a random page per event."""
    millis = time.time_ns() // 1_000_000
    value = (millis & (1 << 48) - 1) << 80 | int.from_bytes(os.urandom(10), "big")
    value = value & ~(0xF << 76) | 0x7 << 76  # version 7
    value = value & ~(0x3 << 62) | 0x2 << 62  # the RFC 4122/9562 variant
    return uuid.UUID(int=value)


def compact(**values: Any) -> dict[str, Any]:
    """Drop the arguments left unset, so the server applies its own defaults."""
    return {name: value for name, value in values.items() if value is not None}


def check_call(
    *, error_type: str | None, error_message: str | None, skill_name: str | None, limit: int
) -> Call:
    """POST lessons/check: a read whose query travels in the body, so the error message stays
    out of URLs and the access logs that record them."""
    body = compact(
        error_type=error_type, error_message=error_message, skill_name=skill_name, limit=limit
    )
    return Call("POST", f"{API}/lessons/check", body=body, fallback=dict(EMPTY_CHECK))


def boot_call(
    *,
    agent: str,
    task_type: str | None,
    scope: str | None,
    window_hours: int | None,
    skip_after: int | None,
    release: str | None = None,
) -> Call:
    """GET boot."""
    params = compact(
        agent=agent,
        task_type=task_type,
        scope=scope,
        window_hours=window_hours,
        skip_after=skip_after,
        release=release,
    )
    return Call("GET", f"{API}/boot", params=params, fallback=dict(empty_boot(agent)))


def history_call(
    *,
    agent: str,
    task_type: str | None,
    task_id: str | None,
    files: list[str] | None,
    error_type: str | None,
    error_message: str | None,
    budget_tokens: int | None,
) -> Call:
    """GET outcomes/history."""
    params = compact(
        agent=agent,
        task_type=task_type,
        task_id=task_id,
        files=",".join(files) if files else None,
        error_type=error_type,
        error_message=error_message,
        budget_tokens=budget_tokens,
    )
    return Call("GET", f"{API}/outcomes/history", params=params, fallback=dict(empty_history()))


def write_call(path: str, body: dict) -> Call:
    """A POST with an event id."""
    return Call("POST", f"{API}/{path}", body=with_event_id(body))


def write_body(call: Call) -> dict[str, Any]:
    """A write's body: write_call always makes one, carrying the event id."""
    assert call.body is not None, f"{call.method} {call.path} is not a write"
    return call.body


def read_fallback(call: Call) -> dict[str, Any]:
    """A read's stand-in answer: check_call, boot_call and history_call each make one."""
    assert call.fallback is not None, f"{call.method} {call.path} is not a read"
    return call.fallback


def written(call: Call, found: dict) -> dict:
    """What a write answers when the service took it: the service's answer with the event id
    the write was sent with, as a spooled answer has it, so either can be resent by that id."""
    return {**found, "event_id": write_body(call)["event_id"], "spooled": False}


def spooled(call: Call) -> dict:
    """What a write answers when it was kept for later."""
    return {"event_id": write_body(call)["event_id"], "spooled": True}


def stops_flush(exc: Exception) -> bool:
    """Whether a failed resend should stop the flush (try again later) rather than drop the
    entry: the service is away, or the key is wrong, neither of which the entry is to blame for.
    A 403 that names a field (a key bound to other agents) refuses this entry alone."""
    if isinstance(exc, Forbidden) and exc.fields:
        return False
    return isinstance(exc, (Unavailable, Unauthorized, Forbidden))


def entry_call(entry: dict) -> Call:
    """The request a spooled entry stands for."""
    return Call(entry["method"], entry["path"], body=entry["body"])
