"""Lessons for the bench database: what agents and humans wrote about the generated patterns.

Three kinds of ``error_pattern``, as agents write them: a pattern's template (linked to it), a
slug (``stripe_invoices_timeout_0``, often linked) and a phrase (``stripe invoices timeout``,
never linked; check finds it by words). Patterns with more failures get lessons more often
(weight: square root of their event count), so hot patterns usually have several.
"""

import json
import math
import random
import uuid
from bisect import bisect
from datetime import datetime, timedelta
from itertools import accumulate

from lessons.scoring import RANK_SCORE_PRIOR

# Shares of the three kinds, and of review states (the rest of each is unverified / unlinked).
TEMPLATE_SHARE, SLUG_SHARE = 0.55, 0.25
SLUG_LINKED = 0.6
APPROVED, REJECTED = 0.3, 0.1
RESOLUTIONS = {
    "timeout": "Raise the client timeout to 60s and fetch in pages of 100",
    "rate_limit": "Back off for the Retry-After seconds, then retry with a smaller batch",
    "connection": "Check the upstream status page; retry with exponential backoff",
    "not_found": "Re-list the collection; the id was deleted upstream",
    "key_error": "Guard the optional field; the upstream schema changed",
    "integrity": "Upsert on the unique key instead of inserting",
    "deadlock": "Update rows in primary-key order and retry the transaction once",
    "tool": "Re-read TOOLS.md and call only documented tool names",
    "permission": "Write under the workspace directory, not the service's own",
    "memory": "Embed in batches of 256 and free the previous batch",
    "validation": "Ask for JSON mode and validate against the schema before use",
    "test": "Run the failing test alone; fix the fixture before the code",
    "auth": "Rotate the key from the vault and restart the client",
    "webhook": "Use the raw request body to verify the signature",
    "git": "Pull with rebase, rerun the tests, push again",
    "exception": "Validate the payload before parsing; log the offending offset",
    "quota": "Switch to the secondary account until the hour rolls over",
}
LESSON_COLUMNS = (
    "id",
    "error_pattern",
    "error_type",
    "skill_name",
    "context",
    "resolution",
    "resolution_code",
    "occurrences",
    "last_occurred",
    "effectiveness",
    "created_at",
    "status",
    "source",
    "reviewed_at",
    "rank_score",
    "evidence",
    "applications_count",
    "flagged",
    "flagged_reason",
)


def _pick_patterns(conn, patterns: list[dict], count: int, rng: random.Random) -> list[dict]:
    events = dict(conn.execute("SELECT id, event_count FROM failures_failurepattern").fetchall())
    cum = list(accumulate(math.sqrt(events[p["id"]]) for p in patterns))
    return [patterns[bisect(cum, rng.random() * cum[-1])] for _ in range(count)]


def _error_pattern(pattern: dict, rng: random.Random) -> tuple[str, bool]:
    """The lesson's error_pattern text and whether the lesson is linked to the pattern."""
    maker, roll = pattern["maker"], rng.random()
    if roll < TEMPLATE_SHARE and len(pattern["template"]) <= 200:
        return pattern["template"], True
    if roll < TEMPLATE_SHARE + SLUG_SHARE:
        return maker.slug, rng.random() < SLUG_LINKED
    return f"{maker.svc} {maker.obj} {maker.error_type.replace('_', ' ')}", False


def _lesson_row(pattern, text, rng, now, days) -> tuple:
    maker, roll = pattern["maker"], rng.random()
    status = (
        "approved"
        if roll < APPROVED
        else "rejected"
        if roll < APPROVED + REJECTED
        else "unverified"
    )
    created = now - timedelta(seconds=rng.random() * days * 86400)
    reviewed = None if status == "unverified" else created + (now - created) * rng.random()
    context = {} if rng.random() < 0.5 else {"files": [f"{maker.svc}/{maker.obj}.py"]}
    code = None if rng.random() < 0.7 else f"client.{maker.obj}.list(page_size=100)"
    return (
        uuid.UUID(int=rng.getrandbits(128), version=4),
        text,
        maker.error_type,
        f"{maker.svc}_api" if rng.random() < 0.5 else None,
        json.dumps(context),
        RESOLUTIONS[maker.error_type],
        code,
        rng.randint(1, 200),
        created + (now - created) * rng.random(),
        round(rng.betavariate(2, 2), 3),
        created,
        status,
        "human" if status != "unverified" and rng.random() < 0.5 else "agent",
        reviewed,
        # Measured columns: as for a lesson never applied (the bench has no applications).
        RANK_SCORE_PRIOR,
        0.0,
        0,
        False,
        "",
    )


def lessons_write(
    conn, patterns: list[dict], *, count: int, rng: random.Random, now: datetime, days: int
) -> tuple[int, int]:
    """Insert up to ``count`` lessons (distinct error_patterns) and their pattern links."""
    lessons, links, seen = [], [], set()
    # Hot patterns are drawn again and again; three times the draws bounds the search.
    for pattern in _pick_patterns(conn, patterns, 3 * count, rng):
        if len(lessons) == count:
            break
        text, linked = _error_pattern(pattern, rng)
        if text in seen:
            continue
        seen.add(text)
        row = _lesson_row(pattern, text, rng, now, days)
        lessons.append(row)
        if linked:
            links.append((len(links) + 1, row[0], pattern["id"]))
    with conn.cursor() as cur:
        with cur.copy(f"COPY lessons_lesson ({', '.join(LESSON_COLUMNS)}) FROM STDIN") as copy:
            for row in lessons:
                copy.write_row(row)
        with cur.copy(
            "COPY lessons_lesson_patterns (id, lesson_id, failurepattern_id) FROM STDIN"
        ) as copy:
            for row in links:
                copy.write_row(row)
    return len(lessons), len(links)
