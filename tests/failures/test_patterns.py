"""The pattern engine (failures.patterns): pure tests, no database.

One table of (name, message, expected template) for the normaliser, with the known-wrong
cases marked ``xfail(strict=True)`` so that fixing one of them makes the suite say so; then
the must-not-merge pairs, the grouper and the command's input parsing.
"""

import json
import random
import re

import pytest

from failures.management.commands.fingerprint import read_messages
from failures.patterns import PatternGrouper, fingerprint_of, group_messages, template_of

TRACEBACK = """Traceback (most recent call last):
  File "/srv/agent/tools/http.py", line 88, in fetch
    resp = client.get(url, timeout=30)
  File "/usr/lib/python3.11/site-packages/httpx/_client.py", line 1041, in get
    return self.request("GET", url)
httpx.ConnectTimeout: timed out after 30.0s"""

TRACEBACK_TEMPLATE = """Traceback (most recent call last):
File "<*>", line <*>, in fetch
resp = client.get(url, timeout=<*>)
File "<*>", line <*>, in get
return self.request("GET", url)
httpx.ConnectTimeout: timed out after <*>"""

PG_ERROR = """ERROR:  duplicate key value violates unique constraint "users_email_key"
DETAIL:  Key (email)=(bob@example.com) already exists."""

PG_TEMPLATE = """ERROR: duplicate key value violates unique constraint "users_email_key"
DETAIL: Key (email)=<*> already exists."""


def known_wrong(name, message, expected, reason):
    return pytest.param(
        name, message, expected, id=name, marks=pytest.mark.xfail(strict=True, reason=reason)
    )


