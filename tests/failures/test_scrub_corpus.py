"""The scrubber over a corpus of secret formats and look-alikes (tests/failures/scrub_corpus.py
and scrub_corpus_more.py).

Prints how many formats it catches and how many look-alikes it touches, and holds the targets:
at least 95% of at least 150 formats caught, in every field (as text, and in a JSON object as a
value, as a key and in a list), and at most 1 false positive among at least 60 look-alikes.  A
format is caught when no piece of its secret is left; the text around it must then come back as
it was (normalised), and the secret's place hold only markers (and, for an id written beside its
secret, the separator between them).  tests/failures/test_scrub_corpus_api.py sends the corpus
through the REST write path.
"""

from __future__ import annotations

import re

from config.scrubbing import normalise, scrub_text, scrub_value
from tests.failures.scrub_corpus import FORMATS as FORMATS_FIRST
from tests.failures.scrub_corpus import LOOKALIKES as LOOKALIKES_FIRST
from tests.failures.scrub_corpus_more import FORMATS_MORE, LOOKALIKES_MORE

FORMATS = FORMATS_FIRST + FORMATS_MORE
LOOKALIKES = LOOKALIKES_FIRST + LOOKALIKES_MORE

# What may stand where a secret was: markers, and the quotes, commas and blanks between an id
# and its secret when both are redacted ("[REDACTED:a]', '[REDACTED:b]").
_REDACTED_SPAN = re.compile(
    r"(?:\[REDACTED:[a-z0-9_]+\]|[\s'\",:;|])*\[REDACTED:[a-z0-9_]+\][\s'\",:;|]*"
)
# Pieces of a secret that must not survive: runs of 6+ characters of its alphabet.
_PIECE = re.compile(r"[A-Za-z0-9+/_\-.~%]{6,}")

# Formats this scrubber is known to miss, and why (kept so the figure stays honest).
KNOWN_MISSES: set[str] = set()


def _caught(before: str, secret: str, after: str, out: str) -> bool:
    """No piece of the secret is left in ``out`` (pieces also found around it do not count),
    nor of the secret as a later step would show it, with invisible characters removed."""
    around = normalise(before + after)
    pieces = _PIECE.findall(secret) + _PIECE.findall(normalise(secret))
    return not any(piece in out for piece in pieces if piece not in around)


def _kept(before: str, after: str, out: str) -> bool:
    """``out`` is ``before`` + markers + ``after``, as normalised (terminal escapes and
    invisible characters are removed before scrubbing)."""
    before, after = normalise(before), normalise(after)
    if not (out.startswith(before) and out.endswith(after)) or len(out) < len(before) + len(after):
        return False
    return _REDACTED_SPAN.fullmatch(out[len(before) : len(out) - len(after)]) is not None


def test_corpus_sizes_and_names() -> None:
    assert len(FORMATS) >= 150
    assert len(LOOKALIKES) >= 60
    assert len({f[0] for f in FORMATS}) == len(FORMATS)
    assert len({name for name, _ in LOOKALIKES}) == len(LOOKALIKES)


def test_formats_caught_and_look_alikes_kept() -> None:
    caught, missed, not_kept = [], [], []
    for name, before, secret, after in FORMATS:
        out = scrub_text(before + secret + after)
        if _caught(before, secret, after, out):
            caught.append(name)
            if not _kept(before, after, out):
                not_kept.append((name, out))
        else:
            missed.append(name)
    touched = [
        (name, scrub_text(text))
        for name, text in LOOKALIKES
        if scrub_text(text) != normalise(text)
    ]
    share = 100 * len(caught) / len(FORMATS)  # formats caught as text
    print(
        f"\ncaught {len(caught)}/{len(FORMATS)} ({share:.1f}%); missed: {', '.join(missed) or 'none'}"
    )
    print(f"false positives {len(touched)}/{len(LOOKALIKES)}: {touched or 'none'}")
    assert share >= 95
    assert len(touched) <= 1
    assert not_kept == []  # the text around every caught secret survives
    assert set(missed) == KNOWN_MISSES  # a new miss, or a known one now caught, is news


def test_corpus_output_is_idempotent() -> None:
    for _, before, secret, after in FORMATS:
        once = scrub_text(before + secret + after)
        assert scrub_text(once) == once


def _fields(text: str) -> dict:
    """``text`` in each place of a JSON object: a value, a key, an item of a list."""
    return {"value": {"note": text}, "key": {text: 1}, "list": {"lines": ["x", text]}}


def _shown(field: str, scrubbed: dict) -> str:
    return {
        "value": lambda: scrubbed["note"],
        "key": lambda: next(iter(scrubbed)),
        "list": lambda: scrubbed["lines"][1],
    }[field]()


def test_formats_caught_in_every_field_of_a_json_object() -> None:
    missed: dict[str, list[str]] = {}
    for name, before, secret, after in FORMATS:
        for field, value in _fields(before + secret + after).items():
            if not _caught(before, secret, after, _shown(field, scrub_value(value))):
                missed.setdefault(field, []).append(name)
    for field in _fields(""):
        caught = len(FORMATS) - len(missed.get(field, []))
        print(
            f"\n{field:5}: caught {caught}/{len(FORMATS)}; missed: {missed.get(field) or 'none'}"
        )
        assert 100 * caught / len(FORMATS) >= 95
    assert set(missed.get("value", [])) == KNOWN_MISSES


def test_look_alikes_kept_in_every_field_of_a_json_object() -> None:
    touched = [
        (name, field)
        for name, text in LOOKALIKES
        for field, value in _fields(text).items()
        if _shown(field, scrub_value(value)) != normalise(text)
    ]
    print(
        f"\nfalse positives in JSON fields {len(touched)}/{len(LOOKALIKES) * 3}: {touched or 'none'}"
    )
    assert len(touched) <= 1
