"""Keys that name a secret (``password``, ``api_key``, ``X-Api-Key``...), shared by the text
rules (``key=value``, ``--flag value``) and by ``scrub_value``'s dict walk."""

from __future__ import annotations

import re
from urllib.parse import unquote

# Last word of a key -> kind of secret.  Only the last word counts (see the
# package docstring): "token" in "token_count" qualifies "count".
_SECRET_LAST_WORDS = {
    "password": "password",
    "passwords": "password",
    "passwd": "password",
    "passphrase": "password",
    "pwd": "password",
    "pass": "password",  # DB_PASS, SMTP_PASS
    "pat": "token",  # a personal access token: GITHUB_PAT, AZURE_DEVOPS_PAT
    "pw": "password",  # DB_PW
    "pswd": "password",
    "psw": "password",
    "creds": "credentials",
    "passcode": "password",
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
    "requirepass": "password",  # Redis's own setting, and its replicas' masterauth
    "masterauth": "password",
    "mnemonic": "secret",  # a wallet's seed words
    "seedphrase": "secret",
    "dockerconfigjson": "credentials",  # a registry's auths, base64 (Kubernetes secrets)
    "dockercfg": "credentials",
}

# Last two words joined -> kind, for keys whose last word alone ("key", "id")
# is far too generic to mean a secret ("cache_key", "user_id").
_SECRET_LAST_PAIRS = {
    "apikey": "api_key",
    "secretkey": "secret",
    "accesskey": "secret",
    "accountkey": "secret",  # Azure storage connection strings
    "privatekey": "private_key",
    "signingkey": "secret",
    "encryptionkey": "secret",
    "masterkey": "secret",
    "sessionid": "session",
    "sessionkey": "session",
    "appkey": "api_key",  # Datadog's DD_APP_KEY
    "applicationkey": "api_key",  # Datadog's DD-APPLICATION-KEY header
    "authkey": "secret",
    "licensekey": "secret",
    "clientkey": "secret",
    "subscriptionkey": "api_key",  # Azure API Management's Ocp-Apim-Subscription-Key
    "adminkey": "api_key",
    "serverkey": "api_key",
    "seedphrase": "secret",
    "unsealkey": "secret",  # Vault's unseal and recovery keys
    "recoverykey": "secret",
}

# A key written as one word ("secretkey", "accesstoken", "PGPASSWORD", "clientsecret"): the
# secret word it ends with is its head noun, as the last word of a split key would be.
_SECRET_SUFFIXES = (
    ("password", "password"),
    ("passwd", "password"),
    ("passphrase", "password"),
    ("secret", "secret"),
    ("token", "token"),
    ("apikey", "api_key"),
    ("secretkey", "secret"),
    ("accesskey", "secret"),
    ("privatekey", "private_key"),
    ("signingkey", "secret"),
    ("encryptionkey", "secret"),
    ("masterkey", "secret"),
    ("authkey", "secret"),
    ("sessionkey", "session"),
    ("accountkey", "secret"),
    ("credentials", "credentials"),
    ("sessionid", "session"),
)

# Parts of a name that make it secret-like anywhere in it ("password_policy", "tokenizer",
# "cache_key", "keyring"): the value under it is redacted unless it is plainly no credential
# (``plainly_no_credential``).
_SECRET_PARTS = ("secret", "token", "pass", "pwd", "key", "credential")
_SECRET_PART = re.compile("|".join(_SECRET_PARTS), re.IGNORECASE)

# Last words that say what the named thing is when it is not the secret itself: a count, a
# limit, a place, a name or a setting about it ("token_count", "password_reset_url",
# "secret_name", "key_id", "KeyError", "password_policy" is judged by its value instead).
_NOT_SECRET_LAST = frozenset(
    {
        "count",
        "counts",
        "size",
        "length",
        "len",
        "limit",
        "limits",
        "max",
        "min",
        "url",
        "uri",
        "urls",
        "path",
        "paths",
        "file",
        "filename",
        "files",
        "dir",
        "name",
        "names",
        "id",
        "ids",
        "type",
        "types",
        "kind",
        "ttl",
        "expiry",
        "expires",
        "expiration",
        "timeout",
        "format",
        "version",
        "prefix",
        "suffix",
        "header",
        "field",
        "param",
        "used",
        "usage",
        "mode",
        "error",
        "errors",
        "exception",
        "warning",
        "rotation",
        "algorithm",
        "alg",
        "index",
        "provider",
        "source",
        "region",
        "arn",
        "ref",
        "status",
        "enabled",
        "required",
        "missing",
        "valid",
        "invalid",
        "expired",
        "description",
        "label",
        "scope",
        "scopes",
        "audience",
        "issuer",
        "endpoint",
        "host",
        "port",
        "user",
        "username",
        "date",
        "time",
        "at",
        "age",
        "rate",
        "total",
        "remaining",
        "left",
        "cost",
        "lifetime",
        "duration",
        "bytes",
        "bits",
        "location",
        "store",
        "manager",
        "hint",
        "policy",
        "strategy",
        "style",
        "reset",
    }
)
# Words before "key" that make it the key of a record, a cache or a message, not a secret
# ("Idempotency-Key", "cache_key", "partition key", reCAPTCHA's "data-sitekey").
_RECORD_KEYS = frozenset(
    {
        "idempotency",
        "cache",
        "partition",
        "sort",
        "primary",
        "foreign",
        "dedup",
        "dedupe",
        "deduplication",
        "lookup",
        "object",
        "row",
        "site",
        "group",
        "message",
        "hash",
        "map",
        "index",
        "unique",
        "composite",
        "shard",
        "bucket",
        "ordering",
        "natural",
    }
)