TEMPLATE_CASES = [
    # numbers, hex and ids
    ("integer", "Twilio API timeout after 30 seconds", "Twilio API timeout after <*> seconds"),
    ("decimal", "Took 19.05 seconds to build instance", "Took <*> seconds to build instance"),
    ("negative", "retry budget is -3", "retry budget is <*>"),
    ("hex_0x", "segfault at address 0x7f3a2b1c", "segfault at address <*>"),
    (
        "hex_sha",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 not found",
        "commit <*> not found",
    ),
    (
        "prefixed_id",
        "Deleting block blk_-1781953582842324563 of job_1445144423722_0020",
        "Deleting block <*> of <*>",
    ),
    ("letter_id", "request req_dKbLqtAmlhLHUXKdSuNvqlzt overloaded", "request <*> overloaded"),
    (
        "camel_case_name",
        "ConnectionRefusedError: getElementById failed",
        "ConnectionRefusedError: getElementById failed",
    ),
    ("uuid", "instance 0673dd71-34c5-4fbb-86c4-40623fbe45b4 not found", "instance <*> not found"),
    ("id_list", "nodes 3 4 5 6 went down", "nodes <*> went down"),
    # network
    (
        "ipv4_port",
        "connect to 10.0.0.12:5432 failed: Connection refused",
        "connect to <*> failed: Connection refused",
    ),
    ("ipv6", "bind to [2001:db8::8a2e:370:7334]:443 failed", "bind to [<*>]:<*> failed"),
    # Compressed forms that begin with '::': loopback, any address, IPv4-mapped; a scope or
    # a type annotation stays.
    (
        "ipv6_loopback",
        "dial tcp [::1]:6379: connect: refused",
        "dial tcp [<*>]:<*>: connect: refused",
    ),
    (
        "ipv6_any_address_port",
        "Error: listen EADDRINUSE: address already in use :::3000",
        "Error: listen EADDRINUSE: address already in use <*>",
    ),
    ("ipv6_unspecified", "listen tcp [::]:8080: bind failed", "listen tcp [<*>]:<*>: bind failed"),
    ("ipv6_mapped", "reset by ::ffff:10.0.0.7 port 22", "reset by <*> port <*>"),
    ("scope_not_ipv6", "uninitialized constant ::Foo", "uninitialized constant ::Foo"),
    ("annotation_not_ipv6", "x :: Int is not Text", "x :: Int is not Text"),
    ("mac", "DHCPDISCOVER from 00:11:43:e3:ba:c3 via eth1", "DHCPDISCOVER from <*> via eth1"),
    ("hostname", "could not resolve api.openai.com", "could not resolve <*>"),
    (
        "host_port",
        "upstream api.stripe.com:443 closed the stream",
        "upstream <*> closed the stream",
    ),
    ("url", "GET https://api.github.com/repos/x/y/issues?page=2 timed out", "GET <*> timed out"),
    ("email", "user bob.smith+ci@example.co.uk is not allowed", "user <*> is not allowed"),
    # paths
    (
        "unix_path",
        "No such file or directory: /var/lib/app/cache/db.sqlite",
        "No such file or directory: <*>",
    ),
    ("windows_path", r"cannot open C:\Users\bob\AppData\config.ini", "cannot open <*>"),
    ("relative_path", "failed to parse src/config/settings.yaml", "failed to parse <*>"),
    # times and quantities
    ("iso_timestamp", "token expired at 2024-05-01T12:30:45.123Z", "token expired at <*>"),
    (
        "iso_with_space",
        "job started 2017-05-16 05:00:00 never finished",
        "job started <*> never finished",
    ),
    (
        "syslog_timestamp",
        "connection from 24.54.76.216 at Fri Jun 17 07:07:00 2005",
        "connection from <*> at <*>",
    ),
    ("rfc_date", "probe failed at Wed, 12 Nov 2026 07:01:22 GMT", "probe failed at <*>"),
    ("rfc_date_offset", "Date: 12 Nov 2026 07:01:22 +0000", "Date: <*>"),
    ("clock_time", "[22:32:34.846] playback stalled", "[<*>] playback stalled"),
    ("duration_s", "step exceeded its deadline of 30s", "step exceeded its deadline of <*>"),
    ("duration_ms", "query took 150ms (slow)", "query took <*> (slow)"),
    ("duration_spaced", "lifetime <1 sec", "lifetime <*>"),
    (
        "size_units",
        "stored block (estimated size 5.2 KB, free 874.3 MB)",
        "stored block (estimated size <*>, free <*>)",
    ),
    ("size_two_renderings", "sent 1190 bytes (1.16 KB)", "sent <*>"),
    # key/value and quoted values
    (
        "kv_bare",
        "rate limited: remaining=0 reset=1714566000 bucket=search",
        "rate limited: remaining=<*> reset=<*> bucket=<*>",
    ),
    (
        "kv_quoted",
        'tool call failed: name="web_search" reason="quota exceeded"',
        "tool call failed: name=<*> reason=<*>",
    ),
    (
        "kv_bracketed",
        "acquire lock ws=WorkSource{10112}, uid=1000",
        "acquire lock ws=<*>, uid=<*>",
    ),
    (
        "kv_empty_stays",
        "authentication failure; logname= uid=0",
        "authentication failure; logname= uid=<*>",
    ),
    ("kv_operator_stays", "assert x == y", "assert x == y"),
    ("colon_quoted", "validation failed for field: 'email'", "validation failed for field: <*>"),
    ("boolean", "cache hit=false, retry is true", "cache hit=<*>, retry is <*>"),
    (
        "blanks",
        "ask 10.250.18.114:50010 to delete  blk_-5140072410813878235",
        "ask <*> to delete <*>",
    ),
    # literals an agent must see
    ("http_status_after_http", "GET /v1/chat returned HTTP 429", "GET <*> returned HTTP 429"),
    (
        "http_status_reason",
        "upstream answered 503 Service Unavailable",
        "upstream answered 503 Service Unavailable",
    ),
    (
        "http_status_code",
        "openai.RateLimitError: Error code: 429 - rate limited",
        "openai.RateLimitError: Error code: 429 - rate limited",
    ),
    (
        "http_client_error",
        "HTTPError: 404 Client Error: Not Found for url: https://x.io/a",
        "HTTPError: 404 Client Error: Not Found for url: <*>",
    ),
    ("device_name", "link down on eth0", "link down on eth0"),
    ("key_error", "KeyError: 'user_id'", "KeyError: 'user_id'"),
    (
        "attribute_error",
        "AttributeError: 'NoneType' object has no attribute 'items'",
        "AttributeError: 'NoneType' object has no attribute 'items'",
    ),
    (
        "pytest_node",
        "FAILED tests/test_a.py::test_login - assert 200 == 401",
        "FAILED tests/test_a.py::test_login - assert <*> == <*>",
    ),
    (
        "constraint",
        'duplicate key value violates unique constraint "users_email_key"',
        'duplicate key value violates unique constraint "users_email_key"',
    ),
    # multi-line
    ("python_traceback", TRACEBACK, TRACEBACK_TEMPLATE),
    ("postgres_detail", PG_ERROR, PG_TEMPLATE),
    # known wrong: documented, strict so that a fix is noticed
    known_wrong(
        "status_field",
        "status: 404 len: 12",
        "status: 404 len: <*>",
        "a bare 'status:'/'status=' field is masked like the other access-log fields",
    ),
    known_wrong(
        "hex_without_digits",
        "object deadbeef released",
        "object <*> released",
        "hex words with no digit are indistinguishable from words",
    ),
    known_wrong(
        "unknown_tld",
        "could not resolve db.prod.acme",
        "could not resolve <*>",
        "host names are recognised by their top-level domain or a port",
    ),
    known_wrong(
        "word_value",
        "Invalid user admin from 10.1.1.1",
        "Invalid user <*> from <*>",
        "a plain-word value is only found by the grouper, from its siblings",
    ),
    known_wrong(
        "spelled_number",
        "retried three times",
        "retried <*> times",
        "numbers written as words stay words",
    ),
]


