"""What a scrubbing rule is, the marker it leaves, and the character classes rules share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# Every marker starts with this, so rules can recognise text that is already
# scrubbed and leave it alone (which makes scrubbing idempotent).
MARKER_PREFIX = "[REDACTED:"


def marker(kind: str) -> str:
    """The text that replaces a secret of ``kind``."""
    return f"{MARKER_PREFIX}{kind}]"


# accept(match, text) returns the marker kind to use, or None to leave the
# match alone.  The default accepts with the rule's own name.
Accept = Callable[["re.Match[str]", str], "str | None"]


@dataclass(frozen=True)
class Rule:
    """One kind of secret.

    ``regex`` must contain a group named ``secret`` (or several named
    ``secret...`` of which exactly one participates): only that span is
    replaced, the rest of the match (key names, schemes, user names, hosts)
    is kept.  ``triggers`` are lowercase substrings, at least one of which
    must occur in the text for the regex to be worth running.

    ``anchored=True`` (the default) means every match *starts* with one of
    the triggers (case-insensitively).  The regex is then only tried, with
    ``regex.match``, at the positions where a trigger occurs, instead of
    being searched across the whole text.  This matters for rules whose
    pattern begins with a case-insensitive word alternation or a
    lookbehind: Python's ``re`` cannot skip ahead for those and would try
    every position.  ``anchored=False`` searches the whole text with
    ``regex.sub``; the triggers are then only a pre-check.

    A format whose only literal is short and common in lowercase text
    (Twilio's ``AC`` + hex: "ac" is in every other word) has no ``triggers``
    but ``exact_triggers``: case-sensitive substrings, checked with ``in``;
    when one occurs, the rule is searched (``anchored=False``).  Such a
    rule gives ``min_length``, the length of its shortest match, so that
    shorter text (most JSON values) skips the check.
    """

    name: str
    regex: re.Pattern[str]
    triggers: tuple[str, ...]
    accept: Accept | None = None
    anchored: bool = True
    exact_triggers: tuple[str, ...] = ()
    min_length: int = 0

    def __post_init__(self) -> None:
        if not self.triggers and (self.anchored or not self.exact_triggers):
            raise ValueError(
                f"rule {self.name}: without triggers, give exact_triggers, not anchored"
            )

    def secret_groups(self) -> tuple[int, ...]:
        return tuple(
            idx for gname, idx in self.regex.groupindex.items() if gname.startswith("secret")
        )


# Characters of base64url, which most modern API tokens are drawn from.
B64URL = r"A-Za-z0-9_\-"

# Lookbehind for a token with a short or common prefix: not glued to a letter or digit
# ("mask_live_", "ssl."), except where that letter or digit ends an escape that stands for a
# separator: "%3D" / "%22" (URL-encoded "=" or quote), "\u0022" and "\x22" (escaped in JSON or
# in a language's string).  A hyphen or underscore before it is fine ("deploy-ghp_...").
GLUE_BEFORE = (
    r"(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2})|(?<=\\u[0-9A-Fa-f]{4})"
    r"|(?<=\\x[0-9A-Fa-f]{2}))"
)
