"""lessons.matching: which patterns fit which messages, and how. Pure, no database.

One table of (name, pattern, message, expected kind or None), the known-wrong fits listed too.
"""

import random

import pytest

from failures.patterns import template_of
from lessons.matching import TEMPLATE, WORDS, _in_order, compile_pattern, match_fit, normalise

CASES = [
    # A quoted name is the fault: another module is another fault.
    (
        "quoted name",
        "No module named 'cv2'",
        "ModuleNotFoundError: No module named 'cv2'",
        TEMPLATE,
    ),
    (
        "other quoted name",
        "No module named 'cv2'",
        "ModuleNotFoundError: No module named 'yaml'",
        None,
    ),
    (
        "quoted name, words",
        "cv2 not installed: No module named 'cv2'",
        "ModuleNotFoundError: No module named 'cv2'",
        WORDS,
    ),
    (
        "other quoted name, words",
        "cv2 not installed: No module named 'cv2'",
        "ModuleNotFoundError: No module named 'yaml'",
        None,
    ),
    (
        "dotted name",
        "No module named 'google.generativeai'",
        "ModuleNotFoundError: No module named 'google.generativeai'",
        TEMPLATE,
    ),
    (
        "dotted name, another",
        "No module named 'google.generativeai'",
        "ModuleNotFoundError: No module named 'google'",
        None,
    ),
    # A quoted path is the same file with or without a leading ./ or a trailing slash.
    (
        "quoted path with ./",
        "No such file or directory: 'config/agent.local.yaml'",
        "FileNotFoundError: [Errno 2] No such file or directory: './config/agent.local.yaml'",
        TEMPLATE,
    ),
    (
        "quoted directory with a trailing slash",
        "Permission denied: '/srv/exports'",
        "PermissionError: [Errno 13] Permission denied: '/srv/exports/'",
        TEMPLATE,
    ),
    (
        "quoted path, another file",
        "No such file or directory: './config/agent.local.yaml'",
        "FileNotFoundError: [Errno 2] No such file or directory: 'config/agent.yaml'",
        None,
    ),
    (
        "quoted directory, another below it",
        "Permission denied: '/srv/'",
        "PermissionError: [Errno 13] Permission denied: '/srv/exports'",
        None,
    ),
    # A quoted relative path is the same file seen from another directory, or with a slash
    # doubled; not a file whose name only ends like it, nor one under another name.
    (
        "relative path from another directory",
        "No such file or directory: 'config/agent.yaml'",
        "FileNotFoundError: [Errno 2] No such file or directory: '/work/app/config/agent.yaml'",
        WORDS,
    ),
    (
        "doubled slash",
        "No such file or directory: 'config/agent.yaml'",
        "[Errno 2] No such file or directory: 'config//agent.yaml'",
        TEMPLATE,
    ),
    (
        "a name that only ends like it",
        "No such file or directory: 'config/agent.yaml'",
        "[Errno 2] No such file or directory: '/work/app/myconfig/agent.yaml'",
        None,
    ),
    (
        "an absolute path is itself",
        "No such file or directory: '/config/agent.yaml'",
        "[Errno 2] No such file or directory: '/work/config/agent.yaml'",
        None,
    ),
    (
        "a URL keeps its two slashes",
        "could not read Username for 'https://github.com'",
        "fatal: could not read Username for 'https:/github.com'",
        None,
    ),
    # A distinctive word the message misses, with another said in its place: another fault.
    (
        "a word replaced in place",
        "Keys for idempotent requests can only be used with the same "
        "parameters they were first used with",
        "Keys for idempotent requests can only be used "
        "for the same endpoint they were first used for ('/v1/refunds').",
        None,
    ),
    (
        "a word replaced by two",
        "violates unique constraint on orders",
        "insert violates foreign key constraint on orders",
        None,
    ),
    (
        "a word missing, nothing in its place",
        "cannot reach billing gateway upstream",
        "cannot reach gateway upstream after 3 attempts",
        WORDS,
    ),
    # The kind of timeout: each word of the pattern occurs in the message, not in its place.
    (
        "statement timeout",
        "canceling statement due to statement timeout",
        "psycopg.errors.QueryCanceled: canceling statement due to statement timeout",
        TEMPLATE,
    ),
    (
        "lock timeout for statement timeout",
        "canceling statement due to statement timeout",
        "psycopg.errors.LockNotAvailable: canceling statement due to lock timeout",
        None,
    ),
    (
        "kind of timeout, words",
        "statement timeout postgres",
        "postgres: canceling statement due to lock timeout",
        None,
    ),
    (
        "kind of timeout kept, words",
        "statement timeout postgres",
        "statement timeout hit while postgres ran the report",
        WORDS,
    ),
    (
        "kind of a limit",
        "You have exceeded a secondary rate limit",
        "403: API rate limit exceeded for 203.0.113.54",
        None,
    ),
    (
        "kind named past a generic word",
        "twilio_timeout",
        "Twilio API timeout after 30 seconds",
        WORDS,
    ),
    (
        "another kind nearer the head",
        "twilio_timeout",
        "twilio webhook sent; redis lock timeout after 30 seconds",
        None,
    ),
    # Generic words shared across faults make no fit.
    (
        "git auth for postgres auth",
        "fatal: Authentication failed for <*>",
        'psycopg2.OperationalError: connection to server at "localhost" (127.0.0.1), port 5432 '
        'failed: FATAL:  password authentication failed for user "postgres"',
        None,
    ),
    (
        "git auth",
        "fatal: Authentication failed for <*>",
        "fatal: Authentication failed for 'https://github.com/acme/api.git/'",
        TEMPLATE,
    ),
    ("generic words only", "request failed with error", "the request failed with an error", None),
    # Identifiers stay whole.
    (
        "identifier holds the word",
        "url property is required",
        "tool read_url failed: bad input",
        None,
    ),
    ("identifier whole", "read_url returned <*>", "tool read_url returned 404", TEMPLATE),
    ("words inside a word", "limit exceeded", "rate limiting exceeded for tenant", None),
    # Templates align in order, their literal tokens in place.
    (
        "template",
        "Twilio API timeout after <*> seconds",
        "Twilio API timeout after 30 seconds (req 8f3a9c2e11)",
        TEMPLATE,
    ),
    (
        "template words in order",
        "Twilio API timeout after <*> seconds",
        "Twilio API timeout fired after 30 seconds",
        WORDS,
    ),
    (
        "template words out of order",
        "Twilio API timeout after <*> seconds",
        "after 30 seconds the Twilio API timeout fired",
        None,
    ),
    (
        "words out of order",
        "tool_use ids without tool_result blocks",
        "unexpected tool_use_id in tool_result blocks: each tool_result needs a tool_use",
        None,
    ),
    # Quoted names must occur quoted; CamelCase codes and glued parts must occur too.
    (
        "quoted generic word",
        "The 'To' number <*> is not a valid phone number.",
        "Unable to create record: The 'From' number +15005550001 is not a valid phone number",
        None,
    ),
    (
        "quoted name with a number",
        "'utf-8' codec can't decode byte <*> in position <*>",
        "'charmap' codec can't decode byte 0x9d in position 3321",
        None,
    ),
    (
        "quoted name with a number, held",
        "'utf-8' codec can't decode byte <*> in position <*>",
        "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
        TEMPLATE,
    ),
    (
        "a class with a suffix",
        "An error occurred (ExpiredToken) when calling the <*> operation",
        "An error occurred (ExpiredTokenException) when calling the GetCallerIdentity operation",
        TEMPLATE,
    ),
    (
        "another code",
        "An error occurred (ExpiredToken) when calling the <*> operation: The "
        "security token included in the request is expired",
        "An error occurred "
        "(InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token "
        "included in the request is invalid.",
        None,
    ),
    (
        "glued part missing",
        "No matching distribution found for torch==<*>+cu<*>",
        "ERROR: No matching distribution found for torch",
        None,
    ),
    ("glued wildcard", "KeyError: '<*>_id'", "KeyError: 'user_id' in client", TEMPLATE),
    ("glued wildcard, other word", "KeyError: '<*>_id'", "KeyError: 'user_name' in client", None),
    ("status code literal", "http 401 unauthorized", "HTTP 401 Unauthorized", TEMPLATE),
    ("other status code", "http 401 unauthorized", "HTTP 403 Forbidden", None),
    (
        "numbers normalised",
        "order 12345 not found in shard 7",
        "order 99812 not found in shard 3",
        TEMPLATE,
    ),
    (
        "punctuation between words",
        "Errno 111 Connection refused",
        "[Errno 111] Connection refused",
        TEMPLATE,
    ),
    # Slugs: their words as a contiguous run, or whole as one identifier; else by their words.
    ("slug as a run", "litellm_timeout", "litellm timeout after 600s", TEMPLATE),
    (
        "slug whole",
        "rate_limit_exceeded",
        "error code rate_limit_exceeded from upstream",
        TEMPLATE,
    ),
    (
        "slug by words",
        "api_429_rate_limit",
        "HTTP 429 from api.openai.com: rate limit reached",
        WORDS,
    ),
    ("slug, other code", "api_429_rate_limit", "HTTP 503 from api.openai.com: rate limit", None),
    (
        "slug words in any order",
        "anthropic_overloaded_529",
        "Error code: 529 - {'type': 'overloaded_error', 'message': 'Overloaded'} from anthropic",
        WORDS,
    ),
    # A word the pattern says twice counts once: an expired certificate shares "certificate
    # verify" with a missing local issuer, not three of its five words.
    (
        "repeated word counted once",
        "certificate verify failed: unable to get local issuer certificate",
        "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired",
        None,
    ),
    (
        "repeated word, its other words found",
        "certificate verify failed: unable to get local issuer certificate",
        "request to https://registry.npmjs.org/vite failed, reason: unable to get local issuer "
        "certificate",
        WORDS,
    ),
    # A single generic word is no fit at all; one distinctive word is.
    ("one generic word", "timeout", "read timeout on socket", None),
    ("one distinctive word", "deadlock", "ERROR: deadlock detected", TEMPLATE),
    ("wildcard only", "<*>", "anything at all", None),
    ("empty", "", "anything at all", None),
]