@pytest.mark.parametrize(("name", "message", "expected"), TEMPLATE_CASES)
def test_template_of(name, message, expected):
    assert template_of(message) == expected


# --- speed-ups that must not change a template ---------------------------------------------------

# Values whose rules reach across blanks (rules.BRIDGES), quotes and brackets that hold blanks
# (rules.OPENS_SPAN), kept digits, and odd blanks: where piecewise scanning could go wrong.
CROSSING = [
    "Fri Jun 17 07:07:00 PDT 2005",
    "Jun 7, 07:07:00 2005",
    "Mon, Jan 3 1:02:03.5 EST 1999",
    "HTTP/1.1 404 Not Found",
    "status code: 500 Internal Server Error",
    "code 429 Too Many Requests",
    "STATUS 301 Moved Permanently",
    "Status: 204 No Content",
    "HTTP/2 200",
    "code 0 is not 51",
    "sent 1190 bytes (1.16 KB)",
    "5 KB, 10 MiB",
    "<1 sec",
    "~3 ms",
    "took 5 s.",
    "200 OK,",
    "604 Not Found",
    "2017-05-16 05:00:00",
    "2017-05-16 05:00",
    "x=Rect(0, 0 - 720, 1280) y=1",
    'tag="View Lock" id=7',
    "KeyError: 'user_id'",
    "name: 'bob smith' age=3",
    "it's 5 o'clock",
    "eth0 up",
    "eth12 up",
    "a\tb 12",
    "line 1\nline 2",
    "two  blanks 12 KB",
    "nbsp\xa012",
    "2005 Jun 17 07:07:00 2005",
    "Wed, 12 Nov 2026 07:01:22 GMT",
    "Thu, 1 Jan 2026 07:01 +0100",
    "12 Nov 2026 07:01:22 -0500",
    "Wed, 12-Nov-26 07:01:22 UT",
    "Wed Nov 12 2026 07:01:22 GMT+0000",
    "Sat, 5 Dec 2026",
    "3 Jan 2026 INFO",
    "12 Nov 99:01:22 EST",
    "req_dKbLqtAmlhLHUXKdSuNvqlzt.",
    "(XPGjrrQSlBdvIcAqGsHAz)",
    "Nov 12, 2026 7:01:22 AM",
    "11/12/2026, 7:01 PM",
    "at 7:01:22 AMD",
    "12-Nov-26 UTC",
    "12 Nov 2026 GMT 1",
]


def _corpus():
    messages = [case.values[1] if hasattr(case, "values") else case[1] for case in TEMPLATE_CASES]
    messages += CROSSING
    # The same shapes in a sentence, next to each other and with other digits in them.
    messages += [f"at {a} then {b} #{i}" for i, (a, b) in enumerate(zip(CROSSING, CROSSING[1:]))]
    messages += [re.sub(r"\d", lambda d: str((int(d.group()) * 7 + 3) % 10), m) for m in messages]
    return messages


