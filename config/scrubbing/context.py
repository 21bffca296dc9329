"""Rules for credentials known by where they stand: in a URL, after a header name, an auth
scheme, a command-line flag or a key that names a secret.  They run after the token rules, so
a provider token inside such a place is already named by its provider."""

from __future__ import annotations

import base64
import binascii
import re
import string

from .keys import (
    cookie_holds_secret,
    is_pwd_path,
    key_judgement,
    names_no_secret,
    plainly_no_credential,
    secret_key_kind,
)
from .rule import MARKER_PREFIX, Rule


def _accept_basic(match: re.Match[str], text: str) -> str | None:
    """Free-text ``Basic xxx`` is only a credential if xxx is base64 of
    ``user:password``; "Basic troubleshooting" or "Basic SGVsbG8=" are not."""
    candidate = match.group("secret")
    try:
        decoded = base64.b64decode(candidate + "=" * (-len(candidate) % 4), validate=True)
        decoded_text = decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if ":" in decoded_text and decoded_text.isprintable():
        return "basic_auth"
    return None


# A "prose word": all letters, lowercase or Capitalised ("expired", "Missing").
_PROSE_WORD = re.compile(r"[a-z]+|[A-Z][a-z]+")
# Another word after the value on the same line: the value is part of prose.
_MORE_PROSE = re.compile(r"[ \t]+[A-Za-z]")
# The value groups of secret_pair, one of which takes part in a match.
_PAIR_VALUES = ("secret_dq", "secret_esc", "secret_sq", "secret_url", "secret_next", "secret_bare")
# Last words of keys that another rule owns: "Authorization: Bearer x" keeps its scheme word.
_OWNED_ELSEWHERE = ("authorization",)


def key_start_of(text: str, word_start: int) -> int:
    """Where the key whose last word starts at ``word_start`` begins: the regex anchors on
    the secret word for speed, so walk back over identifier characters ("db_password",
    "X-Api-Key", "accessToken")."""
    start = word_start
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-."):
        start -= 1
    if start > 0 and text[start - 1] == "%" and word_start - start >= 2:
        start += 2  # "%26password": the hex digits of an escape are not part of the key
    return start


def _accept_pair(match: re.Match[str], text: str) -> str | None:
    """Decide whether ``key<sep>value`` really carries a secret."""
    key_start = key_start_of(text, match.start("word"))
    key = text[key_start : match.end("tail")].lstrip("-.")  # "--password" CLI flags
    judged = key_judgement(key)
    if judged is None or key.lower().endswith(_OWNED_ELSEWHERE):
        return None  # e.g. "bypass", "token_count": the word is not the key's head
    kind, strong = judged
    if key_start > 0 and text[key_start - 1] == ":" and ":" in match.group("sep"):
        return None  # a field of a colon-separated name: "arn:aws:...:secret:prod/db"
    if key_start > 0 and text[key_start - 1] in "/\\":
        return None  # a file named so: "/etc/passwd:1:root:x"
    group = next(name for name in _PAIR_VALUES if match.group(name) is not None)
    value = match.group(group)
    if not value or value.startswith(MARKER_PREFIX) or names_no_secret(value):
        return None
    if _is_prompt(match, text, key_start, group):
        return None
    if kind == "cookie" and "=" in value:  # cookies, judged as the cookie rule judges them
        return kind if cookie_holds_secret(value) else None
    if is_pwd_path(key, value) or (not strong and plainly_no_credential(value)):
        return None
    if match.group("secret_bare") is not None:
        # "os.environ.get(" / "settings.TOKEN[" are code, not values; "${API_KEY}" a reference;
        # "token=token" passes a variable on.
        if text[match.end() : match.end() + 1] in ("(", "[") or value == "$":
            return None
        if value.lower() in (key.lower(), key.lower().rsplit("_", 1)[-1]):
            return None
        if ":" in match.group("sep") and _PROSE_WORD.fullmatch(value):
            return _prose_check(match, text, key_start, kind)
        if value.isdigit() and text.startswith(" bytes", match.end()):
            return None  # a secret's size ("kubectl describe secret": "password:  24 bytes")
    return kind


def _is_prompt(match: re.Match[str], text: str, key_start: int, group: str) -> bool:
    """``getpass("Password: ")``, ``input('API token: ')``: the key and its separator end a
    quoted string, a prompt or a label, and what follows its closing quote is code (a closing
    bracket, a comma, an operator), not a value."""
    if group not in ("secret_dq", "secret_sq"):
        return False
    quote = text[match.start(group) - 1]
    before = text[max(0, key_start - _PROMPT_CHARS) : key_start]
    opening = before.rfind(quote)
    return (
        opening >= 0
        and "\n" not in before[opening:]
        and quote not in match.group("sep")
        and match.group(group).lstrip()[:1] in _CODE_AFTER_STRING
    )