@pytest.mark.parametrize(
    "name, pattern, message, expected", CASES, ids=[case[0] for case in CASES]
)
def test_fit(name, pattern, message, expected):
    found = match_fit(pattern, message)
    assert (found.kind if found else None) == expected


def test_a_template_fit_scores_one_and_a_words_fit_its_share():
    assert (
        match_fit(
            "Twilio API timeout after <*> seconds", "Twilio API timeout after 30 seconds"
        ).score
        == 1.0
    )
    partial = match_fit(
        "stripe webhook signature mismatch", "Stripe: the webhook signature did not verify"
    )
    assert partial.kind == WORDS and partial.score == pytest.approx(3 / 4)


def test_a_more_specific_pattern_is_larger():
    assert (
        compile_pattern("canceling statement due to statement timeout").size
        > compile_pattern("statement timeout").size
        > compile_pattern("timeout").size
    )


def test_the_literal_tokens_a_pattern_requires():
    assert compile_pattern("No module named 'cv2'").quoted == ("'cv2'",)
    assert compile_pattern("No module named 'cv2'").codes == ("cv2",)
    compiled = compile_pattern("tool read_url got HTTP 404 from api.acme.io")
    assert (compiled.names, compiled.codes) == (("api.acme.io", "read_url"), ("404",))
    assert compile_pattern("canceling statement due to statement timeout").kinds == {
        ("statement", "timeout")
    }
    assert compile_pattern("You have exceeded a secondary rate limit").kinds == {
        ("rate", "limit"),
        ("secondary", "limit"),
    }
    assert compile_pattern("The 'To' number <*>").quoted == ("'to'",)
    assert compile_pattern("An error occurred (ExpiredToken)").classes == ("expiredtoken",)
    glued = compile_pattern("missing key '<*>_id'")
    assert (glued.names, glued.codes, glued.quoted) == ((), (), ())  # glued to a wildcard
    assert compile_pattern("missing key '<*>_id'").fragments == (("_id", True),)


