"""The history cache's namespaces: one version token per agent, replaced on every new outcome.

An entry is stored under its agent's current token, so a new outcome of that agent makes every
cached history of the agent unreachable at once (they expire unread). A missing token, after an
eviction or a Redis restart, is replaced by a fresh one, never by a reused value, so an old entry
can never come back. With Redis down every read is a miss and the history comes from the database.
"""
import hashlib
import uuid

from django.core.cache import cache

# Longer than any entry lives, so a token outlives the entries filed under it.
VERSION_TIMEOUT = 7 * 24 * 3600


def _version_key(agent: str) -> str:
    return "outcomes:history:version:" + hashlib.blake2b(agent.encode(), digest_size=12).hexdigest()


def history_version(agent: str) -> str | None:
    """The agent's current namespace token (made on first use); None when the cache is down,
    and then nothing may be read from or written to it for this request."""
    key = _version_key(agent)
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex, VERSION_TIMEOUT)
        token = cache.get(key)
    return token


def history_invalidate(agents) -> None:
    """Drop the cached histories of these agents (after their new outcomes committed)."""
    if agents:
        cache.set_many({_version_key(agent): uuid.uuid4().hex for agent in agents},
                       VERSION_TIMEOUT)