# How far before its key a prompt's string may open ("Enter the database password: ").
_PROMPT_CHARS = 64


# What follows a string literal in code: a closing bracket, a separator or an operator.
_CODE_AFTER_STRING = frozenset(")],;+%.}")


def _prose_check(match: re.Match[str], text: str, key_start: int, kind: str) -> str | None:
    """ "Invalid token: expired" is prose, "password: hunter2" is not; an all-letter word is
    only taken when the key starts its line (YAML, HTTP headers), optionally after
    indentation / list dash.  A word followed by more words ("cookie: invalid format") is a
    sentence even there."""
    # Walk back over indentation only, not to the line start: a long line with many such
    # keys must not cost quadratic time.
    before = key_start
    while before > 0 and text[before - 1] in " \t-\"'":
        before -= 1
    if before > 0 and text[before - 1] not in "\r\n":
        return None
    if _MORE_PROSE.match(text, match.end()):
        return None
    return kind


def _accept_cookie(match: re.Match[str], text: str) -> str | None:
    return "cookie" if cookie_holds_secret(match.group("secret")) else None


# Values after a space-separated flag that are not secrets: an argparse metavar
# ("--password PASSWORD"), an environment variable reference ("$DB_PASSWORD").
FLAG_PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*|\$[A-Za-z_][A-Za-z0-9_]*")
# Words that follow a flag's name in prose ("pass --password to the command").
FLAG_PROSE = frozenset(
    {
        "a",
        "an",
        "and",
        "as",
        "but",
        "flag",
        "for",
        "from",
        "if",
        "in",
        "is",
        "it",
        "must",
        "not",
        "of",
        "on",
        "option",
        "or",
        "the",
        "then",
        "to",
        "was",
        "when",
        "with",
    }
)


# First words of switches that take no value: after "--no-auth" or "--ask-vault-password"
# comes the next argument, not a secret.
_SWITCH_FIRST_WORDS = frozenset(
    {
        "allow",
        "ask",
        "disable",
        "enable",
        "no",
        "prompt",
        "require",
        "skip",
        "use",
        "with",
        "without",
    }
)


def _accept_flag(match: re.Match[str], text: str) -> str | None:
    """``--password hunter2``: the flag must name a secret (as a key would) and take a value,
    and the value must not be a metavar, a variable, a placeholder or the next word of a
    sentence."""
    flag = match.group("flag")
    kind = secret_key_kind(flag)
    if kind is None or ("-" in flag and flag.split("-", 1)[0].lower() in _SWITCH_FIRST_WORDS):
        return None
    value = next(
        v for v in map(match.group, ("secret_dq", "secret_sq", "secret_bare")) if v is not None
    )
    if not value or names_no_secret(value) or FLAG_PLACEHOLDER.fullmatch(value):
        return None
    if value.lower() in FLAG_PROSE or is_pwd_path(flag, value):
        return None
    return kind


# Word alternation for the generic pair rule.  It only needs to *find* a
# secret-like word in a key; _accept_pair() then recovers the whole key
# (the word, what precedes it and the tail after it) and judges it with
# key_judgement().  Longer alternatives come first so "passwords" is not cut
# to "pass".  An "authorization" key is declined there: the authorization rule
# owns it, and here "Authorization: Bearer [REDACTED:...]" would wrongly take
# the scheme word "Bearer" as the value on a second pass.
PAIR_WORDS = (
    r"passwords|password|passwd|passphrase|passcode|pass|pwd|pw|pswd|psw|secret|token|key|"
    r"oauth|auth|cookie|credentials|credential|creds|[_\-]pat(?![a-z])|"
    r"session[_\-]?id|session[_\-]?key|jsessionid|phpsessid|session|"
    r"mnemonic|seed[_\-]?phrase|dockerconfigjson|dockercfg"
)

# Where each PAIR_WORDS alternative starts ("pass" covers password/passwords/passwd/
# passphrase/pass, "pw" pwd and pw, "cred" credentials and creds, "key" every "*key" such as
# api_key or secretkey, "_pat" a personal access token's last word but not "file_path").
PAIR_TRIGGERS = (
    "pass",
    "pw",
    "psw",
    "secret",
    "token",
    "key",
    "oauth",
    "auth",
    "cookie",
    "cred",
    "session",
    "jsessionid",
    "phpsessid",
    "_pat",
    "-pat",
    "mnemonic",
    "seed",
    "dockerconfigjson",
    "dockercfg",
)

