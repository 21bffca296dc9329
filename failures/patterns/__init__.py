"""The pattern engine: error/log messages -> templates -> patterns. Pure Python, no Django.

* :func:`template_of` masks the variable parts of one message (``<*>``), see :mod:`.rules`.
* :func:`fingerprint_of` digests a template into a short stable key (16 hex characters).
* :class:`PatternGrouper` groups templates that differ only in variable positions, online,
  with ``resolve`` (union-find) and ``pattern_template``; see :mod:`.grouper`.
* :func:`group_messages` does all three for a batch.

One configuration for all inputs: no per-source rules or settings. Decisions worth knowing:

* HTTP status codes stay literal after ``HTTP``/``status``/``code`` (``HTTP 404``,
  ``status code 403``, ``Error code: 429``) or before their reason phrase (``404 Not
  Found``). A bare ``status: 200`` / ``status=404`` *field* is masked like the other fields
  of an access-log line (known-wrong case in the tests).
* A plain word is only made variable by the grouper, from evidence across templates (four
  different words in one slot, or words already seen as values). Outcome words (refused,
  reset, timed out, denied...), quoted tokens, tokens with digits and pytest ids never are.
* A letter-only token that reads as random (mixed case, letter pairs words do not make:
  ``req_AbCdEfGhIjKlMnOp``) is an id that happens to hold no digit, and is masked like one;
  CamelCase names, snake_case and ALL_CAPS names stay words (see :mod:`.letters`).
* Dates are values whole, weekday and month included: RFC 1123 / 2822
  (``Wed, 12 Nov 2026 07:01:22 GMT``), syslog / ctime and ISO 8601.
"""

from .batch import group_messages
from .fingerprint import fingerprint_of
from .grouper import PatternGrouper
from .normalise import template_of
from .rules import HTTP_STATUS, WILDCARD
from .tokens import kin_key

__all__ = [
    "HTTP_STATUS",
    "WILDCARD",
    "PatternGrouper",
    "fingerprint_of",
    "group_messages",
    "kin_key",
    "template_of",
]
