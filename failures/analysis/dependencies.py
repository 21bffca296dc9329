"""The dependencies a failure message names: hosts, endpoints, tables, services. Pure, no Django.

Two patterns that name the same dependency (``db-primary``, ``payments-api``, table ``orders``)
may be one root cause with different symptoms. The rules are data: each is a kind and a
compiled regex whose ``value`` group is the dependency's name, in the order below. Names are
lower-cased, and a table's default schema (``public.``) is dropped so both spellings agree.

Known limits (kept in the tests): a bare word followed by a port (``redis:6379``) is a host only
when it is not a field name (``status:500``, ``line:1234``); an English "table" or "host" in
prose is only taken with a quote, ``=`` or ``:`` after it, or a dotted name.
"""

import re

# Dependencies too common to tell root causes apart: every process talks to itself.
IGNORED = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1"})
# Words that look like ``name:number`` but are fields of a log line, not hosts.
FIELD_WORDS = frozenset(
    [
        "attempt",
        "code",
        "col",
        "column",
        "count",
        "epoch",
        "errno",
        "error",
        "exit",
        "id",
        "len",
        "length",
        "level",
        "limit",
        "line",
        "offset",
        "page",
        "pid",
        "port",
        "retry",
        "size",
        "status",
        "step",
        "took",
        "try",
    ]
)
# Words an English sentence puts after "table" or "service" that are not names.
PROSE_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "at",
        "does",
        "for",
        "from",
        "has",
        "in",
        "is",
        "lock",
        "locked",
        "not",
        "of",
        "on",
        "or",
        "scan",
        "the",
        "to",
        "unavailable",
        "was",
    ]
)
# Source files in a stack trace (``main.py:42``) read like ``host:port``.
SOURCE_SUFFIXES = (
    ".c",
    ".cc",
    ".cpp",
    ".go",
    ".h",
    ".java",
    ".js",
    ".json",
    ".kt",
    ".log",
    ".md",
    ".php",
    ".py",
    ".rb",
    ".rs",
    ".sql",
    ".ts",
    ".txt",
    ".yaml",
    ".yml",
)
# Path segments longer than this that contain a digit are ids (``ch_3Nx9``), masked as ``*``;
# short ones are versions (``v1``, ``v20``) and stay.
ID_SEGMENT_MIN = 4

_NAME = r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9]"

RULES: list[tuple[str, re.Pattern]] = [
    # A URL: scheme://[user[:password]@]host[:port][/path]; http(s) paths also name an endpoint.
    (
        "url",
        re.compile(
            r"\b(?P<scheme>[a-z][a-z0-9+.-]{1,15})://(?:[^\s/@]+@)?"
            rf"(?P<value>{_NAME})(?::\d{{1,5}})?(?P<path>/[^\s?#\"'<>),]*)?",
            re.I,
        ),
    ),
    # host:port not inside a URL (no scheme, slash or @ right before): db-primary:5432.
    (
        "host",
        re.compile(
            r"(?<![\w/@:.-])(?P<value>[A-Za-z][\w-]*(?:\.[\w-]+)*)"
            r":(?P<port>\d{2,5})\b"
        ),
    ),
    # A dotted IPv4 address on its own; the octet range is checked in code.
    ("host", re.compile(r"(?<![\w.])(?P<value>\d{1,3}(?:\.\d{1,3}){3})(?![\w.])")),
    # host=x, host: x, host "x", hostname 'x': libpq, drivers and proxies say it this way.
    ("host", re.compile(rf"\bhost(?:name)?(?:\s*[=:]\s*[\"']?|\s+[\"'])(?P<value>{_NAME})", re.I)),
    # PostgreSQL's relation "orders"; "table orders", "table public.orders", table `orders`.
    (
        "table",
        re.compile(
            r"\b(?:relation|table)\s+[\"'`]?(?P<value>[A-Za-z_][\w$]*"
            r"(?:\.[A-Za-z_][\w$]*)?)",
            re.I,
        ),
    ),
    # SQL in an error: INSERT INTO orders, SELECT ... FROM orders. Upper case only, so an English
    # "reading from payments-api" is not a table.
    (
        "table",
        re.compile(
            r"\b(?:FROM|INTO|UPDATE|JOIN)\s+[\"`]?(?P<value>[A-Za-z_][\w$]*"
            r"(?:\.[A-Za-z_][\w$]*)?)"
        ),
    ),
    # A service by its conventional suffix: payments-api, auth-service, billing_worker, user-db.
    (
        "service",
        re.compile(
            r"\b(?P<value>[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*[-_](?:api|service|svc"
            r"|gateway|server|worker|queue|db|cache|proxy|broker))\b",
            re.I,
        ),
    ),
    # service=x, service: x, service "x".
    ("service", re.compile(rf"\bservice(?:\s*[=:]\s*[\"']?|\s+[\"'])(?P<value>{_NAME})", re.I)),
]


def dependencies_of(message: str) -> set[str]:
    """``kind:name`` of every dependency the message names (``host:db-primary``)."""
    found: set[str] = set()
    for kind, regex in RULES:
        for match in regex.finditer(message):
            found |= _named(kind, match)
    return {dep for dep in found if dep.split(":", 1)[1] not in IGNORED}


def _named(kind: str, match: re.Match) -> set[str]:
    value = match.group("value").lower()
    if kind == "url":
        found = {f"host:{value}"}
        path = match.group("path")
        if match.group("scheme").lower() in ("http", "https") and path and path != "/":
            found.add(f"endpoint:{value}{_endpoint_path(path)}")
        return found
    if kind == "host" and not _is_host(value, match):
        return set()
    if kind == "table":
        value = value.removeprefix("public.")
        if value in PROSE_WORDS:
            return set()
    if kind == "service" and value in PROSE_WORDS:
        return set()
    return {f"{kind}:{value}"}


def _is_host(value: str, match: re.Match) -> bool:
    if value.endswith(SOURCE_SUFFIXES) or value in FIELD_WORDS:
        return False
    if value[0].isdigit():  # an IPv4 address: every octet 0-255
        return all(int(octet) <= 255 for octet in value.split("."))
    return True


def _endpoint_path(path: str) -> str:
    segments = path.rstrip("/").split("/")
    return "/".join(
        "*" if len(s) >= ID_SEGMENT_MIN and any(c.isdigit() for c in s) else s for s in segments
    )
