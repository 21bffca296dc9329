"""Normalisation rules, kept as data: named, commented regexes compiled once into one scanner.

Every rule is ``(name, action, pattern)``. The patterns are joined into a single alternation
(one pass over the message, leftmost match wins; at the same position the earlier rule wins),
so the order of this list is the priority order:

* ``KEEP`` rules come first. They claim spans that look variable but must stay literal because
  an agent has to treat them differently (HTTP status codes, pytest node ids, the key of a
  ``KeyError``). A claimed span is copied unchanged and no later rule can touch it.
* ``MASK`` rules replace the whole span with ``<*>``.
* Other actions name a small handler in :mod:`.scan` that masks part of the span
  (``quoted_value`` keeps the ``key:``; ``host_port`` keeps camelCase property names).

The normaliser's fast path (see :mod:`.normalise`) relies on two properties: a rule that can
match across a blank, or look across one, has its blanks covered by :data:`BRIDGES` (at the
end); and a rule tells one digit from another only inside a span it keeps (``[1-5]`` of
http_status), since templates are cached by digit shape. The tests compare that path with a
whole scan.

Nothing here is specific to one log source: the rules describe general shapes of values
(addresses, ids, times, paths, numbers) in log and error messages.
"""

import re

KEEP, MASK = "keep", "mask"

WILDCARD = "<*>"

# Characters that end a "token" for the digit rule. ':' is included so that ``key:123`` keeps
# its key, '=' so that ``uid=0`` keeps ``uid=``; brackets and quotes so that ``[A8]``/``'7'``
# keep their punctuation. '/', '.', '-', '_', '@' are *not* separators: ``blk_-123``,
# ``node-12``, ``10.0.0.1`` or ``v1.2.3`` are one value each.
_SEP = r"\s=,;:()\[\]{}<>\"'|"
_TOKEN_END = rf"(?![^{_SEP}])"

# Reason phrases of the HTTP status codes that errors most often carry (RFC 9110 wording,
# plus the "Client Error"/"Server Error" phrasing that HTTP client libraries print).
_REASONS = (
    "OK|Created|Accepted|No Content|Moved Permanently|Found|See Other|Not Modified|"
    "Temporary Redirect|Permanent Redirect|Bad Request|Unauthorized|Payment Required|"
    "Forbidden|Not Found|Method Not Allowed|Not Acceptable|Request Timeout|Conflict|Gone|"
    "Precondition Failed|Payload Too Large|Content Too Large|Unsupported Media Type|"
    "Unprocessable Entity|Unprocessable Content|Too Many Requests|Client Error|"
    "Internal Server Error|Server Error|Not Implemented|Bad Gateway|Service Unavailable|"
    "Gateway Timeout"
)

# A run of letters, ``_`` and ``-`` up to a lowercase letter before a capital (letter_id),
# written to scan each character once: capitals and dashes, or lowercase runs that end at a
# dash, then a lowercase run that ends at a capital.
_MIXED_CASE = r"(?:[A-Z_\-]|[a-z]++[_\-])*+[a-z]++[A-Z]"

_UNITS = r"[KMGTP]i?B|B|bytes|ms|us|µs|ns|s|sec|secs|min|mins|h|hrs"

# Day and month names of syslog / ctime timestamps.
_DAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"

# An HTTP status code that stays literal, with what tells it is one: the word before it (HTTP,
# status, code) or its reason phrase after it. The one rule of which codes stay literal: the
# engine keeps them (rule http_status) and lesson matching (lessons.matching) keeps the same.
HTTP_STATUS = (
    r"(?:(?:HTTP(?:/\d(?:\.\d)?)?|(?:[Ss]tatus\s+)?[Cc]ode):?|[Ss]tatus|STATUS)\s+[1-5]\d\d\b"
    rf"(?:\s+(?:{_REASONS})\b)?"
    rf"|[1-5]\d\d\s+(?:{_REASONS})\b"
)