def test_piecewise_templates_equal_whole_scans(monkeypatch):
    from failures.patterns import normalise
    from failures.patterns.scan import scan, tidy

    for cache_size in (1 << 16, 3):  # 3: caches emptied again and again, mid-message too
        monkeypatch.setattr(normalise, "PIECE_CACHE_SIZE", cache_size)
        normalise.clear_caches()
        for message in _corpus() * 2:  # the second time from the caches
            assert template_of(message) == tidy(scan(message)), message
    normalise.clear_caches()


def test_piecewise_templates_equal_whole_scans_for_random_neighbours():
    from failures.patterns.scan import scan, tidy

    rng = random.Random(22)
    words = sorted({word for message in CROSSING for word in message.split()})
    for _ in range(5000):
        message = " ".join(rng.choice(words) for _ in range(rng.randint(2, 8)))
        assert template_of(message) == tidy(scan(message)), message


def test_scanner_shortcuts_change_no_match():
    from failures.patterns import rules

    # The scanner as plainly built: every rule wrapped in its group, tried at every boundary.
    plain = re.compile(
        rf"(?<![^{rules._SEP}])"
        + rules._PLAIN_WORD
        + "(?:"
        + "|".join(f"(?P<{n}>{p})" for n, _, p in rules.RULES)
        + ")"
    )
    for message in _corpus():
        got = [(m.span(), m.lastgroup) for m in rules.SCANNER.finditer(message)]
        assert got == [(m.span(), m.lastgroup) for m in plain.finditer(message)], message


def test_plain_word_shortcut_skips_no_value():
    from failures.patterns import rules, scan

    # The scanner without the plain-word shortcut: every rule tried at every boundary.
    unfiltered = re.compile(
        rf"(?<![^{rules._SEP}])(?!\s)(?:"
        + "|".join(f"(?:{p})(?P<{n}>)" for n, _, p in rules.RULES)
        + ")"
    )
    messages = _corpus() + [
        "request req_dKbLqtAmlhLHUXKdSuNvqlzt failed: ConnectionRefusedError",
        "got XPGjrrQSlBdvIcAqGsHAz, then abc-XPGjrrQSlBdvIcAqGsHAz.",
    ]
    for message in messages:
        assert unfiltered.sub(scan._replace, message) == scan.scan(message), message


def test_values_share_a_shape_but_kept_digits_do_not():
    assert template_of("block blk_-1608999687919862906 stored") == "block <*> stored"
    assert template_of("block blk_-7508999687919862906 stored") == "block <*> stored"
    assert template_of("link down on eth1") == "link down on eth1"
    assert template_of("link down on eth2") == "link down on eth2"
    assert template_of("returned HTTP 404") == "returned HTTP 404"
    assert template_of("returned HTTP 604") == "returned HTTP <*>"


MUST_NOT_MERGE = [
    (
        "connection_outcome",
        [
            "connect to 10.0.0.1:5432 failed: Connection refused",
            "connect to 10.0.0.1:5432 failed: Connection reset",
            "connect to 10.0.0.1:5432 failed: Connection timed out",
        ],
    ),
    (
        "http_status",
        [
            "GET /api/users returned HTTP 401",
            "GET /api/users returned HTTP 403",
            "GET /api/users returned HTTP 404",
        ],
    ),
    (
        "http_reason",
        [
            "request failed: 401 Unauthorized",
            "request failed: 403 Forbidden",
            "request failed: 404 Not Found",
        ],
    ),
    (
        "constraint",
        [
            'duplicate key value violates unique constraint "users_email_key"',
            'duplicate key value violates unique constraint "orders_pkey"',
        ],
    ),
    ("test_name", ["FAILED tests/test_a.py::test_login", "FAILED tests/test_a.py::test_logout"]),
    ("key_error", ["KeyError: 'user_id'", "KeyError: 'email'"]),
    # a constraint name with digits stays literal too, so it never stands for another name
    (
        "constraint_digits",
        [
            'duplicate key value violates unique constraint "events_2026_pkey"',
            'duplicate key value violates unique constraint "orders_pkey"',
        ],
    ),
    (
        "mysql_key",
        [
            "(1062, \"Duplicate entry '7' for key 'orders_2.PRIMARY'\")",
            "(1062, \"Duplicate entry '7' for key 'users.email'\")",
        ],
    ),
]


