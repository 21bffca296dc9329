"""Secret scrubbing for everything Hindsight stores.

Agents post error messages, context JSON, resolutions and code snippets; all
of it is later shown to other agents and humans.  Anything that looks like a
credential is therefore replaced *before* storage by a marker naming what it
was, e.g. ``[REDACTED:openai_key]``, while the surrounding text is kept so the
failure stays debuggable.

Public API
----------
``scrub_text(text) -> str``
    Replace secrets inside one string.
``scrub_value(value)``
    Return a scrubbed deep copy of JSON-like data (dict / list / str / int /
    float / bool / None).  Strings go through ``scrub_text``; in addition a
    dict entry whose *key* names a secret (``password``, ``api_key``,
    ``Authorization`` ...) has its string value replaced entirely.

This module is pure Python (no Django) and sits on the write hot path, so:

* the rules are data (``RULES``): named, commented regexes compiled once at
  import time, in the spirit of Sentry's parameterization rules;
* every rule lists lowercase *trigger* substrings.  One regex pass over the
  lowercased text (the triggers compiled into a trie) finds them all; text
  without any trigger is returned right there, and each rule's regex is then
  only tried at the positions where one of its triggers starts;
* worst-case work is linear in the text length: no rule can fail after a
  long scan that covers another of its own trigger positions (see the
  comments on the rules and ``_apply_at``).

Design decisions (the "decide and document" points)
---------------------------------------------------
* Stripe publishable keys (``pk_live_`` / ``pk_test_``) are NOT redacted:
  Stripe designs them to be embedded in public web pages, so they are not
  secret, and keeping them helps debugging ("wrong account's key").
* Twilio account / API-key SIDs (``AC...`` / ``SK...`` + 32 hex) are
  identifiers, not secrets; the Twilio auth token is 32 hex characters, which
  is indistinguishable from an MD5 hash, so it is only caught when labelled
  (``auth_token=...``).
* Secret-naming keys are judged on their *last* word (or last two words
  joined, for ``api_key`` / ``private_key`` style keys).  So ``access_token``,
  ``db_password`` and ``X-Api-Key`` count, while ``token_count``,
  ``max_tokens``, ``tokens_used``, ``tokenizer``, ``password_policy_url``,
  ``password_reset_url`` and ``secret_name`` do not: there the secret word
  only qualifies something else (a number, a URL, a name).  Credentials
  that sit *inside* such a value (``https://u:p@host``, ``?token=...``) are still
  caught by the text rules.
* ``pwd`` / ``PWD`` whose value is an absolute path is the shell's working
  directory variable (very common in environment dumps), not a password.
* A bare ``key: word`` in the middle of a line (``Invalid token: expired``)
  or followed by more words (``cookie: invalid format``) reads as prose, so a
  single all-letter word there is kept.  ``key=value``, quoted values, JSON,
  values with digits or symbols, and ``key: word`` alone at the start of a
  line (YAML, HTTP headers) are always redacted.  Space-separated CLI flags
  (``--password hunter2``) are not recognised; ``--password=hunter2`` is.
* Unquoted values end at whitespace, ``,``, ``;``, a bracket, or an ``&``
  that starts the next ``name=`` query parameter, so a password that itself
  contains such characters is only redacted up to them when it is written
  unquoted.
* A PEM private key block without an END line (truncated logs) is redacted
  to the end of the text: we cannot tell where the key material stops, and
  leaking half a private key is worse than losing trailing log lines.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["RULES", "Rule", "scrub_text", "scrub_value", "secret_key_kind"]

# Every marker starts with this, so rules can recognise text that is already
# scrubbed and leave it alone (which makes scrubbing idempotent).
MARKER_PREFIX = "[REDACTED:"


def _marker(kind: str) -> str:
    return f"{MARKER_PREFIX}{kind}]"


# --------------------------------------------------------------------------
# Secret-naming keys (shared by the text ``key=value`` rule and scrub_value)
# --------------------------------------------------------------------------

# Last word of a key -> kind of secret.  Only the last word counts (see the
# module docstring): "token" in "token_count" qualifies "count".
_SECRET_LAST_WORDS = {
    "password": "password",
    "passwords": "password",
    "passwd": "password",
    "passphrase": "password",
    "pwd": "password",
    "secret": "secret",
    "token": "token",
    "csrftoken": "token",  # Django's cookie name, written as one word
    "apikey": "api_key",
    "authorization": "authorization",
    "auth": "authorization",
    "oauth": "authorization",
    "cookie": "cookie",
    "credential": "credentials",
    "credentials": "credentials",
    "session": "session",
    "sessionid": "session",
    "jsessionid": "session",  # Java servlet session cookie
    "phpsessid": "session",  # PHP session cookie
}

# Last two words joined -> kind, for keys whose last word alone ("key", "id")
# is far too generic to mean a secret ("cache_key", "user_id").
_SECRET_LAST_PAIRS = {
    "apikey": "api_key",
    "secretkey": "secret",
    "accesskey": "secret",
    "privatekey": "private_key",
    "signingkey": "secret",
    "encryptionkey": "secret",
    "masterkey": "secret",
    "sessionid": "session",
    "sessionkey": "session",
}

# Splits a key into words: separators, and lower->Upper camelCase humps
# ("accessToken" -> "access", "Token").
_KEY_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")

# Values under pwd/PWD that start like an absolute path (POSIX, home, or a
# Windows drive) are a working directory, not a password.
_PATH_VALUE = re.compile(r"(?:/|~|[A-Za-z]:[\\/])")


def secret_key_kind(key: str) -> str | None:
    """Return the secret kind a dict key / ``key=`` name denotes, or None."""
    words = [w for w in _KEY_WORD_SPLIT.split(key) if w]
    if not words:
        return None
    last = words[-1].lower()
    if len(words) >= 2:
        pair = words[-2].lower() + last
        if pair in _SECRET_LAST_PAIRS:
            return _SECRET_LAST_PAIRS[pair]
    return _SECRET_LAST_WORDS.get(last)


def _is_pwd_path(key: str, value: str) -> bool:
    return key.lower().endswith("pwd") and _PATH_VALUE.match(value) is not None


# --------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------

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
    every position, which costs ~100 us on a 500-byte message.  (A leading
    ``(?<!...)`` lookbehind, which most token rules use, also defeats
    ``re``'s literal-prefix search.)  ``anchored=False`` searches the whole
    text with ``regex.sub``; the triggers are then only a pre-check.
    """

    name: str
    regex: re.Pattern[str]
    triggers: tuple[str, ...]
    accept: Accept | None = None
    anchored: bool = True

    def secret_groups(self) -> tuple[int, ...]:
        return tuple(
            idx for gname, idx in self.regex.groupindex.items()
            if gname.startswith("secret")
        )