RULES = [
    # Fast path, first because it is the most frequent case: a plain integer ending at a
    # separator (not ':', which times and addresses use) and not followed by a unit, a
    # reason phrase or a month, the only rules it could otherwise start. Same result as
    # ``number``.
    (
        "integer",
        MASK,
        rf"\d++(?=[\s,;()\[\]{{}}<>\"'|=]|$)(?!\s(?:{_UNITS})\b)(?!\s+(?:{_REASONS})\b)"
        rf"(?!\s+(?:{_MONTHS})\b)",
    ),
    # --- KEEP: spans that look like values but carry the meaning of the failure -------------
    # An HTTP status code right after the words HTTP / status / code, or followed by its
    # reason phrase: 401, 403 and 404 are different failures. ``code: 429`` and ``status
    # code: 404`` count; a bare ``status: 200`` / ``status=404`` field is a field value like
    # the others on an access-log line and is masked (see the package docs).
    ("http_status", KEEP, HTTP_STATUS),
    # The protocol version is part of the request line, not a variable.
    ("http_version", KEEP, r"HTTP/\d(?:\.\d)?\b"),
    # A pytest node id (``tests/test_a.py::test_login[case-1]``) names the failing test:
    # two different tests are two different failures, so the whole id stays literal.
    # (The look-ahead is a cheap pre-check: no ``::`` in the token, no attempt.)
    ("pytest_node", KEEP, r"(?=[^\s\"'():]*+::)[^\s\"'()]+\.py::[^\s\"',;]+"),
    # ``KeyError: 'user_id'``: the quoted identifier right after an exception class is the
    # subject of the error (which key, which attribute), not an incidental value.
    (
        "exception_subject",
        KEEP,
        r"(?=[\w.]++:\s*['\"])(?:\w+\.)*[A-Z]\w*(?:Error|Exception|Warning):\s*"
        r"(?:'[\w.\-/]*'|\"[\w.\-/]*\")",
    ),
    # The name of a violated constraint (``unique constraint "users_email_key"``, MySQL's
    # ``for key 'users.email'``), digits included (``"events_2026_pkey"``): which rule the
    # row broke is the fault itself, and a duplicate e-mail is fixed otherwise than a
    # primary key behind its sequence. (``for`` is a plain word the scanner skips, so the
    # rule starts at ``key``.)
    ("constraint_name", KEEP, r"(?:constraint|(?<=for )key) (?:\"[^\"\n]*\"|'[^'\n]*')"),
    # Device and interface names (eth0, sda1, wl0, ssh2, tty2): a short word + one digit
    # names a thing, it is not a counter; two of them are different places. Longer words
    # with a digit (``dadmin2``) are host or user names and stay variable.
    ("device_name", KEEP, rf"[A-Za-z]{{2,5}}\d{_TOKEN_END}"),
    # --- MASK: values with a recognisable shape ----------------------------------------------
    # URLs of any scheme, up to whitespace, a quote or a closing bracket.
    ("url", MASK, r"[A-Za-z][\w+.\-]*+://[^\s\"'<>)\]]*"),
    # E-mail addresses.
    ("email", MASK, r"[\w.+\-]++@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"),
    # UUIDs (8-4-4-4-12 hex digits).
    ("uuid", MASK, r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b"),
    # MAC / EUI addresses and longer colon-separated hex byte strings
    # (before the clock rule: ``00:11:43:e3:ba:c3`` is not a time).
    ("mac", MASK, r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5,}\b"),
    # ISO 8601 dates and timestamps (date, optional time, fraction and zone): one value.
    (
        "iso_time",
        MASK,
        r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
        r"(?:Z|[+-]\d{2}:?\d{2})?)?\b",
    ),
    # Syslog / ctime style timestamps: ``[Fri ]Jun 17 07:07:00[ PDT][ 2005]``, one value;
    # also with the year before the clock, as JavaScript and Java print dates
    # (``Wed Nov 12 2026 07:01:22``, ``Nov 12, 2026 7:01:22 AM``).
    (
        "syslog_time",
        MASK,
        rf"(?:(?:{_DAYS}),?\s+)?"
        rf"(?:{_MONTHS})\s+\d{{1,2}},?\s+(?:\d{{4}}\s+)?"
        r"\d{1,2}:\d{2}:\d{2}(?:\.\d+)?(?:\s+[AP]M)?(?:\s+[A-Z]{3,4}\s+\d{4}|\s+\d{4})?\b",
    ),
    # RFC 1123 / 2822 dates, as HTTP ``Date:`` headers, mail and ``kubectl describe`` print
    # them: ``[Wed, ]12 Nov 2026[ 07:01:22][ GMT|+0000]``, and the RFC 850 / cookie form
    # ``Wed, 12-Nov-26 07:01:22 GMT``. The weekday and the month belong to the value: kept,
    # one fault would make one pattern per day. A zone follows a time, and is one of the
    # RFC's names or a numeric offset, so that a log level or a word after a date stays.
    (
        "rfc_date",
        MASK,
        rf"(?:(?:{_DAYS}),\s*)?\d{{1,2}}"
        rf"(?:\s+(?:{_MONTHS})\s+\d{{4}}|-(?:{_MONTHS})-\d\d(?:\d\d)?)"
        r"(?:\s+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
        r"(?:\s+(?:[+-]\d{4}|GMT|UTC|UT|[ECMP][SD]T))?)?\b",
    ),
    # Clock times and elapsed times (``07:07:00``, ``22:32:34.846``, ``00:01``, ``7:01 PM``:
    # half the day is no reason for two patterns) and slash dates (``2017/7/1``).
    (
        "clock_time",
        MASK,
        r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\b(?:\s+[AP]M\b)?|\d{4}/\d{1,2}/\d{1,2}\b",
    ),
    # IPv6 addresses: 3 to 8 hex groups separated by ':' (allowing '::'), with at least one
    # digit so that C++/Ruby ``Foo::bar`` scopes are not taken for addresses.
    (
        "ipv6",
        MASK,
        r"(?<![\w:])(?=[0-9a-fA-F]{1,4}+:)(?=[a-fA-F:]*+\d)"
        r"(?:[0-9a-fA-F]{1,4}:{1,2}){2,7}[0-9a-fA-F]{1,4}(?![\w:])",
    ),
    # Compressed IPv6 addresses that begin with '::' (the loopback ``::1``, ``[::1]:6379``,
    # Node's ``:::3000``: every address, port 3000; ``::ffff:10.0.0.1``), and the unspecified
    # address ``[::]``.
    # A digit must follow the '::', so that a Ruby or C++ scope (``::Foo``) or a type
    # annotation (``x :: Int``) stays text.
    (
        "ipv6_compressed",
        MASK,
        r"(?<![\w:])::(?=[0-9a-fA-F:]*\d)(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4}){0,6})?"
        r"(?::\d{1,3}(?:\.\d{1,3}){3}|:\d{1,5})?(?![\w:.])|(?<=\[)::(?=\])",
    ),
    # IPv4 addresses with an optional port.
    ("ipv4", MASK, r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\w.])"),
    # Host names: dotted names ending in a common top-level domain (or a country domain under
    # com/net/org/edu/gov/ac/co, such as ``edu.hk``), optionally with a port. Bare two-letter
    # endings are not enough: ``models.py`` or ``logs.gz`` are file names. (Possessive
    # labels: a word without a dot fails at once.)
    (
        "host",
        MASK,
        r"(?:[A-Za-z0-9][\w\-]*+\.)++"
        r"(?:com|net|org|edu|gov|mil|int|io|dev|app|cloud|info|biz|local|localdomain|"
        r"internal|lan|corp|home|(?:com|net|org|edu|gov|ac|co)\.[a-z]{2})"
        r"(?::\d{1,5})?\b(?![.\-/]\w)",
    ),
    # Any other dotted name followed by a port is a host (``puui.qpic.cn:443``); the
    # handler leaves camelCase property paths (``state.clipTopAmount:180``) their name.
    ("host_port", "host_port", rf"[A-Za-z0-9][\w\-]*+(?:\.[\w\-]++)++:\d{{1,5}}{_TOKEN_END}"),
    # Windows paths (``C:\Users\...``).
    ("windows_path", MASK, r"[A-Za-z]:\\[^\s\"'<>|]*"),
    # Absolute / home / relative-dot Unix paths starting a token (so ``hi/lo`` stays text).
    ("unix_path", MASK, r"(?<![^\s\"'(\[=:,<])(?:~|\.{1,2})?/[^\s\"'()\[\]<>,;|]+"),
    # Relative file paths with an extension (``src/app/models.py``); the extension must end
    # the token so that Java ``a.b/c.d.E`` component names are not cut in two.
    # (Possessive, with the extension checked by look-behinds: no backtracking on long paths.)
    (
        "relative_path",
        MASK,
        r"[\w.\-]++(?:/[\w.\-]++)++"
        + "(?:"
        + "|".join(rf"(?<=\.[A-Za-z]\w{{{k}}})" for k in range(6))
        + ")",
    ),
    # Quantities with a unit, glued or after a space (``5.2 KB``, ``1190 bytes``, ``<1 sec``,
    # ``150 ms``): the unit changes with the magnitude, so it belongs to the value. A leading
    # ``<``/``>``/``~`` is part of an approximate value. Spelled-out units (``30 seconds``)
    # stay as words of the message: ``timeout after <*> seconds``.
    ("quantity", MASK, rf"[<>~]?\d+(?:\.\d+)?\s?(?:{_UNITS})\b"),
    # Booleans and null-like values: state, not message text.
    ("boolean", MASK, r"(?:true|false|True|False|TRUE|FALSE|null|NULL|None|nil)\b"),
    # The value of ``key=value``: quoted, bracketed (PostgreSQL ``Key (email)=(...)``,
    # ``ws=WorkSource{10112}``) or bare up to a separator. ``key=`` with nothing after it and
    # the operators ``==``, ``!=``, ``<=``, ``>=`` stay as they are.
    (
        "kv_value",
        MASK,
        r"(?<==)(?<![=!<>]=)(?![=\s])"
        r"(?:\"[^\"\n]*\"|'[^'\n]*'|\w*\([^()\n]*\)|\w*\{[^{}\n]*\}|\w*\[[^\[\]\n]*\]"
        r"|[^\s,;)\]}&\"'<>|]+)",
    ),
    # A quoted value after ``key:`` (``name: 'bob'``); the handler keeps the key.
    ("quoted_value", "quoted_value", r"[^\s\"':]++:\s*(?:\"[^\"\n]*\"|'[^'\n]*')"),
    # Any other token containing a digit: counters, ids, hex, versions, durations (30s),
    # ports, line numbers. This is the catch-all that makes unknown id formats variable.
    ("number", MASK, rf"(?=[^{_SEP}\d]*+\d)[^{_SEP}]++"),
    # A token of letters (and ``_``/``-``) with a lowercase letter before a capital, ending
    # the token (maybe before closing punctuation): it may be a random id that happens to
    # hold no digit (``req_AbCdEfGhIjKlMnOp``). The handler masks it only then (see
    # :mod:`.letters`); words and names (``ConnectionRefusedError``) are copied unchanged.
    (
        "letter_id",
        "letter_id",
        rf"(?={_MIXED_CASE})[A-Za-z][A-Za-z_\-]*+(?=[.!?]*+(?:[{_SEP}]|$))",
    ),
]

