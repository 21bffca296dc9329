"""The scrubber over a corpus of secret formats and look-alikes (tests/failures/scrub_corpus.py).

Prints how many formats it catches and how many look-alikes it touches, and holds the targets:
at least 95% of at least 60 formats caught, at most 1 false positive among at least 30
look-alikes.  A format is caught when no piece of its secret is left; the text around it must
then come back as it was, and the secret's place hold only markers (and, for an id written
beside its secret, the separator between them).
"""

from __future__ import annotations

import re

from config.scrubbing import scrub_text
from tests.failures.scrub_corpus import FORMATS, LOOKALIKES

# What may stand where a secret was: markers, and the quotes, commas and blanks between an id
# and its secret when both are redacted ("[REDACTED:a]', '[REDACTED:b]").
_REDACTED_SPAN = re.compile(r"(?:\[REDACTED:[a-z0-9_]+\]|[\s'\",:;|])*\[REDACTED:[a-z0-9_]+\][\s'\",:;|]*")
# Pieces of a secret that must not survive: runs of 6+ characters of its alphabet.
_PIECE = re.compile(r"[A-Za-z0-9+/_\-.~%]{6,}")

# Formats this scrubber is known to miss, and why (kept so the figure stays honest).
KNOWN_MISSES = {
    # "-p" is a port, a path or a parent flag as often as a password.
    "short_flag_password",
}


def _caught(before: str, secret: str, after: str, out: str) -> bool:
    """No piece of the secret is left in ``out`` (pieces also found around it do not count)."""
    around = before + after
    return not any(piece in out for piece in _PIECE.findall(secret) if piece not in around)


def _kept(before: str, after: str, out: str) -> bool:
    """``out`` is ``before`` + markers + ``after``."""
    if not (out.startswith(before) and out.endswith(after)) or len(out) < len(before) + len(after):
        return False
    return _REDACTED_SPAN.fullmatch(out[len(before):len(out) - len(after)]) is not None


def test_corpus_sizes_and_names() -> None:
    assert len(FORMATS) >= 60
    assert len(LOOKALIKES) >= 30
    assert len({f[0] for f in FORMATS}) == len(FORMATS)
    assert len({name for name, _ in LOOKALIKES}) == len(LOOKALIKES)


def test_formats_caught_and_look_alikes_kept() -> None:
    caught, missed, not_kept = [], [], []
    for name, before, secret, after in FORMATS:
        out = scrub_text(before + secret + after)
        if _caught(before, secret, after, out):
            caught.append(name)
            if not _kept(before, after, out):
                not_kept.append((name, out))
        else:
            missed.append(name)
    touched = [(name, scrub_text(text)) for name, text in LOOKALIKES if scrub_text(text) != text]
    share = 100 * len(caught) / len(FORMATS)
    print(f"\ncaught {len(caught)}/{len(FORMATS)} ({share:.1f}%); missed: {', '.join(missed) or 'none'}")
    print(f"false positives {len(touched)}/{len(LOOKALIKES)}: {touched or 'none'}")
    assert share >= 95
    assert len(touched) <= 1
    assert not_kept == []  # the text around every caught secret survives
    assert set(missed) == KNOWN_MISSES  # a new miss, or a known one now caught, is news


def test_corpus_output_is_idempotent() -> None:
    for _, before, secret, after in FORMATS:
        once = scrub_text(before + secret + after)
        assert scrub_text(once) == once
