"""Every statement of a check reads lessons through an index, bounded, whatever the message,
type or skill: the plans PostgreSQL makes for them (tests.plans.custom_plan) over enough lessons
for the planner to care."""

import pytest

from failures.models import FailurePattern
from failures.store.patterns import pattern_for_message
from lessons.models import Lesson
from lessons.selectors import lesson_check
from tests.plans import custom_plan, fill, statements_run

pytestmark = pytest.mark.django_db
ROWS = 30_000
MESSAGE = "Stripe API timeout after 30 seconds while fetching invoices"

# Lessons over 40 error types and 50 skills (a third without), a third approved, a few rejected.
GENERATE = """
INSERT INTO lessons_lesson (id, error_pattern, error_type, skill_name, context, resolution,
    occurrences, last_occurred, effectiveness, rank_score, evidence, applications_count, flagged,
    flagged_reason, created_at, status, source)
SELECT gen_random_uuid(), 'pattern ' || n || ' of kind ' || (n %% 40), 'type-' || (n %% 40),
       CASE WHEN n %% 3 = 0 THEN NULL ELSE 'skill-' || (n %% 50) END, '{}', 'fix ' || n,
       1 + n %% 17, now(), 0.5, (n %% 100) / 100.0, 0, 0, false, '', now(),
       CASE n %% 10 WHEN 0 THEN 'rejected' WHEN 1 THEN 'approved' WHEN 2 THEN 'approved'
            WHEN 3 THEN 'approved' ELSE 'unverified' END, 'agent'
FROM generate_series(1, %(rows)s) AS n;
"""
LINKS = """
INSERT INTO lessons_lesson_patterns (lesson_id, failurepattern_id)
SELECT id, %(pattern)s FROM lessons_lesson ORDER BY id LIMIT 5;
INSERT INTO lessons_lesson_patterns (lesson_id, failurepattern_id)
SELECT id, (%(others)s::bigint[])[1 + abs(hashtext(id::text)) %% 3000] FROM lessons_lesson
"""


@pytest.fixture
def lessons():
    pattern = pattern_for_message(message=MESSAGE)
    others = [
        p.pk
        for p in FailurePattern.objects.bulk_create(
            FailurePattern(
                fingerprint=f"other-{n}",
                template=f"other error {n}",
                error_type="other",
                token_count=3,
                head="other",
            )
            for n in range(3000)
        )
    ]
    # Five lessons of the message's pattern, and every lesson linked to one of 3,000 others.
    fill(
        GENERATE + LINKS,
        {"rows": ROWS, "pattern": pattern.pk, "others": others},
        "lessons_lesson",
        "lessons_lesson_patterns",
    )
    Lesson.objects.create(
        error_pattern="stripe_timeout",
        error_type="timeout",
        resolution="Retry with a longer timeout.",
    )


CHECKS = [
    {"error_message": MESSAGE},
    {"error_message": MESSAGE, "error_type": "type-7"},
    {"error_message": MESSAGE, "error_type": "type-7", "skill_name": "skill-3"},
    {
        "error_message": "a message of no stored pattern",
        "error_type": "type-9",
        "approved_only": True,
    },
]


@pytest.mark.parametrize("check", CHECKS)
def test_the_plans_of_a_check_read_only_through_indexes(lessons, check):
    lesson_check(**check)  # builds the match index
    with statements_run() as run:
        lesson_check(**check)
    run = [(sql, params) for sql, params in run if '"lessons_lesson"' in sql]
    assert run
    for sql, params in run:
        nodes = custom_plan(sql, params)
        scans = [n for n in nodes if n.get("Relation Name", "").startswith("lessons_")]
        assert scans, sql
        assert all(
            n["Node Type"] in ("Index Scan", "Index Only Scan", "Bitmap Heap Scan") for n in scans
        ), [(n["Node Type"], n.get("Relation Name")) for n in nodes]
        # No sort of more rows than a part keeps (each part reads up to the check's limit).
        sorts = [n for n in nodes if n["Node Type"] == "Sort"]
        assert all(n["Plan Rows"] <= 1000 for n in sorts), sorts