# Characters of base64url, which most modern API tokens are drawn from.
_B64URL = r"A-Za-z0-9_\-"

# Shared lookbehind: a token must not be glued to a preceding word character
# or hyphen, otherwise "task-sk-1" or "mask_live_..." style words would match
# in their middle.
_NOT_AFTER_WORD = r"(?<![A-Za-z0-9_\-])"


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


# Values after "key=" that are clearly not a secret: null-ish literals, type
# names from annotations ("password: str"), and already-masked values.
_PLACEHOLDER_VALUES = frozenset({
    "null", "none", "nil", "true", "false", "undefined", "empty",
    "str", "string", "bytes", "int", "optional", "any", "secretstr",
})
_MASKED_VALUE = re.compile(r"[*xX•]+|<[^<>]*>|\$\{[^{}]*\}|\{\{[^{}]*\}\}")
# A "prose word": all letters, lowercase or Capitalised ("expired", "Missing").
_PROSE_WORD = re.compile(r"[a-z]+|[A-Z][a-z]+")
# Another word after the value on the same line: the value is part of prose.
_MORE_PROSE = re.compile(r"[ \t]+[A-Za-z]")


def _accept_pair(match: re.Match[str], text: str) -> str | None:
    """Decide whether ``key<sep>value`` really carries a secret."""
    # The regex anchors on the secret word for speed; recover the full key
    # by walking back over identifier characters ("db_password",
    # "X-Api-Key", "accessToken").
    key_start = match.start("word")
    while key_start > 0 and (text[key_start - 1].isalnum() or text[key_start - 1] in "_-."):
        key_start -= 1
    key = text[key_start:match.end("word")].lstrip("-.")  # "--password" CLI flags
    kind = secret_key_kind(key)
    if kind is None:
        return None  # e.g. "bypass", "mytoken": the word is not a key word
    for gname in ("secret_dq", "secret_esc", "secret_sq", "secret_bare"):
        value = match.group(gname)
        if value is not None:
            break
    if not value or value.startswith(MARKER_PREFIX):
        return None
    if value.lower() in _PLACEHOLDER_VALUES or _MASKED_VALUE.fullmatch(value):
        return None
    if _is_pwd_path(key, value):
        return None
    if match.group("secret_bare") is not None:
        # "os.environ.get(" / "settings.TOKEN[" are code, not values.
        if text[match.end():match.end() + 1] in ("(", "["):
            return None
        if ":" in match.group("sep") and _PROSE_WORD.fullmatch(value):
            # "Invalid token: expired" is prose, "password: hunter2" is not;
            # an all-letter word is only taken when the key starts its line
            # (YAML, HTTP headers), optionally after indentation / list dash.
            # A word followed by more words ("cookie: invalid format") is a
            # sentence even there.
            # (Walk back over indentation only, not to the line start: a long
            # line with many such keys must not cost quadratic time.)
            before = key_start
            while before > 0 and text[before - 1] in " \t-\"'":
                before -= 1
            if before > 0 and text[before - 1] not in "\r\n":
                return None
            if _MORE_PROSE.match(text, match.end()):
                return None
    return kind