# Every rule starts at a token boundary: the start of the message or right after a
# separator. Checking that once, before the alternation, lets the scanner skip the inside of
# words with a single test per character, and keeps the work linear: a rule that scans a
# token and fails is not retried from inside the same token.
# No rule starts with a blank, so a blank (a token boundary too) is passed over at once.
_SCAN_START = rf"(?<![^{_SEP}])(?!\s)"
# Fast path: a plain word (letters, ``_`` or ``-``, maybe opening/closing punctuation, then a
# blank or the end; or ``word=``) can only start a rule if it is one of these keywords, so
# any other plain word is skipped with one look-ahead instead of trying every rule. Words
# before a quote (``KeyError: '...'``), values after ``=`` and words with a lowercase letter
# before a capital (letter_id; the word stops there, short of a blank) are not skipped. Keep
# in sync with the rules that can start with such a word: http_status, syslog_time,
# rfc_date, boolean, letter_id.
_KEYWORDS = (
    f"HTTP|[Ss]tatus|STATUS|[Cc]ode|{_DAYS}|"
    f"{_MONTHS}|"
    "true|false|True|False|TRUE|FALSE|null|NULL|None|nil"
)
_PLAIN_WORD = (
    rf"(?:(?<==)|(?![(\[{{]*+(?!(?:{_KEYWORDS})\b)"
    rf"(?=[A-Za-z])(?:[A-Z_\-]++|[a-z]++(?![A-Z]))*+"
    rf"(?:=|[,.;:)\]}}!?]*+(?:\s(?![\'\"])|$))))"
)

