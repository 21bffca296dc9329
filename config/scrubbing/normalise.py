"""What is removed from agent text before it is scrubbed: terminal escape sequences and the
characters a reader never sees (controls other than whitespace, bidi marks, zero-width
characters).  Scrubbing runs on the normalised text, and every later step that cleans text
(markdown's ``flatten``, the history answers, the pattern reports) removes nothing more, so no
secret can be split by an invisible character, hidden in an escape sequence, and then joined
again after it was stored.  Pure, no Django."""

from __future__ import annotations

import re

# Terminal escape sequences, removed whole so no parameter text ("[31m") is left behind: CSI
# (ESC [ or the one-byte CSI U+009B, parameters, intermediates, a final byte), OSC (ESC ] up to
# BEL or ESC \, or to the end when unterminated), and the other two-character ESC sequences.
_ANSI = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[ -Z\\-~]"
)
# What hides or reorders text without being whitespace: the C0 and C1 control characters other
# than whitespace (NUL, BEL, a lone ESC, DEL…; tab, line breaks and the separators
# \x1c-\x1f, \x85 stay, a later step folds them to a space, which joins nothing), the bidi
# embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069) and marks (U+200E, U+200F,
# U+061C), and the zero-width space, non-joiner, joiner, word joiner, invisible operators, soft
# hyphen and BOM (U+200B-U+200D, U+2060-U+2064, U+00AD, U+FEFF).
_HIDDEN = re.compile(
    "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u061c\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def normalise(text: str) -> str:
    """``text`` without terminal escapes and invisible characters; whitespace is kept.

    Text with nothing to remove is returned as the same object.  Idempotent: every escape
    starts with ESC or U+009B, which the second pass removes, so no new sequence can form."""
    # Every escape starts with a character of _HIDDEN: one search in C tells whether there is
    # anything to do (most text has none).
    if _HIDDEN.search(text) is None:
        return text
    return _HIDDEN.sub("", _ANSI.sub("", text))