# Word alternation for the generic pair rule.  It only needs to *find* the
# last word of a key; secret_key_kind() then decides on the whole key.
# Longer alternatives come first so "passwords" is not cut to "password".
# "authorization" is deliberately absent: the authorization rule owns that
# key, and here "Authorization: Bearer [REDACTED:...]" would wrongly take
# the scheme word "Bearer" as the value on a second pass.
_PAIR_WORDS = (
    r"passwords|password|passwd|passphrase|pwd|secret|csrftoken|token|"
    r"api[_\-]?key|secret[_\-]?key|access[_\-]?key|private[_\-]?key|"
    r"signing[_\-]?key|encryption[_\-]?key|master[_\-]?key|"
    r"oauth|auth|cookie|credentials|credential|"
    r"session[_\-]?id|session[_\-]?key|jsessionid|phpsessid|session"
)

RULES: tuple[Rule, ...] = (
    # --- Whole blocks first, so nothing inside them is matched piecemeal ----
    Rule(
        # PEM private keys: RSA / EC / DSA / OPENSSH / ENCRYPTED / PKCS#8
        # ("PRIVATE KEY") and PGP ("PGP PRIVATE KEY BLOCK").  The whole block
        # from BEGIN to the matching END is the secret.  A block with no END
        # (truncated output) runs to the end of the text: see module doc.
        # The body may contain real or JSON-escaped ("\n") newlines, so DOTALL.
        name="private_key",
        regex=re.compile(
            r"(?P<secret>-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|.*))",
            re.DOTALL,
        ),
        triggers=("private key",),
        # The trigger is not where the match starts ("-----BEGIN"), and the
        # regex starts with a literal, so re's own prefix search is fast.
        anchored=False,
    ),
    # --- Provider keys with distinctive prefixes ---------------------------
    Rule(
        # Anthropic: "sk-ant-<type><version>-" (api03, admin01, oat01...)
        # followed by ~95 base64url chars.  Must run before openai_key, whose
        # "sk-" prefix would otherwise claim it.  32+ body chars: real keys
        # are far longer, while "sk-ant-" in docs is followed by nothing.
        name="anthropic_key",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>sk-ant-[a-z]+\d*-[{_B64URL}]{{32,}})"),
        triggers=("sk-ant-",),
    ),
    Rule(
        # OpenAI: legacy "sk-" + 48 alphanumerics, and the newer prefixed
        # forms "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-" + long
        # base64url.  The lookaheads demand a digit, an upper- and a
        # lower-case letter in the body: random keys always have all three
        # at these lengths, while slugs such as "sk-release-notes-for-..."
        # (all lowercase) do not.  32 is below every real key length (48+)
        # and above any plausible hyphenated word.
        name="openai_key",
        regex=re.compile(
            rf"{_NOT_AFTER_WORD}(?P<secret>sk-(?:(?:proj|svcacct|admin|None)-)?"
            rf"(?=[{_B64URL}]*\d)(?=[{_B64URL}]*[A-Z])(?=[{_B64URL}]*[a-z])"
            rf"[{_B64URL}]{{32,}})"
        ),
        triggers=("sk-",),
    ),
    Rule(
        # AWS access key ids: 4-letter type prefix (AKIA long-term, ASIA
        # STS temporary, plus the rarer ABIA/ACCA) + 16 base32 characters =
        # exactly 20.  The trailing lookahead rejects longer upper-case runs.
        name="aws_access_key_id",
        regex=re.compile(r"(?<![A-Za-z0-9])(?P<secret>(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])"),
        triggers=("akia", "asia", "abia", "acca"),
    ),
    Rule(
        # AWS secret access keys are 40 chars of base64 with no prefix, so a
        # bare one is indistinguishable from other base64; only labelled ones
        # are caught ("aws_secret_access_key = ...", "SecretAccessKey": ...);
        # the match starts at "secret" (any "aws_" before it is kept anyway).
        # 40 exactly is AWS's fixed length; the lookarounds stop it matching
        # inside a longer base64 string.
        name="aws_secret_key",
        regex=re.compile(
            r"(?i:secret_?access_?key)[\"']?[ \t]*[:=][ \t]*[\"']?"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        triggers=("secret_access_key", "secretaccesskey", "secret_accesskey", "secretaccess_key"),
    ),
    Rule(
        # GitHub: classic tokens "ghp_" (personal), "gho_" (OAuth), "ghu_"
        # (user-to-server), "ghs_" (server-to-server), "ghr_" (refresh) are
        # prefix + 36 alphanumerics; fine-grained PATs are "github_pat_" +
        # 82 chars of [A-Za-z0-9_].  Lower bounds 36 / 22 are the documented
        # minimum body lengths, so a bare "ghp_" mention does not match.
        name="github_token",
        regex=re.compile(
            rf"{_NOT_AFTER_WORD}(?P<secret>gh[pousr]_[A-Za-z0-9]{{36,255}}|github_pat_[A-Za-z0-9_]{{22,255}})"
            r"(?![A-Za-z0-9_])"
        ),
        triggers=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    Rule(
        # GitLab personal/project/group access tokens: "glpat-" + 20 chars;
        # newer routable tokens append ".<version>.<id>" segments.
        name="gitlab_token",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>glpat-[{_B64URL}]{{20,}}(?:\.[{_B64URL}]+)*)"),
        triggers=("glpat-",),
    ),
    Rule(
        # Slack tokens: xoxb (bot), xoxp (user), xoxa (app), xoxr (refresh),
        # xoxs/xoxo (legacy), xoxe (config/rotating), xapp (app-level,
        # "xapp-1-...").  Bodies are dash-separated numbers + alphanumerics;
        # 10+ chars after the prefix skips bare mentions like "xoxb-".
        name="slack_token",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{{10,}})"),
        triggers=("xox", "xapp-"),
    ),
    Rule(
        # Slack incoming-webhook / workflow URLs: anyone holding the path can
        # post into the channel.  Keep the host so readers see it was a Slack
        # webhook; redact the T.../B.../secret path.
        name="slack_webhook",
        regex=re.compile(
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/\-]{8,})"
        ),
        triggers=("hooks.slack.com",),
    ),
    Rule(
        # Stripe secret ("sk_") and restricted ("rk_") keys, live or test:
        # prefix + 24..99 alphanumerics (16 is a safe lower bound).
        # Publishable "pk_" keys are intentionally NOT matched (public).
        name="stripe_key",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>[sr]k_(?:live|test)_[A-Za-z0-9]{{16,}})"),
        triggers=("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
    ),
    Rule(
        # Stripe webhook signing secrets: "whsec_" + 32+ alphanumerics; they
        # let anyone forge webhook events.
        name="stripe_webhook_secret",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>whsec_[A-Za-z0-9]{{24,}})"),
        triggers=("whsec_",),
    ),
    Rule(
        # Google API keys: "AIza" + exactly 35 base64url chars (39 total).
        name="google_api_key",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>AIza[{_B64URL}]{{35}})(?![{_B64URL}])"),
        triggers=("aiza",),
    ),
    Rule(
        # Google OAuth 2 access tokens: "ya29." + long base64url (100+ in
        # practice; 20 keeps a bare "ya29." mention untouched).
        name="google_oauth_token",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>ya29\.[{_B64URL}]{{20,}})"),
        triggers=("ya29.",),
    ),
    Rule(
        # npm automation / publish tokens: "npm_" + 36 alphanumerics.
        name="npm_token",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>npm_[A-Za-z0-9]{{36}})(?![A-Za-z0-9])"),
        triggers=("npm_",),
    ),
    Rule(
        # Hugging Face user access tokens: "hf_" + 34 letters (30 as the
        # bound tolerates older/shorter ones); underscore-free, so names like
        # "hf_hub_download" do not match.
        name="huggingface_token",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>hf_[A-Za-z0-9]{{30,}})(?![A-Za-z0-9_])"),
        triggers=("hf_",),
    ),
    Rule(
        # SendGrid API keys: "SG." + 22 base64url + "." + 43 base64url.
        name="sendgrid_key",
        regex=re.compile(rf"{_NOT_AFTER_WORD}(?P<secret>SG\.[{_B64URL}]{{22}}\.[{_B64URL}]{{43}})"),
        triggers=("sg.",),
    ),
    Rule(
        # JSON Web Tokens: base64url(JSON header) "." payload "." signature.
        # A JSON object starts with '{"', which base64-encodes to "eyJ", so
        # the header prefix is reliable.  10+ chars per segment skips stray
        # "eyJ" fragments; the optional extra segments cover 5-part JWE.
        name="jwt",
        regex=re.compile(
            rf"{_NOT_AFTER_WORD}(?P<secret>eyJ[{_B64URL}]{{10,}}\.[{_B64URL}]{{10,}}\.[{_B64URL}]*"
            rf"(?:\.[{_B64URL}]+){{0,2}})"
        ),
        triggers=("eyj",),
    ),
    # --- Credentials identified by their context ----------------------------
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
        regex=re.compile(r"(?<![A-Za-z0-9_])(?i:basic)[ \t]+(?P<secret>[A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])"),
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
    ),
    Rule(
        # Generic "key<sep>value" pairs whose key names a secret:
        #   password=hunter2   token: abc   "api_key": "..."   ?token=...&
        #   \"secret\": \"...\" (JSON escaped inside a string)   --password=x
        # The regex starts at the secret *word*, so it is only tried where a
        # trigger word occurs; _accept_pair then recovers the whole key and applies
        # secret_key_kind(), so "token_count=512" or "max_tokens=1024" never
        # qualify (the word must be followed directly by the separator).
        # Separators: = : := => ; "==" is a comparison in code, not an
        # assignment.  Value forms, one "secret..." group each:
        #   secret_dq  "..." with \-escapes (JSON); an unterminated quote
        #              (truncated log line) runs to the end of the line, which
        #              also means this branch never fails after a long scan
        #              (linear worst case, see the module docstring)
        #   secret_esc \"...\" (JSON string embedded in a JSON string)
        #   secret_sq  '...'
        #   secret_bare unquoted, up to whitespace , ; or brackets, and up to
        #               "&" only when a "name=" follows it (the next query
        #               parameter), so "pw=Tr0ub&3x" is redacted whole.
        name="secret_pair",
        regex=re.compile(
            rf"(?i:(?P<word>{_PAIR_WORDS}))(?P<sep>\\?[\"']?[ \t]*(?::=|=>|[:=](?!=))[ \t]*)"
            r"(?:\\\"(?P<secret_esc>[^\"\\\r\n]*)\\\""
            r"|\"(?P<secret_dq>(?:\\.|[^\"\\\r\n])*)(?:\"|(?=[\r\n\\]|$))"
            r"|'(?P<secret_sq>(?:\\.|[^'\\\r\n])*)(?:'|(?=[\r\n\\]|$))"
            r"|(?P<secret_bare>(?:[^\s\"'&,;<>()\[\]{}\\]|&(?![A-Za-z0-9_.\-\[\]]*=))+))"
        ),
        # Where each _PAIR_WORDS alternative starts ("passw" covers
        # password/passwords/passwd).
        triggers=(
            "passw", "passphrase", "pwd", "secret", "csrftoken", "token", "api",
            "access", "private", "signing", "encryption", "master", "oauth",
            "auth", "cookie", "credential", "session", "jsessionid", "phpsessid",
        ),
        accept=_accept_pair,
    ),
)