@pytest.mark.parametrize(("name", "messages"), MUST_NOT_MERGE, ids=[c[0] for c in MUST_NOT_MERGE])
def test_must_not_merge(name, messages):
    templates = {template_of(m) for m in messages}
    assert len(templates) == len(messages)
    assert len({fingerprint_of(t) for t in templates}) == len(messages)
    # grouping them (even four times over, with look-alike siblings) keeps them apart
    grouped = group_messages(messages * 4)
    assert len({fp for fp, _ in grouped}) == len(messages)


def test_outcome_words_never_open_a_slot():
    words = ["refused", "reset", "aborted", "closed", "rejected", "denied"]
    grouped = group_messages([f"upstream call to billing failed: connection {w}" for w in words])
    assert len({fp for fp, _ in grouped}) == len(words)


def test_key_errors_stay_apart_even_when_many():
    keys = ["user_id", "email", "name", "token", "org", "plan"]
    grouped = group_messages([f"KeyError: '{k}'" for k in keys])
    assert len({fp for fp, _ in grouped}) == len(keys)


# --- fingerprint ------------------------------------------------------------------------------


def test_fingerprint_is_short_stable_hex():
    fp = fingerprint_of("Twilio API timeout after <*> seconds")
    assert re.fullmatch(r"[0-9a-f]{16}", fp)
    assert fp == fingerprint_of("Twilio API timeout after <*> seconds")
    assert fp == "0f5c7f6ad2121806"  # pinned: stored fingerprints must not change
    assert fp != fingerprint_of("Twilio API timeout after <*> minutes")


# --- grouper ----------------------------------------------------------------------------------


def test_same_template_same_pattern():
    g = PatternGrouper()
    assert g.add("Invalid user <*> from <*>") == g.add("Invalid user <*> from <*>")


def test_variable_covers_literal():
    g = PatternGrouper()
    fp = g.add("Invalid user <*> from <*>")
    assert g.add("Invalid user admin from <*>") == fp
    assert g.pattern_template(fp) == "Invalid user <*> from <*>"


def test_a_quoted_variable_covers_a_quoted_word_and_nothing_else():
    # "localhost" stands where other messages of the fault hold a host ("<*>" once masked).
    messages = [
        f'connection to server at "{host}" (10.0.3.7), port 5432 failed: FATAL: '
        "sorry, too many clients already"
        for host in ("db-primary.internal", "localhost", "db-2.internal")
    ]
    assert len({fp for fp, _ in group_messages(messages)}) == 1
    g = PatternGrouper()
    fp = g.add('user "<*>" is not allowed here')
    assert g.add('user "postgres" is not allowed here') == fp
    assert g.add("user 'postgres' is not allowed here") != fp  # other quotes: another shape
    assert g.add("user postgres is not allowed here") != fp  # a bare word is not quoted
    assert g.add('user "denied" is not allowed here') != fp  # an outcome word stays


def test_kin_keys_leave_out_what_a_template_quotes_and_nothing_else():
    from failures.patterns import kin_key

    unique = 'duplicate key value violates unique constraint "{}"'
    assert kin_key(unique.format("orders_pkey")) == kin_key(unique.format("users_email_key"))
    assert kin_key(unique.format("<*>")) == kin_key(unique.format("orders_pkey"))
    assert kin_key("KeyError: 'email'") == kin_key("KeyError: 'customer_id'")
    assert kin_key("(<*>, \"Access denied for user 'app'@'<*>' (using password: YES)\")") == (
        kin_key("(<*>, \"Access denied for user 'etl'@'<*>' (using password: YES)\")")
    )
    # Plain words, another quote or another wording are not kin.
    assert kin_key("lock on table orders") != kin_key("lock on table invoices")
    assert kin_key("KeyError: 'email'") != kin_key('KeyError: "email"')
    assert kin_key('lock on ("orders")') != kin_key('lock on "orders"')  # punctuation stays
    assert kin_key(unique.format("orders_pkey")) != kin_key(
        'insert violates foreign key constraint "orders_pkey"'
    )


