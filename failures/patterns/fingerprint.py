"""Fingerprint of a template: a short, stable digest, the key a pattern is stored under."""

from functools import lru_cache
from hashlib import blake2b

# 8 bytes = 16 hex characters: a collision needs ~4 billion distinct templates (birthday
# bound), far beyond what one service stores, and the key stays short in URLs and indexes.
DIGEST_BYTES = 8


@lru_cache(maxsize=1 << 16)
def fingerprint_of(template: str) -> str:
    """Stable hex digest of a template (independent of process, platform and version)."""
    return blake2b(template.encode("utf-8"), digest_size=DIGEST_BYTES).hexdigest()
