"""The asynchronous client, ``AsyncHindsight`` (same operations, awaited)."""

from __future__ import annotations

import logging
import os

import httpx

from . import _core
from ._core import Call
from ._ops import Operations
from .errors import HindsightError, Unavailable
from .spool import Spool

log = logging.getLogger("hindsight_client")


class AsyncHindsight(Operations):
    """The asynchronous twin of ``Hindsight``: every operation is awaited, with the same
    answers, spool and errors. Spool file access is local and brief, so it is done inline.

    Reads (check_known_errors, boot, history) answer ``available=False`` with empty content when
    the service cannot be reached, or raise ``Unavailable`` with ``strict=True``. Writes always
    carry an event id; when the service cannot be reached they are spooled and answer
    ``spooled=True``, then sent in order before the next write, after the next successful read,
    or on ``flush()``. Error answers (400, 401, 403, 404, 409, 5xx) raise ``HindsightError``s.

    ``release``, ``model`` and ``prompt_version`` (else HINDSIGHT_RELEASE, HINDSIGHT_MODEL,
    HINDSIGHT_PROMPT_VERSION) say what the agent runs: every outcome and failure carries them
    unless its call passes its own, and boot sends the release.
    """

    def __init__(
        self,
        url: str | None = None,
        api_key: str | None = None,
        *,
        agent: str | None = None,
        release: str | None = None,
        model: str | None = None,
        prompt_version: str | None = None,
        spool_dir: str | os.PathLike | None = None,
        connect_timeout: float = 1.0,
        read_timeout: float = 3.0,
        strict: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self._settings = _core.settings_resolve(
            url,
            api_key,
            agent,
            connect_timeout,
            read_timeout,
            strict,
            release=release,
            model=model,
            prompt_version=prompt_version,
        )
        self._http = httpx.AsyncClient(
            base_url=self._settings.base_url,
            transport=transport,
            headers=_core.headers(self._settings),
            timeout=self._settings.timeout,
        )
        self.spool = Spool(spool_dir, self._settings.base_url)

    async def flush(self) -> int:
        """Send the spooled writes in order; return how many the service took."""
        with self.spool.flushing() as mine:
            if not mine:
                return 0  # another process is flushing this spool right now
            return await self._send_entries(self.spool.pending())

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncHindsight:
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.aclose()

    async def _send(self, call: Call) -> dict:
        try:
            response = await self._http.request(
                call.method, call.path, params=call.params, json=call.body
            )
        except httpx.HTTPError as exc:
            raise _core.unavailable(exc) from exc
        return _core.answer(response)

    async def _read(self, call: Call) -> dict:
        try:
            found = await self._send(call)
        except Unavailable as exc:
            if self._settings.strict:
                raise
            log.info("hindsight: %s unavailable, answering empty: %s", call.path, exc)
            return _core.read_fallback(call)
        try:
            await self._drained()  # the service is back: deliver what waited
        except OSError as exc:
            log.error("hindsight: spool %s unusable: %s", self.spool.path, exc)
        return {**found, "available": True}

    async def _write(self, call: Call) -> dict:
        # Spooled writes go first, so a direct send never overtakes them.
        if await self._drained():
            try:
                return _core.written(call, await self._send(call))
            except Unavailable as exc:
                log.warning("hindsight: %s unavailable, spooling: %s", call.path, exc)
        try:
            self.spool.append(call.method, call.path, _core.write_body(call))
        except OSError as exc:
            raise Unavailable(f"Hindsight unreachable and the spool unusable: {exc}") from exc
        return _core.spooled(call)

    async def _drained(self) -> bool:
        """Whether nothing is spooled, after trying to flush if something is."""
        if not self.spool.is_empty():
            await self.flush()
        return self.spool.is_empty()

    async def _send_entries(self, entries: list[dict]) -> int:
        done: set[str] = set()
        sent = 0
        try:
            for entry in entries:
                try:
                    await self._send(_core.entry_call(entry))
                    sent += 1
                except HindsightError as exc:
                    if _core.stops_flush(exc):
                        break
                    self.spool.bury(entry, str(exc))
                done.add(entry["event_id"])
        finally:
            # Removed only after the loop: a crash before this resends, which the event id makes
            # a no-op on the server.
            self.spool.remove(done)
        return sent