def _common_subsequence(sequence, words):
    """The longest common subsequence's length, by the textbook dynamic programme."""
    previous = [0] * (len(words) + 1)
    for word in sequence:
        current = [0]
        for j, theirs in enumerate(words):
            current.append(previous[j] + 1 if word == theirs else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def test_words_in_order_count_the_longest_common_subsequence():
    rng = random.Random(22)
    for _ in range(20000):
        sequence = tuple(rng.choice("abcdef") for _ in range(rng.randint(0, 8)))
        words = tuple(rng.choice("abcdefgh") for _ in range(rng.randint(0, 70)))
        assert _in_order(sequence, words) == _common_subsequence(sequence, words), (
            sequence,
            words,
        )


# Which HTTP status codes stay literal is one rule (failures.patterns HTTP_STATUS): a message's
# number is kept by lesson matching exactly when the pattern engine keeps it in the template.
STATUS_CASES = [
    ("HTTP 404 from https://api.example.com/v2/items", "404", True),
    ("HTTP/1.1 503 Service Unavailable", "503", True),
    ("status code 403 while listing buckets", "403", True),
    ("Error code: 429 - {'error': {'message': 'Rate limit reached'}}", "429", True),
    ("401 Unauthorized for url: https://api.github.com/user", "401", True),
    ("Server answered 502 Bad Gateway", "502", True),
    ("STATUS 500 returned by upstream", "500", True),
    ("connect to 10.0.0.5 port 443 failed: Connection refused", "443", False),
    ("Rate limit exceeded (429) on model claude-3-5-sonnet", "429", False),
    ("processed 250 rows before the deadlock", "250", False),
    ("worker 301 exited with signal 9", "301", False),
]


@pytest.mark.parametrize("message, number, kept", STATUS_CASES)
def test_matching_keeps_the_status_codes_the_engine_keeps(message, number, kept):
    template = template_of(message)
    normalised = normalise(message)
    assert (number in template) is kept, template
    assert (number in normalised) is kept, normalised