# Characters that end an unquoted value: whitespace, quotes, , ; and brackets.
_VALUE_END = r"\s\"'&,;<>()\[\]{}\\"

CONTEXT_RULES: tuple[Rule, ...] = (
    Rule(
        # Passwords in URLs: scheme://user:password@host.  Only the password
        # is redacted; user and host stay for debugging.  The user part may be
        # empty ("redis://:pw@host").  The password may contain "@" (people do
        # not always percent-encode), so the greedy body backs off to the
        # LAST "@" before the path; it cannot cross "/", so "host:8080/x@y"
        # is not a password.
        name="url_password",
        # The match starts at "://" (the scheme before it is kept anyway);
        # the lookbehind demands a scheme character there.
        regex=re.compile(
            r"(?<=[A-Za-z0-9+.\-])://[^\s:/?#@\[\]\"'<>]*:"
            r"(?!\[REDACTED:)(?P<secret>[^\s/?#\"'<>]+)(?=@)"
        ),
        triggers=("://",),
        # A masked or placeholder password ("app:***@db", "USER:PASSWORD@HOST") is none.
        accept=lambda match, text: (
            None if names_no_secret(match.group("secret")) else "url_password"
        ),
    ),
    Rule(
        # Azure shared access signatures: the "sig=" query parameter of a SAS
        # URL or SharedAccessSignature string is the HMAC that grants the
        # access.  It is base64 of 32 bytes (44 characters, usually
        # percent-encoded); 30+ keeps "sig=15" or "sig=SIGTERM" out.
        name="azure_sas_signature",
        regex=re.compile(r"(?<![A-Za-z0-9_\-])sig=(?P<secret>[A-Za-z0-9%+/=]{30,})"),
        triggers=("sig=",),
    ),
    Rule(
        # Authorization / Proxy-Authorization headers (HTTP dumps, curl -H,
        # Python/JSON dicts rendered as text).  The scheme word (Bearer,
        # Basic, token, AWS4-HMAC-SHA256 ...) is kept and the credential after
        # it redacted.  The scheme is inside an atomic group so that, once a
        # scheme is seen, the regex cannot back off and redact the scheme word
        # itself (which would break idempotence on "Bearer [REDACTED:...]").
        # A value that is only a scheme word ("Authorization: Bearer" with
        # nothing after it) is not a credential.
        # [ \t] instead of \s: the value must be on the header's own line.
        # The lookbehind allows "-", so Proxy-Authorization and
        # X-Authorization match too (the prefix is kept).
        name="authorization",
        regex=re.compile(
            r"(?i)(?<![A-Za-z0-9_])authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
            r"(?>(?:[A-Za-z][A-Za-z0-9._\-]*[ \t]+(?=[^\s\"'\\]))?)"
            r"(?!\[REDACTED:)(?!(?:bearer|basic|token|digest)\b)"
            r"(?P<secret>[^\s\"'\\,;]+)"
        ),
        triggers=("authorization",),
        # No credential: one character (the "f" of a Python f-string) or a placeholder.
        accept=lambda match, text: (
            None
            if len(match.group("secret")) == 1 or names_no_secret(match.group("secret"))
            else "authorization"
        ),
    ),
    Rule(
        # "Bearer <token>" in free text (logs, prose, curl lines without the
        # header name).  RFC 6750 b64token charset.  To leave prose such as
        # "Bearer authentication" alone, the token must be 12+ chars (every
        # real OAuth/API token is longer) and contain a digit.  It may not end
        # in "." so a sentence-final full stop stays.
        name="bearer_token",
        regex=re.compile(
            r"(?i)(?<![A-Za-z0-9_])bearer[ \t]+"
            r"(?P<secret>(?=[A-Za-z0-9\-._~+/]*\d)[A-Za-z0-9\-._~+/]{11,}[A-Za-z0-9\-_~+/]=*)"
        ),
        triggers=("bearer",),
    ),
    Rule(
        # "Basic <base64(user:password)>" in free text.  "Basic" is an
        # ordinary English word, so _accept_basic decodes the candidate and
        # only redacts if it is printable UTF-8 containing ":" (the decode
        # check, not the length, is the real guard).  4 chars is the shortest
        # base64 of a "u:p" pair ("dTpw").
        name="basic_auth",
        regex=re.compile(
            r"(?<![A-Za-z0-9_])(?i:basic)[ \t]+"
            r"(?P<secret>[A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])"
        ),
        triggers=("basic",),
        accept=_accept_basic,
    ),
    Rule(
        # Cookie / Set-Cookie headers: the whole value (all name=value pairs
        # and attributes) to the end of the line or closing quote.  Requiring
        # "name=" right after the colon keeps prose like "cookie: invalid
        # format" out (that one is then judged by secret_pair).  "Set-Cookie"
        # matches at "Cookie" (the lookbehind allows "-").  The cookie name
        # cannot contain ":" (an HTTP separator), which also keeps a failing
        # scan from running over the next "cookie:" in the text.
        name="cookie",
        regex=re.compile(
            r"(?i)(?<![A-Za-z0-9_])cookie[\"']?[ \t]*:[ \t]*[\"']?"
            r"(?P<secret>[^\s=;,:\"'\\\[]+=(?:[^\r\n\"'\\]*[^\s\"'\\])?)"
        ),
        triggers=("cookie",),
        accept=_accept_cookie,
    ),
    Rule(
        # Space-separated command-line flags: --password hunter2,
        # --client-secret '...', --registry-token "...".  _accept_flag judges
        # the flag name as a key (so --password-file and --token-count do
        # not count) and the value.  The flag's words are joined by single
        # hyphens, so a failed attempt stops at the next "--" (linear time).
        # The value may not start with "-" (the next flag) or "[" (a
        # marker); "--password=x" is secret_pair's.
        name="cli_flag",
        regex=re.compile(
            r"--(?P<flag>[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)[ \t]+"
            r"(?:\"(?P<secret_dq>[^\"\r\n]*)\"|'(?P<secret_sq>[^'\r\n]*)'"
            rf"|(?P<secret_bare>[^{_VALUE_END}|`\-][^{_VALUE_END}|`]*))"
        ),
        # "--" followed by a letter: "--" alone would fire at every position
        # of a "-----" rule line.
        triggers=tuple(f"--{letter}" for letter in string.ascii_lowercase),
        accept=_accept_flag,
    ),
    Rule(
        # Generic "key<sep>value" pairs whose key names a secret:
        #   password=hunter2   token: abc   "api_key": "..."   ?token=...&
        #   \"secret\": \"...\" (JSON escaped inside a string)   --password=x
        #   password%3Dhunter2 (a query string URL-encoded inside another)
        # The regex starts at the secret *word*, so it is only tried where a
        # trigger word occurs; _accept_pair then recovers the whole key and applies
        # secret_key_kind(), so "token_count=512" or "max_tokens=1024" never
        # qualify (the word must be followed directly by the separator).
        # Separators: = : := => %3D; "==" is a comparison in code, not an
        # assignment.  Value forms, one "secret..." group each:
        #   secret_url after %3D: up to an encoded "&" (%26) or a raw end
        #   secret_dq  "..." with \-escapes (JSON); an unterminated quote
        #              (truncated log line) runs to the end of the line, which
        #              also means this branch never fails after a long scan
        #              (linear worst case, see the package docstring)
        #   secret_esc \"...\" (JSON string embedded in a JSON string)
        #   secret_sq  '...'
        #   secret_bare unquoted, up to whitespace , ; or brackets, and up to
        #               "&" only when a "name=" follows it (the next query
        #               parameter), so "pw=Tr0ub&3x" is redacted whole.
        name="secret_pair",
        regex=re.compile(
            rf"(?i:(?P<word>{PAIR_WORDS}))(?P<tail>[A-Za-z0-9_\-]{{0,40}})"
            r"(?P<sep>(?P<enc>%3[dD])|\\?[\"']?[ \t]*(?::=|=>|[:=](?!=))[ \t]*)"
            rf"(?(enc)(?P<secret_url>(?:[^{_VALUE_END}%]|%(?!26))+)"
            r"|(?:\\\"(?P<secret_esc>[^\"\\\r\n]*)\\\""
            r"|\"(?P<secret_dq>(?:\\.|[^\"\\\r\n])*)(?:\"|(?=[\r\n\\]|$))"
            r"|'(?P<secret_sq>(?:\\.|[^'\\\r\n])*)(?:'|(?=[\r\n\\]|$))"
            r"|(?:[|>][-+]?|\\)[ \t]*\r?\n[ \t]*(?P<secret_next>[^\s\"']+)"
            rf"|(?P<secret_bare>(?:[^{_VALUE_END}]|&(?![A-Za-z0-9_.\-\[\]]*=))+)))"
        ),
        # Where each PAIR_WORDS alternative starts ("pass" covers password/passwords/passwd/
        # passphrase/pass, "key" every "*key" such as api_key or secretkey).
        triggers=PAIR_TRIGGERS,
        accept=_accept_pair,
    ),
)