# Keys about a public key: its value is meant to be shown.
_PUBLIC_KEY = re.compile(r"pub(?:lic)?_?key|pubkey|publishable", re.IGNORECASE)

# Last three words joined -> kind.  A GCP service-account file's
# private_key_id names the key that signs, so it is treated as secret too.
_SECRET_LAST_TRIPLES = {
    "privatekeyid": "private_key_id",
}

# Splits a key into words: separators, and lower->Upper camelCase humps
# ("accessToken" -> "access", "Token").
_KEY_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")

# Values under pwd/PWD that start like an absolute path (POSIX, home, or a
# Windows drive) are a working directory, not a password.
_PATH_VALUE = re.compile(r"(?:/|~|[A-Za-z]:[\\/])")

# Values after "key=" that are clearly not a secret: null-ish literals, type
# names from annotations ("password: str"), and already-masked values.
PLACEHOLDER_VALUES = frozenset(
    {
        "null",
        "none",
        "nil",
        "true",
        "false",
        "undefined",
        "empty",
        "yes",
        "no",
        "str",
        "string",
        "bytes",
        "int",
        "optional",
        "any",
        "secretstr",
    }
)
# Masks ("****", "xxxx"), <placeholders>, ${VAR}, $VAR, %VAR%, {{ template }} and GitHub
# Actions' ${{ secrets.X }} references,
# names of variables written in capitals with underscores ("YOUR_API_KEY"), "your-token", an
# environment lookup in code (process.env.API_KEY), an attribute read in code whose last name
# is a constant or a snake_case name (settings.SECRET_KEY, self.db_password: a bare dotted word
# such as "hunter2.backup" stays a value) and a YAML tag (!vault, !Ref).
MASKED_VALUE = re.compile(
    r"[*xX•.]{3,}|[*•]+|<[^<>]*>|\$?\{\{[^{}]*\}\}|\$\{[^{}]*\}"
    r"|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%"
    r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|(?i:your|my)[-_ ][A-Za-z_-]+"
    r"|(?:process\.env|os\.environ|ENV|env)\.[A-Za-z_][A-Za-z0-9_]*"
    r"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*"
    r"\.(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
    r"|![A-Za-z][\w:.\-]*"
    # A token's prefix shown before a mask ("gho_*****", "sk-...****").
    r"|[A-Za-z0-9]{1,12}[_\-][*•.]{3,}[A-Za-z0-9]{0,4}"
    # A token's prefix alone, as code builds one ("hsk_" + ...).
    r"|[A-Za-z]{2,8}[_\-]"
    # A template or a command's output ("{{ .Values.x }}", "$(cat f)").
    r"|\{\{.*|\$\(.*"
    # A secret's name in capitals standing for it ("USER:PASSWORD@HOST").
    r"|PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|APIKEY|KEY"
)
# Keys their provider publishes by design, to be embedded in web pages: Stripe's publishable
# keys and Mapbox's public tokens (a Mapbox secret token starts "sk.").
# Razorpay's key ids (its key secret is another value) are given to the browser as well.
PUBLISHED_VALUE = re.compile(
    r"pk_(?:live|test)_[A-Za-z0-9]+|pk\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"
    r"|rzp_(?:live|test)_[A-Za-z0-9]{14}"
)


def secret_key_kind(key: str) -> str | None:
    """Return the secret kind a dict key / ``key=`` name denotes, or None."""
    words = [w.lower() for w in _KEY_WORD_SPLIT.split(key) if w]
    if not words:
        return None
    for width, table in ((3, _SECRET_LAST_TRIPLES), (2, _SECRET_LAST_PAIRS)):
        if len(words) >= width:
            kind = table.get("".join(words[-width:]))
            if kind is not None:
                return kind
    last = words[-1]
    kind = _SECRET_LAST_WORDS.get(last)
    if kind is None and len(last) > 5:
        kind = next((kind for suffix, kind in _SECRET_SUFFIXES if last.endswith(suffix)), None)
    return kind


