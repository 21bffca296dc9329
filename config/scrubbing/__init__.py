"""Secret scrubbing for everything Hindsight stores.

Agents post error messages, context JSON, resolutions and code snippets; all
of it is later shown to other agents and humans.  Anything that looks like a
credential is therefore replaced *before* storage by a marker naming what it
was, e.g. ``[REDACTED:openai_key]``, while the surrounding text is kept so the
failure stays debuggable.

Public API
----------
``scrub_text(text) -> str``
    Normalise one string (``normalise``: terminal escapes and invisible characters removed),
    then replace the secrets inside it.
``scrub_value(value)``
    Return a scrubbed deep copy of JSON-like data (dict / list / str / int /
    float / bool / None).  Strings go through ``scrub_text``; in addition a
    dict entry whose *key* names a secret (``password``, ``api_key``,
    ``Authorization`` ...) has its string value replaced entirely.

Layout: ``normalise`` (what is removed before scrubbing), ``rule`` (what
a rule is), ``tokens`` (secrets with their own shape: PEM blocks, the
common provider prefixes), ``providers`` (the table of further provider
prefixes), ``context`` (secrets known by where they stand: URLs, headers,
flags, ``key=value``), ``commands`` (passwords known by the command or file
format they are written in), ``keys`` (which keys name a secret, and which
values are plainly none), ``engine`` (the scan), ``walk`` (JSON-like values).

This package is pure Python (no Django) and sits on the write hot path, so:

* the rules are data (``RULES``): named, commented regexes compiled once at
  import time;
* every rule lists lowercase *trigger* substrings.  One regex pass over the
  lowercased text (the triggers compiled into a trie) finds them all; text
  without any trigger (and without a match of the few trigger-less rules,
  which are searched in C) is returned right there, and each rule's regex
  is then only tried at the positions where one of its triggers starts;
* worst-case work is linear in the text length: no rule can fail after a
  long scan that covers another of its own trigger positions (see the
  comments on the rules and ``engine._apply_at``);
* scrubbing is idempotent: markers are never matched as secrets.

Design decisions
----------------
* Stripe publishable keys (``pk_live_`` / ``pk_test_``) are NOT redacted:
  Stripe designs them to be embedded in public web pages, so they are not
  secret, and keeping them helps debugging ("wrong account's key").
* Twilio account / API-key SIDs (``AC...`` / ``SK...`` + 32 hex) are
  identifiers and are kept.  The auth token (32 hex) and API key secret
  look like any MD5 hash, so they are caught when labelled
  (``auth_token=...``) or written right after their SID
  (``Client("AC...", "...")``, ``-u AC...:...``); a lone 32-hex string is kept.
* Likewise an AWS secret access key (40 base64 characters, no prefix) is
  caught when labelled or written right after its ``AKIA...`` id, and kept
  when it stands alone.  A Telegram bot token keeps its bot id (a public
  user id) and loses what follows the colon.
* Secret-naming keys are judged on their *last* word (or last two words
  joined, for ``api_key`` / ``private_key`` / ``AccountKey`` style keys, or
  three for a service account's ``private_key_id``; a key written as one word,
  ``secretkey`` or ``PGPASSWORD``, on the secret word it ends with).  So
  ``access_token``, ``db_password`` and ``X-Api-Key`` are *strong*: their
  value is redacted whatever it is (placeholders aside).  A key that only
  contains a secret-like part (``secret``, ``token``, ``pass``, ``pwd``,
  ``key``), such as ``password_policy`` or ``cache_key``, is *weak*: its value
  is redacted unless it is plainly no credential (a number, a boolean, words,
  a path, a URL, a placeholder, a public SSH key).  A key whose last word says
  what it is about (``token_count``, ``password_reset_url``, ``secret_name``,
  ``key_id``, ``KeyError``) names no secret at all.  Credentials that sit
  *inside* such a value (``https://u:p@host``, ``?token=...``) are still
  caught by the text rules.
* ``pwd`` / ``PWD`` whose value is an absolute path is the shell's working
  directory variable (very common in environment dumps), not a password.
* A bare ``key: word`` in the middle of a line (``Invalid token: expired``)
  or followed by more words (``cookie: invalid format``) reads as prose, so a
  single all-letter word there is kept.  ``key=value``, quoted values, JSON,
  values with digits or symbols, and ``key: word`` alone at the start of a
  line (YAML, HTTP headers) are always redacted.
* Command-line flags that name a secret are recognised with ``=`` and with
  a space (``--password hunter2``, ``--client-secret '...'``).  After a
  space, an all-capitals word (``--password PASSWORD``, an argparse
  metavar, or a password written in capitals without digits), a
  ``$VARIABLE`` and a small set of prose words (``--password to ...``) are
  kept.  Short flags are recognised only for the tools whose short flag
  takes the password (``mysql -p``, ``docker login -p``, ``redis-cli -a``,
  ``sqlcmd -P``...): elsewhere ``-p`` means a port or a path as often.
* ``key%3Dvalue`` (a query string URL-encoded inside another) counts as
  ``key=value``; the value ends at an encoded ``&`` (``%26``).
* Unquoted values end at whitespace, ``,``, ``;``, a bracket, or an ``&``
  that starts the next ``name=`` query parameter, so a password that itself
  contains such characters is only redacted up to them when it is written
  unquoted.
* A PEM private key block without an END line (truncated logs) is redacted
  to the end of the text: we cannot tell where the key material stops, and
  leaking half a private key is worse than losing trailing log lines.
"""

from .engine import RULES, scrub_text
from .keys import secret_key_kind
from .normalise import normalise
from .rule import Rule
from .walk import scrub_value

__all__ = [
    "RULES",
    "Rule",
    "normalise",
    "scrub_text",
    "scrub_value",
    "scrubbed",
    "secret_key_kind",
]


def scrubbed(text: str, max_length: int | None = None) -> str:
    """``text`` with secrets replaced by markers, cut to ``max_length``: a marker may be longer
    than what it hides, and the limit is the column's. The one rule for every agent-sent
    string; a name used as a lookup key goes through it on write and on read alike."""
    text = scrub_text(text)
    return text[:max_length] if max_length else text
