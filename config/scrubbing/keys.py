"""Keys that name a secret (``password``, ``api_key``, ``X-Api-Key``...), shared by the text
rules (``key=value``, ``--flag value``) and by ``scrub_value``'s dict walk."""

from __future__ import annotations

import re

# Last word of a key -> kind of secret.  Only the last word counts (see the
# package docstring): "token" in "token_count" qualifies "count".
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
    "accountkey": "secret",  # Azure storage connection strings
    "privatekey": "private_key",
    "signingkey": "secret",
    "encryptionkey": "secret",
    "masterkey": "secret",
    "sessionid": "session",
    "sessionkey": "session",
}

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
PLACEHOLDER_VALUES = frozenset({
    "null", "none", "nil", "true", "false", "undefined", "empty",
    "str", "string", "bytes", "int", "optional", "any", "secretstr",
})
# Masks ("****", "xxxx"), <placeholders>, ${VAR} and {{ template }} references.
MASKED_VALUE = re.compile(r"[*xX•]+|<[^<>]*>|\$\{[^{}]*\}|\{\{[^{}]*\}\}")


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
    return _SECRET_LAST_WORDS.get(words[-1])


def is_pwd_path(key: str, value: str) -> bool:
    """``PWD=/home/x``: the shell's working directory, not a password."""
    return key.lower().endswith("pwd") and _PATH_VALUE.match(value) is not None


def is_placeholder(value: str) -> bool:
    """A value that stands for a secret without being one (null, a type name, a mask)."""
    return value.lower() in PLACEHOLDER_VALUES or MASKED_VALUE.fullmatch(value) is not None