# --------------------------------------------------------------------------
# Engine
# --------------------------------------------------------------------------


def _trie_pattern(words: list[str]) -> str:
    """Regex matching any of ``words``, written as a trie ("sk-(?:ant-)?")
    so ``re`` decides on one character at a time instead of retrying every
    word at every position; optional tails are greedy, so the LONGEST
    trigger at a position is the one captured."""
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alternatives = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
        if "" in node:  # a trigger ends here; a longer one may continue
            return ("(?:" + body + ")?") if len(alternatives) == 1 else body + "?"
        return body

    return emit(root)


_ALL_TRIGGERS = sorted({trigger for rule in RULES for trigger in rule.triggers})
# One regex over the lowercase text finds every trigger occurrence; this
# single scan is the fast pre-check (text with no trigger is returned right
# after it).  It starts with a plain character set, so re skips
# non-candidate characters in C; a zero-width "(?=(...))" form would also
# report overlapping triggers but disables that skip (~1.6x slower), so
# overlaps are handled by resuming the search one character after each hit.
_TRIGGER_SCAN = re.compile(_trie_pattern(_ALL_TRIGGERS))
# Longest trigger found at a position -> indices of the rules whose triggers
# occur there (every trigger that is a prefix of the found one).
_RULES_AT: dict[str, tuple[int, ...]] = {
    found: tuple(
        index for index, rule in enumerate(RULES)
        if any(found.startswith(trigger) for trigger in rule.triggers)
    )
    for found in _ALL_TRIGGERS
}
# Per rule: the secret group indices (see Rule), computed once.
_SECRET_GROUPS: tuple[tuple[int, ...], ...] = tuple(rule.secret_groups() for rule in RULES)


