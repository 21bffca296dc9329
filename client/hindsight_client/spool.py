"""The local spool: writes the service could not take, kept on disk and sent later in order.

Format: one JSON object per line, ``{"v": 1, "event_id", "method", "path", "body", "queued_at"}``,
in the order the writes were made; the API key is never written to disk. Every change happens
under an exclusive ``flock`` on a sibling ``.lock`` file, so two processes of one agent can
append and flush at once without interleaving lines. A second, non-blocking lock lets one process
flush at a time, so entries go out in file order. An entry whose event id is already spooled is
not added again; one sent twice (a crash between sending and removing it) is a no-op on the
server, which answers a replayed event id as the first time. Entries the server refuses for good
(400, 404, 409, a 403 naming a field, other 5xx) move to ``.dead.jsonl`` so they cannot block
the queue.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

log = logging.getLogger("hindsight_client")

DEFAULT_DIR = Path("~/.cache/hindsight/spool")


def spool_dir(directory: str | os.PathLike | None) -> Path:
    """The directory: the argument, else HINDSIGHT_SPOOL_DIR, else ~/.cache/hindsight/spool."""
    chosen = directory or os.environ.get("HINDSIGHT_SPOOL_DIR") or DEFAULT_DIR
    return Path(chosen).expanduser()


class Spool:
    """One JSON-lines file of pending writes for one service URL."""

    def __init__(self, directory: str | os.PathLike | None, base_url: str):
        self.directory = spool_dir(directory)
        # One file per service: entries are replayed against the URL they were meant for.
        name = hashlib.sha256(base_url.encode()).hexdigest()[:16]
        self.path = self.directory / f"{name}.jsonl"
        self.dead_path = self.directory / f"{name}.dead.jsonl"
        self._lock_path = self.directory / f"{name}.lock"
        self._flush_lock_path = self.directory / f"{name}.flush.lock"

    def is_empty(self) -> bool:
        """Whether nothing is pending (a stat, cheap enough for every call)."""
        try:
            return self.path.stat().st_size == 0
        except OSError:  # missing, or the directory unusable: nothing can be pending there
            return True

    def append(self, method: str, path: str, body: dict) -> bool:
        """Add a write at the end; False if its event id is already spooled."""
        entry = {
            "v": 1,
            "event_id": body["event_id"],
            "method": method,
            "path": path,
            "body": body,
            "queued_at": datetime.now(UTC).isoformat(),
        }
        with self._locked():
            if any(e["event_id"] == entry["event_id"] for e in self._read()):
                return False
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                out.flush()
                os.fsync(out.fileno())
        return True

    def pending(self) -> list[dict]:
        """Every pending entry, oldest first."""
        with self._locked():
            return self._read()

    def remove(self, event_ids: set[str]) -> None:
        """Drop sent entries, keeping any appended meanwhile."""
        if not event_ids:
            return
        with self._locked():
            kept = [e for e in self._read() if e["event_id"] not in event_ids]
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(
                "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in kept),
                encoding="utf-8",
            )
            os.replace(temporary, self.path)

    def bury(self, entry: dict, reason: str) -> None:
        """Keep an entry the server refused for good, with why, out of the queue."""
        log.warning(
            "hindsight: dropping spooled %s %s (%s): %s",
            entry["method"],
            entry["path"],
            entry["event_id"],
            reason,
        )
        with self._locked(), self.dead_path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({**entry, "reason": reason}, separators=(",", ":")) + "\n")

    @contextlib.contextmanager
    def flushing(self) -> Iterator[bool]:
        """Yield True if this process may flush now, False if another one is flushing."""
        self.directory.mkdir(parents=True, exist_ok=True)
        with self._flush_lock_path.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        # A fresh open file per use: flock then also excludes other threads of this process.
        self.directory.mkdir(parents=True, exist_ok=True)
        with self._lock_path.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _read(self) -> list[dict]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        entries = []
        for line in lines:
            try:
                entries.append(json.loads(line))
            except ValueError:
                # Only a crash in the middle of a write leaves a cut line; it was never sent.
                log.warning("hindsight: skipping an unreadable spool line in %s", self.path)
        return entries