def test_slot_opens_after_enough_words_and_resolve_follows():
    g = PatternGrouper()
    first = [g.add(f"session closed for user {u}") for u in ["cyrus", "news", "test"]]
    assert len({g.resolve(fp) for fp in first}) == 3  # three words: not yet a variable
    last = g.add("session closed for user root")
    assert {g.resolve(fp) for fp in first} == {last}
    assert g.pattern_template(last) == "session closed for user <*>"
    assert last == fingerprint_of("session closed for user <*>")
    assert g.add("session closed for user zed") == last


def test_learned_values_open_a_sibling_slot():
    g = PatternGrouper()
    opened = [g.add(f"session opened for user {u} by (uid=<*>)") for u in ["cyrus", "news"]]
    assert g.resolve(opened[0]) != g.resolve(opened[1])
    for u in ["cyrus", "news", "test", "root"]:
        g.add(f"session closed for user {u}")
    assert g.resolve(opened[0]) == g.resolve(opened[1])
    assert g.pattern_template(opened[0]) == "session opened for user <*> by (uid=<*>)"


def test_three_states_stay_apart():
    g = PatternGrouper()
    fps = [
        g.add(f"election finished, my state is {s} now")
        for s in ["LOOKING", "LEADING", "FOLLOWING"]
    ]
    assert len({g.resolve(fp) for fp in fps}) == 3


def test_short_messages_never_merge():
    g = PatternGrouper()
    fps = [g.add(f"removing {w}") for w in ["chargen", "daytime", "echo", "time", "discard"]]
    assert len({g.resolve(fp) for fp in fps}) == 5


def test_empty_value_is_not_covered():
    g = PatternGrouper()
    assert g.add("auth failure; uid=<*> rhost=<*> tty=ssh") != g.add(
        "auth failure; uid=<*> rhost= tty=ssh"
    )


def test_different_variable_shapes_do_not_merge():
    g = PatternGrouper()
    assert g.add("session opened for user <*> by (uid=<*>)") != g.add(
        "session opened for user <*> by LOGIN(uid=<*>)"
    )


def test_multi_line_templates_match_line_for_line():
    g = PatternGrouper()
    a = g.add(
        "Traceback (most recent call last):\nFile <*>, line <*>, in run\nValueError: bad input"
    )
    b = g.add(
        "Traceback (most recent call last): File <*>, line <*>, in run ValueError: bad input"
    )
    assert a != b


def test_resume_from_known_patterns():
    g = PatternGrouper(["Invalid user <*> from <*>", "session closed for user <*>"])
    assert g.add("Invalid user zed from <*>") == fingerprint_of("Invalid user <*> from <*>")
    assert g.add("session closed for user zed") == fingerprint_of("session closed for user <*>")
    assert set(g.patterns()) == {
        fingerprint_of("Invalid user <*> from <*>"),
        fingerprint_of("session closed for user <*>"),
    }


def test_resolve_unknown_and_template_unknown():
    g = PatternGrouper()
    assert g.resolve("0000000000000000") == "0000000000000000"
    with pytest.raises(KeyError):
        g.pattern_template("0000000000000000")


def test_group_messages_batch_answers_after_all_merges():
    users = ["cyrus", "news", "test", "root"]
    out = group_messages(
        [f"session closed for user {u}" for u in users] + ["Interrupting SendWorker"]
    )
    assert len(out) == 5
    assert len({fp for fp, _ in out[:4]}) == 1
    assert out[0] == (fingerprint_of("session closed for user <*>"), "session closed for user <*>")
    assert out[4] == (fingerprint_of("Interrupting SendWorker"), "Interrupting SendWorker")


# --- the command's input ----------------------------------------------------------------------


def test_read_messages_skips_blank_lines():
    lines = [json.dumps({"message": "a 1"}) + "\n", "\n", json.dumps({"message": "b"}) + "\n"]
    assert read_messages(lines) == ["a 1", "b"]


@pytest.mark.parametrize("bad", ["{bad\n", '{"msg": "x"}\n', '["message"]\n', '{"message": 3}\n'])
def test_read_messages_names_the_bad_line(bad):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=r"line 2\b"):
        read_messages([json.dumps({"message": "ok"}) + "\n", bad])
