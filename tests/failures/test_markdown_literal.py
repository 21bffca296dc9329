"""The one rule for agent text in markdown (``inline``), over every place a value stands.

Each value goes into each line shape the answers use (after a label, in the service's bold, in
quotes, ending a heading, starting a list item's content, in a nested item), in a small document
with the service's text around it, parsed as CommonMark and as CommonMark with GitHub's
strikethrough, tables and autolinks. For every value: the raw markdown holds it verbatim (as
flattened: one line, controls removed), a reader sees exactly it, and the document has the
markup it has with a harmless word in its place, so none came from the value. A code span the
rule writes holds one whole value.

Three corpora: the end-to-end test's hostile strings, names, paths, URLs, code and numbers built
around every ASCII punctuation mark, and a corpus of real-world agent text written without
reading the renderer (tests/failures/markdown_blind_corpus.py), whose cases are parametrised by
name so that each one's verdict stands apart.
"""

import string

import pytest
from markdown_it import MarkdownIt

from failures.records.markdown import flatten, inline, literal

from .markdown_blind_corpus import CASES as BLIND_CASES
from .test_markdown_hostile import HOSTILE, shown_text, structure

COMMONMARK = MarkdownIt("commonmark")
# GitHub's extensions; linkify without fuzzy links (bare "example.com"), as GitHub links only
# URLs with a scheme, www. and e-mail addresses.
GFM = MarkdownIt("commonmark", {"linkify": True}).enable(["linkify", "table", "strikethrough"])
GFM.linkify.set({"fuzzy_link": False})
PARSERS = {"commonmark": COMMONMARK, "gfm": GFM}

# Every line shape the markdown answers put a value in ({} is the value), each in a list under a
# heading as the answers are, with the next item after it.
SHAPES = [
    "- {}",
    "- **Task:** {}",
    "### 2026-02-01T11:00:00Z — {}",
    "## Boot briefing for {}",
    "- **{}** — skip until 2026-12-01T00:00:00Z: this task failed 3 times.",
    "- {} / task: repeat of 3 failures since 2026-11-01T00:00:00Z",
    "- #4 “{}” (rate_limit): 3 failures, 2 agents",
    "- Known fix (approved lesson): {}",
    "  - Hint (unreviewed, from this agent's failures): {}",
    "- ✓ **{}** (Task #{}) - completed",
    "- 2026-02-01T11:00:00Z · **t** · {}: {} (open, attempt 2)",
    "Generated 2026-02-01T11:00:00Z for this agent. Task type: {}.",
    "- fixed by lesson approval ({}, {}) from 2026-02-01T11:00:00Z",
    "- {}(1) and {}[2]",  # no answer writes this, but a value must not rely on what follows
]
HARMLESS = "plain"

PUNCTUATION = string.punctuation  # the 32 ASCII punctuation marks
FORMS = [
    "{p}",
    "{p}{p}{p}",
    "{p}name",
    "name{p}",
    "na{p}me",
    "{p}{p}x{p}{p}",
    "{p} start",
    "end {p}",
    "a {p}b{p} c",
    "src/a{p}b.js",
    "https://x.example/a{p}b?q=1&r=2#f",
    "f(x){p}",
    "1{p}5",
    "{p}1",
    "deploy{p}4",
]
# GitHub links these without a scheme or brackets.
AUTOLINKED = [
    "ops@example.com",
    "mail ops@example.com now",
    "git@github.com:org/repo.git",
    "www.example.com/status",
    "see WWW.example.com",
    "ftp://files.example.com/x",
]
GENERATED = sorted({form.format(p=p) for p in PUNCTUATION for form in FORMS} | set(AUTOLINKED))


def document(shape: str, value: str) -> str:
    return f"## Section\n\n- before\n{shape.format(value, value)}\n- after\n"


def code_spans(tokens) -> list[str]:
    return [
        child.content
        for token in tokens
        if token.type == "inline"
        for child in token.children
        if child.type == "code_inline"
    ]


def check(sent: str) -> None:
    value = flatten(sent)
    for shape in SHAPES:
        raw = document(shape, inline(sent))
        assert value in raw, (shape, raw)
        for name, parser in PARSERS.items():
            tokens = parser.parse(raw)
            assert structure(tokens) == structure(parser.parse(document(shape, HARMLESS))), (
                name,
                shape,
                raw,
            )
            assert value in shown_text(tokens), (name, shape, raw)
            assert all(span == value for span in code_spans(tokens)), (name, shape, raw)


@pytest.mark.parametrize("sent", [case[1] for case in HOSTILE], ids=[case[0] for case in HOSTILE])
def test_hostile_strings_are_verbatim_and_inert_in_every_line_shape(sent):
    check(sent)


def test_names_paths_urls_code_and_numbers_with_every_punctuation_mark():
    for sent in GENERATED:
        check(sent)


@pytest.mark.parametrize(
    "sent", [case[2] for case in BLIND_CASES], ids=[case[0] for case in BLIND_CASES]
)
def test_real_world_agent_text_written_blind(sent):
    check(sent)


@pytest.mark.parametrize(
    "value",
    [
        "fetch_user_data",
        "deployer-4",
        "src/capture.js",
        "rate limit (60s)",
        "HTTP 429: rate limit",
        "Twilio API timeout after 30 seconds",
        "C:\\Users\\runner\\x.tmp",
        "50% of 1,234.56",
        "KeyError: 'user_id'",
        "a - b + c = d",
        "v1.2.3-rc.1",
        "x & y",
        "#123 fixed",
        "implement_backoff",
        '{"done": 47, "total": 100}',
    ],
)
def test_plain_values_are_written_as_they_are(value):
    assert literal(value) == value


@pytest.mark.parametrize(
    "value, written",
    [
        ("__init__.py", "`__init__.py`"),
        ("HTTP <*> from <*>", "`HTTP <*> from <*>`"),
        ("run `make test`", "`` run `make test` ``"),
        ("`x`", "`` `x` ``"),
        ("a``b", "```a``b```"),
        ("- cleanup", "`- cleanup`"),
        ("see https://status.example.com", "`see https://status.example.com`"),
        ("path\\", "`path\\`"),
    ],
)
def test_other_values_are_set_in_a_code_span_longer_than_their_backticks(value, written):
    assert literal(value) == written


def test_a_value_cannot_define_a_link_that_another_value_uses():
    """A link reference definition starts a line or an item, and holds anywhere in the document."""
    raw = document("- {}", inline("[x]: /evil")) + f"- **{inline('see [x] now')}** — retry\n"
    for parser in PARSERS.values():
        tokens = parser.parse(raw)
        assert not [c for t in tokens for c in t.children or [] if c.type == "link_open"]
        assert "[x]: /evil" in shown_text(tokens) and "see [x] now" in shown_text(tokens)


def test_no_value_is_escaped_with_a_backslash():
    """The raw text gains no backslash: a model would copy it into its next call."""
    for sent in GENERATED + [case[2] for case in BLIND_CASES]:
        value = flatten(sent)
        assert inline(sent).count("\\") == value.count("\\"), sent
