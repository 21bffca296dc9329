"""Making and checking API keys, and matching the agents a key is bound to: pure helpers with no
database access."""

import hashlib
import secrets

# Every key starts with this, so a leaked key is recognisable in logs and by secret scanners.
KEY_PREFIX = "hsk_"
# 32 random bytes = 256 bits, url-safe base64 encoded (43 characters).
KEY_BYTES = 32
# How much of the key the admin shows: the fixed prefix plus 8 random characters.
SHOWN_CHARS = len(KEY_PREFIX) + 8


def key_generate() -> str:
    """Return a new raw key."""
    return KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)


def key_digest(raw: str) -> str:
    """Return the hex SHA-256 of a raw key, the only form stored."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()