# Each rule is followed by an empty group named after it, rather than wrapped in one: the
# match's ``lastgroup`` still names the rule (the rules have no groups of their own), and the
# regex engine skips at a glance a rule whose first character class fails (it only does
# that for branches that start with a character, not with a group).
SCANNER = re.compile(
    _SCAN_START
    + _PLAIN_WORD
    + "(?:"
    + "|".join(f"(?:{pattern})(?P<{name}>)" for name, _, pattern in RULES)
    + ")"
)
ACTIONS = {name: action for name, action, _ in RULES}

# Runs of blanks inside a line become one space (messages are re-spaced by loggers).
BLANKS = re.compile(r"[ \t\r\f\v]+")
# Adjacent variables are one variable: lists of ids (blank or comma separated) and a value
# followed by its alternate rendering in parentheses (``1190 bytes (1.16 KB)``, ``host
# (resolved.name)``, ``x ()``) have a varying number of tokens.
WILDCARD_RUN = re.compile(r"<\*>(?:(?:,? |,)(?:<\*>|\(<\*>\)|\(\)))+")

# --- Blanks that a rule can reach across -------------------------------------------------------
# Most rules match inside one blank-separated token and look no further than the blank after
# it, so a token's template does not depend on its neighbours: the normaliser caches templates
# per token (see :mod:`.normalise`). These are the exceptions, as (name, how a token ends, how
# the next one starts). Two neighbours that fit a bridge are scanned together, as one
# "segment"; so every blank that a match (or a look-ahead that succeeds) can step over must
# be covered by a bridge, for every rule above that contains ``\s``. Over-covering only costs
# speed. The patterns must not tell one ASCII digit from another (``\d``, never ``[1-5]``):
# tokens are classified by their digit shape.
_REASON_WORDS = "|".join(
    sorted({word for reason in _REASONS.split("|") for word in reason.split()})
)
_STATUS_WORDS = r"HTTP(?:/\d(?:\.\d)?)?|[Cc]ode|[Ss]tatus|STATUS"
BRIDGES = [
    # A number then its unit (quantity ``1190 bytes``; integer leaves ``5 KB`` to quantity).
    ("value_unit", r"\d", rf"(?:{_UNITS})\b"),
    # A number then a reason phrase, and the words of a reason phrase: http_status
    # (``404 Not Found``) and the look-ahead of integer that leaves it to http_status.
    ("value_reason", r"\d", rf"(?:{_REASON_WORDS})\b"),
    ("reason_words", rf"(?:{_REASON_WORDS})", rf"(?:{_REASON_WORDS})\b"),
    # http_status: ``HTTP 404``, ``code: 429``, ``status 500`` and ``status code 403``.
    ("status_code", rf"(?:{_STATUS_WORDS}):?", r"\d\d\d\b"),
    ("status_words", r"[Ss]tatus", r"[Cc]ode"),
    # syslog_time: ``Fri, Jun 17 07:07:00 PDT 2005`` (or ``Nov 12, 2026 7:01:22 AM``),
    # rfc_date: ``Wed, 12 Nov 2026 07:01:22 GMT`` (``+0000``), blank by blank; clock_zone
    # also covers clock_time's ``AM``/``PM``.
    ("day_month", rf"(?:{_DAYS}),?", rf"(?:{_MONTHS})"),
    ("day_date", rf"(?:{_DAYS}),", r"\d"),
    ("month_day", rf"(?:{_MONTHS})", r"\d"),
    ("date_month", r"\d", rf"(?:{_MONTHS})\b"),
    ("day_year", r"\d,?", r"\d{4}\b"),
    ("day_clock", r"\d,?", r"\d\d?:\d\d"),
    ("clock_zone", r":\d\d(?:\.\d+)?", r"[A-Z]{2,4}\b"),
    ("clock_offset", r":\d\d(?:\.\d+)?", r"[+-]\d{4}\b"),
    ("zone_year", r"[A-Z]{3,4}", r"\d{4}\b"),
    ("clock_year", r":\d\d(?:\.\d+)?", r"\d{4}\b"),
    # iso_time with a blank between date and time: ``2017-05-16 05:00:00``.
    ("date_clock", r"\d{4}-\d{2}-\d{2}", r"\d\d:"),
]
# Tokens from which a value with blanks inside may start: a quote (kv_value, quoted_value and
# exception_subject take quoted strings whole, and the plain-word shortcut of the scanner
# does not skip a word before a quote) or a bracket opened after ``=`` (kv_value takes
# ``Rect(0, 0 - 720, 1280)`` whole). A message holding one is always scanned whole.
OPENS_SPAN = re.compile(r"['\"]|=.*[(\[{]")