def key_judgement(key: str) -> tuple[str, bool] | None:
    """``(kind, strong)`` for a key that names a secret (strong: its value is redacted whatever
    it is) or is secret-like (weak: redacted unless ``plainly_no_credential``); None for
    any other key."""
    kind = secret_key_kind(key)
    if kind is not None:
        return (kind, True) if _PUBLIC_KEY.search(key) is None else None
    part = _SECRET_PART.search(key)
    if part is None or _PUBLIC_KEY.search(key) is not None:
        return None
    # A trailing number counts no word ("PuTTY-User-Key-File-3" is about a file).
    words = [w.lower() for w in _KEY_WORD_SPLIT.split(key) if w and not w.isdigit()]
    if not words or words[-1] in _NOT_SECRET_LAST:
        return None
    found = part.group().lower()
    if found == "key" and (
        words[-1][:-3] in _RECORD_KEYS
        or (words[-1] == "key" and len(words) > 1 and words[-2] in _RECORD_KEYS)
    ):
        return None
    return ("password" if found in ("pass", "pwd") else found, False)


# A number, possibly with a unit ("4096", "1.5", "30s", "512MB", "-1").
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?[A-Za-z%]{0,3}")
# A date, or a date and time ("2024-05-17T10:13:00Z").
_MOMENT = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?"
)
# Words (with at most two digits at their end: "gpt2", "v1") or numbers, joined by the
# separators of identifiers, paths and prose ("strict", "Bearer", "created_at", "user:42:name",
# "prod/db-creds"): names and settings, not random strings, whose digits sit inside words.
_WORDS = re.compile(r"(?:[A-Za-z]+\d{0,2}|\d+)(?:[-_.+:/ ](?:[A-Za-z]+\d{0,2}|\d+))*")
# The start of a path or a URL ("/run/secrets/db", "./x", "~/.ssh", "C:\\x", "https://...")
# or an ARN; what a URL holds is still scrubbed by the text rules.
_PATH_START = re.compile(r"/|\.{1,2}/|~/|[A-Za-z]:[\\/]|[a-z][a-z0-9+.-]*://|arn:")
# A lowercase relative path of several segments ("secret/data/x"); random keys have capitals.
_RELATIVE_PATH = re.compile(r"[a-z0-9_.-]+(?:/[a-z0-9_.-]+)+")
# Public SSH keys: what follows their type name is meant to be shared.
_PUBLIC_SSH = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+"
    r"|sk-ssh-ed25519@openssh\.com)(?: |$)"
)
_PLAIN_WORDS = frozenset({"yes", "no", "on", "off", "enabled", "disabled"})


def plainly_no_credential(value: str) -> bool:
    """Whether a value under a secret-like (weak) name is plainly no credential: a number, a
    date, a boolean or placeholder, words, a path, a URL, an ARN or a public SSH key."""
    return (
        names_no_secret(value)
        or value.lower() in _PLAIN_WORDS
        or _NUMBER.fullmatch(value) is not None
        or _WORDS.fullmatch(value) is not None
        or _MOMENT.fullmatch(value) is not None
        or _PATH_START.match(value) is not None
        or _RELATIVE_PATH.fullmatch(value) is not None
        or _PUBLIC_SSH.match(value) is not None
    )


def is_pwd_path(key: str, value: str) -> bool:
    """``PWD=/home/x``: the shell's working directory, not a password."""
    return key.lower().endswith("pwd") and _PATH_VALUE.match(value) is not None


def names_no_secret(value: str) -> bool:
    """A value that is no secret by its form whatever names it: one that stands for a secret
    without being one (null, a type name, a mask, a reference to where it is kept) or a key
    its provider publishes."""
    return (
        value.lower() in PLACEHOLDER_VALUES
        or MASKED_VALUE.fullmatch(value) is not None
        or PUBLISHED_VALUE.fullmatch(value) is not None
    )


# Attributes of a Set-Cookie header: about the cookie, never a credential.
_COOKIE_ATTRIBUTES = frozenset(
    {
        "expires",
        "max-age",
        "domain",
        "path",
        "samesite",
        "secure",
        "httponly",
        "priority",
        "partitioned",
    }
)


def cookie_holds_secret(header: str) -> bool:
    """Whether a Cookie or Set-Cookie header's value may hold a credential: it is redacted
    whole unless every cookie in it is plainly a preference (``theme=dark``, ``lang=en-US``),
    a name that names no secret with a value (percent-decoded, each of its comma-separated
    parts) that is plainly no credential, or a cookie cleared (no value)."""
    for pair in header.split(";"):
        name, _, value = pair.strip().partition("=")
        value = unquote(value.strip('"'))
        if name.lower() in _COOKIE_ATTRIBUTES or not value:  # an attribute, or a cleared cookie
            continue
        if key_judgement(name) is not None or not all(
            plainly_no_credential(part) for part in value.split(",")
        ):
            return True
    return False