def _find_triggers(lowered: str) -> dict[int, list[int]]:
    """Rule index -> ascending positions where one of its triggers starts."""
    hits: dict[int, list[int]] = {}
    search = _TRIGGER_SCAN.search
    found = search(lowered)
    while found is not None:
        position = found.start()
        for index in _RULES_AT[found.group()]:
            hits.setdefault(index, []).append(position)
        # Resume right after the hit's first character, not after the hit:
        # "secretaccesskey" holds "secret" and "access", "csrftoken" holds
        # "token", and each may anchor a different rule.
        found = search(lowered, position + 1)
    return hits


# An edit: the span [start, end) of the text was replaced by a marker of
# length new_length.  Only the secret itself is an edit; the kept parts of a
# match (key, scheme, host) keep their positions.
_Edit = tuple[int, int, int]


def _secret_span(groups: tuple[int, ...], match: re.Match[str]) -> tuple[int, int] | None:
    """Span of the participating, non-empty secret group, if any."""
    for index in groups:
        start, end = match.span(index)
        if start != -1 and end > start:
            return start, end
    return None


def _marker_for(rule: Rule, groups: tuple[int, ...], match: re.Match[str], text: str) -> tuple[int, int, str] | None:
    """(start, end, marker) for the secret in ``match``, or None if the rule
    declines this match or its secret group is empty."""
    span = _secret_span(groups, match)
    if span is None:
        return None
    kind = rule.accept(match, text) if rule.accept is not None else rule.name
    if kind is None:
        return None
    return span[0], span[1], _marker(kind)


