"""How staff pages show values: one format of moment with its zone, texts cut at a word."""

from datetime import datetime, timezone

from config.formats import moment_shown, shortened
from failures.models import Failure


def test_a_moment_reads_in_one_format_with_its_zone():
    assert moment_shown(datetime(2026, 11, 28, 14, 5, 59, tzinfo=timezone.utc)) == (
        "2026-11-28 14:05\u00a0UTC"
    )


def test_a_long_text_is_cut_at_a_word_and_says_so():
    text = "connection refused by postgres on port 5432 while syncing orders"
    assert shortened(text, 100) == text
    assert shortened(text, 40) == "connection refused by postgres on port…"
    assert shortened("x" * 50, 10) == "x" * 9 + "…"  # one word longer than the room
    assert shortened("ends with a comma, then more words", 19) == "ends with a comma…"


def test_a_failures_title_ends_at_a_word():
    failure = Failure(
        agent="agent-1",
        task="sync-1",
        error="deadlock detected while updating orders " + "and invoices " * 10,
    )
    title = str(failure)
    assert title.startswith("agent-1/sync-1: deadlock detected") and title.endswith("invoices…")
