"""Token-level helpers for grouping templates: which tokens may be generalised, and how.

A template is split on single spaces (``template_of`` leaves exactly one between tokens);
a line break is its own token, so multi-line templates only match line for line.

A literal token may be absorbed into a variable position only when it is a plain word.
Tokens that survived normalisation *with* a digit (``404``, ``eth0``), quoted tokens
(``"users_email_key"``, ``'user_id'``) and pytest node ids (``::``) were kept literal on
purpose by the normaliser: they name the failure and are never generalised. A quoted word may
still be covered by a variable in the same quotes (``"<*>"``), which only the normaliser
leaves, for a quoted host, path or name with digits: that position holds a value.
"""

import re
from functools import lru_cache

from .rules import WILDCARD

NEWLINE = "\n"

# A plain word, possibly wrapped in punctuation: ``root``, ``(eadmin)``, ``WindowsUpdate.``,
# ``com.apple.job:``. Group 2 is the word, groups 1 and 3 the punctuation kept around it.
_WORD = re.compile(r"([(\[{]*)([A-Za-z_][\w.\-]*?)([)\]}.,:;!?]*)")
# Anything that marks a token as deliberately literal (see the module docstring): quotes,
# ``::`` and digits, except in the short ``letters+digit`` names (``eth0``, ``test1``) the
# normaliser keeps because they *may* be names: those may still fill a variable position.
_PROTECTED = re.compile(r"['\"`]|::|^(?![(\[{]*[A-Za-z]{2,5}\d[)\]}.,:;!?]*$).*\d")
# A quoted word (``"postgres"``, ``'localhost'``) is kept literal too, yet a variable that
# keeps the same quotes may stand for it: ``"<*>"`` is what the normaliser leaves of a quoted
# host, path or name with digits, so the position is known to hold a value.
_QUOTED_WORD = re.compile(r"""[(\[{]*(["'])[A-Za-z][\w.\-]*\1[)\]}.,:;!?]*""")

# Words that state the outcome of an operation. They *are* the fault (refused vs reset vs
# timed out), so they are never absorbed into a variable however many of them share a slot.
# General error vocabulary (POSIX/socket/HTTP wording), not taken from any data set.
OUTCOME_WORDS = frozenset(
    [
        "aborted",
        "abort",
        "canceled",
        "cancelled",
        "closed",
        "corrupt",
        "corrupted",
        "declined",
        "denied",
        "disconnected",
        "dropped",
        "error",
        "errors",
        "exceeded",
        "exhausted",
        "expired",
        "fail",
        "failed",
        "failure",
        "fatal",
        "forbidden",
        "full",
        "hung",
        "interrupted",
        "invalid",
        "killed",
        "locked",
        "lost",
        "missing",
        "refused",
        "rejected",
        "reset",
        "revoked",
        "terminated",
        "timeout",
        "timedout",
        "timed",
        "unauthorized",
        "unavailable",
        "unknown",
        "unreachable",
        "unsupported",
        "violated",
        "violation",
    ]
)


# A token in quotes, whatever it holds (``"users_email_key"``, ``'app'@'<*>'``, ``"<*>"``),
# with the punctuation around it.
_QUOTED_TOKEN = re.compile(r"""([(\[{]*)(["'`]).*\2([)\]}.,:;!?]*)""")


def split(template: str) -> tuple[str, ...]:
    return tuple(template.replace(NEWLINE, " \n ").split(" "))


def join(tokens) -> str:
    return " ".join(tokens).replace(" \n ", NEWLINE)


def is_variable(token: str) -> bool:
    return WILDCARD in token


@lru_cache(maxsize=1 << 14)
def generalised(token: str) -> str | None:
    """``(root)`` -> ``(<*>)``; ``None`` when the token must stay literal."""
    if _PROTECTED.search(token):
        return None
    match = _WORD.fullmatch(token)
    if match is None or match.group(2).lower() in OUTCOME_WORDS:
        return None
    return match.group(1) + WILDCARD + match.group(3)


@lru_cache(maxsize=1 << 14)
def _glob(token: str):
    # A variable stands for at least one character: ``rhost=`` (empty) is not ``rhost=<*>``.
    parts = (re.escape(part) for part in token.split(WILDCARD))
    return re.compile(".+?".join(parts), re.DOTALL)


# Pure, and asked again and again for the same pairs while a new template is compared with
# every pattern of its length; 2**16 pairs bound the memory to a few MB.
@lru_cache(maxsize=1 << 16)
def covers(variable: str, literal: str) -> bool:
    """True when the variable token ``variable`` may stand for the literal token."""
    if NEWLINE in (variable, literal):
        return False
    if _PROTECTED.search(literal) and not (
        _QUOTED_WORD.fullmatch(literal) and ("'" in variable or '"' in variable)
    ):
        return False
    if literal.strip("()[]{}.,:;!?'\"").lower() in OUTCOME_WORDS:
        return False
    return _glob(variable).fullmatch(literal) is not None


def compatible(a, b) -> bool:
    """Same length and, position by position, equal or one side a variable covering the other.

    Two variables are compatible when one's shape covers the other (``<*>`` covers
    ``(uid=<*>)``, but ``(uid=<*>)`` and ``LOGIN(uid=<*>)`` are different shapes).
    """
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        vx, vy = WILDCARD in x, WILDCARD in y  # is_variable, inlined: this loop is hot
        if not ((vx and covers(x, y)) or (vy and covers(y, x))):
            return False
    return True


def context(tokens, skip: int = -1) -> int:
    """How many literal words (not variables, not line breaks) anchor the template."""
    return sum(
        1 for i, t in enumerate(tokens) if i != skip and t != NEWLINE and not is_variable(t)
    )


def merge(a, b) -> tuple[str, ...]:
    """Position-wise union of two compatible token lists: differing positions become variables."""
    out = []
    for x, y in zip(a, b, strict=True):
        if x == y or (is_variable(x) and not is_variable(y)):
            out.append(x)
        elif is_variable(y) and not is_variable(x):
            out.append(y)
        elif is_variable(x) or is_variable(y):
            out.append(WILDCARD)
        else:
            shape = generalised(x)
            out.append(shape if shape and shape == generalised(y) else WILDCARD)
    return tuple(out)


def kin_key(template: str) -> str:
    """The template with what each quoted token holds left out: patterns of one wording that
    differ only in what they quote (a constraint, a user, a table) share it. The engine keeps
    quoted names apart, since another name may call for another fix; evidence that one lesson
    worked for several of them adds up across them (lessons.links)."""
    kin = []
    for token in split(template):
        quoted = _QUOTED_TOKEN.fullmatch(token)
        kin.append(quoted.expand(r"\1\2\2\3") if quoted else token)
    return join(tuple(kin))