def _apply_at(rule: Rule, groups: tuple[int, ...], text: str, positions: list[int]) -> tuple[str, list[_Edit]]:
    """Try the rule's regex only at ``positions`` (see Rule.anchored)."""
    match_at = rule.regex.match
    pieces: list[str] = []
    edits: list[_Edit] = []
    done = 0  # text[:done] is emitted; a later match may not start before it
    skip_from = skip_until = 0  # inside a declined value (see below)
    for position in positions:
        if position < done or skip_from <= position < skip_until:
            continue
        match = match_at(text, position)
        if match is None:
            continue
        found = _marker_for(rule, groups, match, text)
        if found is None:
            # Declined ("pwd=/home/x", "token: expired").  Later anchors in
            # the key part or at the value's first character still get a
            # try ("Basic Basic <b64>"), but not those strictly inside the
            # declined value: that keeps the work linear on inputs like
            # "pwd=/pwd=/pwd=/..." where every value contains the next key.
            span = _secret_span(groups, match)
            if span is not None:
                skip_from, skip_until = span[0] + 1, span[1]
            continue
        start, end, marker = found
        pieces.append(text[done:start])
        pieces.append(marker)
        edits.append((start, end, len(marker)))
        done = match.end()
        pieces.append(text[end:done])
    if not edits:
        return text, edits
    pieces.append(text[done:])
    return "".join(pieces), edits


def _apply_searched(rule: Rule, groups: tuple[int, ...], text: str) -> str:
    """Run the rule's regex over the whole text (see Rule.anchored)."""

    def replace(match: re.Match[str]) -> str:
        found = _marker_for(rule, groups, match, text)
        if found is None:
            return match.group(0)
        start, end, marker = found
        return text[match.start():start] + marker + text[end:match.end()]

    return rule.regex.sub(replace, text)


def _shift(positions: list[int], edits: list[_Edit]) -> list[int]:
    """Map positions through ``edits`` (ascending, non-overlapping): drop the
    ones inside a replaced secret, move later ones by the length change."""
    shifted: list[int] = []
    edit_index = 0
    delta = 0
    for position in positions:
        while edit_index < len(edits) and edits[edit_index][1] <= position:
            start, end, new_length = edits[edit_index]
            delta += new_length - (end - start)
            edit_index += 1
        if edit_index < len(edits) and edits[edit_index][0] <= position:
            continue  # inside a secret that is now a marker
        shifted.append(position + delta)
    return shifted


def scrub_text(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by a marker.

    Text in which no trigger occurs is returned as the same object.
    """
    if not text:
        return text
    lowered = text.lower()
    hits = _find_triggers(lowered)
    if not hits:
        return text
    # str.lower() changes the length of a few non-ASCII characters
    # ("İ" -> "i̇"), which would misplace anchor positions; such text uses the
    # plain regex search for every rule (slower, same result).
    aligned = len(lowered) == len(text)
    for index, rule in enumerate(RULES):
        positions = hits.get(index)
        if not positions:
            continue
        groups = _SECRET_GROUPS[index]
        if rule.anchored and aligned:
            text, edits = _apply_at(rule, groups, text, positions)
            if edits:
                hits = {i: _shift(p, edits) for i, p in hits.items() if i > index}
        else:
            new_text = _apply_searched(rule, groups, text)
            if new_text != text:
                text = new_text
                lowered = text.lower()
                aligned = len(lowered) == len(text)
                hits = {i: p for i, p in _find_triggers(lowered).items() if i > index}
    return text


def _redact_under_key(key: str, kind: str, value: str) -> str:
    if not value or value.startswith(MARKER_PREFIX) or _is_pwd_path(key, value):
        return scrub_text(value)
    return _marker(kind)


def scrub_value(value: Any) -> Any:
    """Return a scrubbed copy of JSON-like ``value``; the input is not mutated.

    * ``str``: ``scrub_text``.
    * ``dict``: keys kept; a string under a secret-naming key (see
      ``secret_key_kind``) becomes ``[REDACTED:<kind>]``; numbers, bools and
      None under such keys are kept (a ``"token": 3`` counter is no secret);
      containers are walked.  Strings directly inside a *list* under a
      secret key are redacted too (``"set-cookie": ["a=1", "b=2"]``), while a
      nested dict is judged by its own keys.
    * ``list`` / ``tuple``: walked (both come back as lists, like JSON).
    * anything else (int, float, bool, None, unknown objects): returned as is.

    Implemented with an explicit work stack, not recursion, so depth never
    hits Python's recursion limit; already-copied containers are memoised by
    id, so shared references and even cycles are handled.
    """
    if isinstance(value, str):
        return scrub_text(value)
    if not isinstance(value, (dict, list, tuple)):
        return value

    copies: dict[int, Any] = {}
    # Work items: (source container, its copy, inherited secret (key, kind)
    # or None).  The inherited kind applies to strings directly in a list.
    stack: list[tuple[Any, Any, tuple[str, str] | None]] = []

    def copy_of(src: Any, inherited: tuple[str, str] | None) -> Any:
        existing = copies.get(id(src))
        if existing is not None:
            return existing
        dst: Any = {} if isinstance(src, dict) else []
        copies[id(src)] = dst
        stack.append((src, dst, inherited))
        return dst

    def convert(item: Any, secret: tuple[str, str] | None) -> Any:
        if isinstance(item, str):
            if secret is not None:
                return _redact_under_key(secret[0], secret[1], item)
            return scrub_text(item)
        if isinstance(item, dict):
            return copy_of(item, None)
        if isinstance(item, (list, tuple)):
            return copy_of(item, secret)
        return item

    root = copy_of(value, None)
    while stack:
        src, dst, inherited = stack.pop()
        if isinstance(src, dict):
            for key, item in src.items():
                secret = None
                if isinstance(key, str):
                    kind = secret_key_kind(key)
                    if kind is not None:
                        secret = (key, kind)
                dst[key] = convert(item, secret)
        else:
            dst.extend(convert(item, inherited) for item in src)
    return root
