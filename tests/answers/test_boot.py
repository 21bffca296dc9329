"""The boot composer on the real database: window, skip, resume, hints, loops, advice, fleet."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from answers.boot import composer as boot
from answers.boot.composer import boot_context_build, skip_until
from failures.models import Failure
from failures.records.services import failure_record, failures_resolve
from lessons.match_index import match_index
from lessons.models import Lesson
from tests.lessons.factories import LessonFactory

NOW = timezone.now()
TIMEOUT = "Connection timeout after 30 seconds"
REFUSED = "ConnectionRefusedError: upstream refused the connection"
DENIED = "PermissionError: write access denied to the bucket"


def record(agent="a1", task="sync", error=TIMEOUT, minutes_ago=10, **fields) -> Failure:
    fields.setdefault("task_type", "sync")
    return failure_record(
        agent=agent,
        task=task,
        error=error,
        occurred_at=NOW - timedelta(minutes=minutes_ago),
        **fields,
    )


def build(agent="a1", **options) -> dict:
    return boot_context_build(agent=agent, now=NOW, **options)


@pytest.mark.django_db
def test_recent_failures_are_the_agents_own_within_the_window_newest_first():
    record(task="old", minutes_ago=30 * 60)
    record(task="older-today", minutes_ago=5 * 60)
    record(task="newest", minutes_ago=60)
    record(agent="someone-else", task="theirs", minutes_ago=1)

    assert [f["task"] for f in build()["recent_failures"]] == ["newest", "older-today"]
    assert [f["task"] for f in build(window_hours=48)["recent_failures"]] == [
        "newest",
        "older-today",
        "old",
    ]


@pytest.mark.django_db
def test_recent_failures_are_capped_and_keep_resolved_ones():
    for minute in range(boot.RECENT_CAP + 3):
        record(task=f"t{minute}", minutes_ago=minute + 1)
    failures_resolve(agent="a1", task="t0")

    recent = build()["recent_failures"]
    assert len(recent) == boot.RECENT_CAP
    assert recent[0]["task"] == "t0" and recent[0]["status"] == "resolved"


@pytest.mark.django_db
def test_task_type_narrows_the_briefing():
    record(task="a", task_type="billing")
    record(task="b", task_type="email")

    context = build(task_type="email")
    assert [f["task"] for f in context["recent_failures"]] == ["b"]
    assert [entry["task"] for entry in context["retry_advice"]] == ["b"]


@pytest.mark.django_db
def test_skip_needs_n_failures_of_one_pattern():
    record(minutes_ago=3)
    record(minutes_ago=2)
    assert build()["skip"] == []

    last = record(minutes_ago=1)
    [entry] = build()["skip"]
    assert entry["task"] == "sync" and entry["task_type"] == "sync"
    assert entry["failures"] == 3
    assert entry["pattern"]["id"] == last.pattern_id
    assert entry["pattern"]["template"] == last.pattern.template
    assert entry["last_failed_at"] == last.occurred_at
    assert "3 times" in entry["why"] and last.pattern.template in entry["why"]
    assert build(skip_after=4)["skip"] == []


@pytest.mark.django_db
def test_skip_counts_failures_of_the_same_pattern_only():
    record(error=TIMEOUT, minutes_ago=3)
    record(error=REFUSED, minutes_ago=2)
    record(error=TIMEOUT, minutes_ago=1)
    assert build()["skip"] == []
    assert build(skip_after=2)["skip"][0]["failures"] == 2


@pytest.mark.django_db
def test_a_success_clears_the_skip_and_restarts_the_count():
    for minute in (4, 3, 2):
        record(minutes_ago=minute)
    assert len(build()["skip"]) == 1

    assert failures_resolve(agent="a1", task="sync") == 3
    assert build()["skip"] == []
    record(minutes_ago=1)
    assert build()["skip"] == []


@pytest.mark.django_db
def test_abandoned_failures_do_not_count():
    for minute in (4, 3, 2):
        record(minutes_ago=minute)
    failures_resolve(agent="a1", task="sync", status="abandoned")
    context = build()
    assert context["skip"] == [] and context["loops"] == [] and context["retry_advice"] == []


@pytest.mark.parametrize(
    "failures, skip_after, retry_after, cooldown",
    [
        (3, 3, None, timedelta(minutes=30)),  # at the threshold: the base cooldown
        (4, 3, None, timedelta(hours=1)),  # each further failure doubles it
        (6, 3, None, timedelta(hours=4)),
        (8, 3, None, timedelta(hours=16)),
        (9, 3, None, timedelta(hours=24)),  # capped at a day
        (500, 3, None, timedelta(hours=24)),
        (5, 5, None, timedelta(minutes=30)),  # counted from the configured threshold
        (3, 3, 7200, timedelta(hours=2)),  # a longer reported retry_after wins
        (4, 3, 60, timedelta(hours=1)),  # a shorter one does not
    ],
)
def test_skip_until_rule(failures, skip_after, retry_after, cooldown):
    until = skip_until(
        last_failed_at=NOW, failures=failures, skip_after=skip_after, retry_after=retry_after
    )
    assert until - NOW == cooldown


@pytest.mark.django_db
def test_skip_until_in_the_answer_and_expired_skips_are_dropped():
    for minute in (30, 20, 10):
        record(minutes_ago=minute)
    [entry] = build()["skip"]
    assert entry["skip_until"] == NOW - timedelta(minutes=10) + timedelta(minutes=30)

    # 40 minutes later the 30-minute cooldown is over: one more try is allowed.
    assert boot_context_build(agent="a1", now=NOW + timedelta(minutes=40))["skip"] == []


@pytest.mark.django_db
def test_a_reported_retry_after_longer_than_the_cooldown_extends_the_skip():
    for minute in (30, 20, 10):
        record(minutes_ago=minute, retry_after=3 * 3600)
    [entry] = boot_context_build(agent="a1", now=NOW + timedelta(minutes=40))["skip"]
    assert entry["skip_until"] == NOW - timedelta(minutes=10) + timedelta(hours=3)


@pytest.mark.django_db
def test_resume_is_the_latest_checkpoint_per_open_task():
    record(task="load", checkpoint={"done": 10}, minutes_ago=30)
    newest = record(
        task="load",
        checkpoint={"done": 47, "total": 100, "resume_from": 48},
        side_effects=["47 records written"],
        attempt_count=2,
        minutes_ago=20,
    )
    record(task="load", error=REFUSED, minutes_ago=10)  # no checkpoint: the one before stands
    record(task="plain", minutes_ago=5)
    record(task="done", checkpoint={"done": 1}, minutes_ago=5)
    failures_resolve(agent="a1", task="done")

    assert build()["resume"] == [
        {
            "task": "load",
            "failure_id": newest.pk,
            "occurred_at": newest.occurred_at,
            "checkpoint": {"done": 47, "total": 100, "resume_from": 48},
            "side_effects": ["47 records written"],
            "error": TIMEOUT,
            "attempt_count": 2,
        }
    ]


@pytest.mark.django_db
def test_hints_carry_distinct_recovery_hints_newest_first_capped():
    for minute, hint in [
        (50, "first"),
        (40, "second"),
        (30, "third"),
        (20, "second"),
        (10, "fourth"),
        (5, ""),
    ]:
        record(error=REFUSED if minute % 20 else TIMEOUT, recovery_hint=hint, minutes_ago=minute)
    record(task="no-hints", error=DENIED)

    [entry] = build()["hints"]
    assert entry["task"] == "sync"
    assert entry["recovery_hints"] == ["fourth", "second", "third"]


@pytest.mark.django_db
def test_hints_list_approved_lessons_linked_to_the_tasks_patterns():
    failure = record(error=TIMEOUT, minutes_ago=20)
    other = record(error=REFUSED, minutes_ago=10)
    approved = LessonFactory(status=Lesson.Status.APPROVED, resolution="Raise the timeout")
    refused = LessonFactory(status=Lesson.Status.APPROVED, resolution="Wait for the upstream")
    unverified = LessonFactory(resolution="Unreviewed advice")
    rejected = LessonFactory(status=Lesson.Status.REJECTED, resolution="Rejected advice")
    for lesson in (approved, unverified, rejected):
        lesson.patterns.add(failure.pattern)
    refused.patterns.add(other.pattern)
    LessonFactory(error_pattern="connection timeout", status=Lesson.Status.APPROVED)

    [entry] = build()["hints"]
    assert {(lesson["id"], lesson["match"]) for lesson in entry["lessons"]} == {
        (str(approved.pk), "pattern"),
        (str(refused.pk), "pattern"),
    }


@pytest.mark.django_db
def test_without_linked_lessons_hints_list_approved_lessons_that_lesson_check_finds():
    record(error=TIMEOUT)
    by_message = LessonFactory(
        error_pattern="connection timeout",
        error_type="other",
        status=Lesson.Status.APPROVED,
        resolution="Check the network",
    )
    LessonFactory(error_pattern="connection timeout seconds", resolution="Unreviewed match")
    LessonFactory(error_pattern="timeout after", status=Lesson.Status.REJECTED)

    [entry] = build()["hints"]
    assert entry["lessons"] == [
        {
            "id": str(by_message.pk),
            "error_pattern": "connection timeout",
            "resolution": "Check the network",
            "effectiveness": 0.5,
            "match": "template",
        }
    ]
    assert entry["related"] == []


@pytest.mark.django_db
def test_alternating_and_repeating_loops():
    first = record(task="flip", error=TIMEOUT, minutes_ago=40)
    second = record(task="flip", error=REFUSED, minutes_ago=30)
    record(task="flip", error=TIMEOUT, minutes_ago=20)
    record(task="flip", error=REFUSED, minutes_ago=10)
    for minute in (9, 8, 7, 6):
        record(task="stuck", error=DENIED, minutes_ago=minute)
    record(task="calm", error=TIMEOUT)

    loops = {loop["task"]: loop for loop in build()["loops"]}
    assert set(loops) == {"flip", "stuck"}
    assert loops["flip"]["kind"] == "alternating" and loops["flip"]["length"] == 4
    assert [p["id"] for p in loops["flip"]["patterns"]] == [first.pattern_id, second.pattern_id]
    assert loops["flip"]["since"] == first.occurred_at
    assert (loops["stuck"]["kind"], loops["stuck"]["length"]) == ("repeat", 4)

    failures_resolve(agent="a1", task="flip")
    assert [loop["task"] for loop in build()["loops"]] == ["stuck"]


@pytest.mark.django_db
def test_retry_advice_per_open_task_from_the_patterns_history():
    for minute in (30, 20, 10):
        record(task="hopeless", error=DENIED, minutes_ago=minute)
    # REFUSED recovered once elsewhere, so a new failure of it is worth a retry after 60 s.
    record(agent="other", task="x", error=REFUSED, minutes_ago=50)
    failures_resolve(agent="other", task="x")
    latest = record(task="flaky", error=REFUSED, retry_after=60, minutes_ago=5)

    advice = {entry["task"]: entry for entry in build()["retry_advice"]}
    assert list(advice) == ["flaky", "hopeless"]
    assert advice["hopeless"]["retryable"] is False
    assert advice["hopeless"]["reason"] == (
        "across the fleet, 3 failures of this kind and no retry has ever succeeded; "
        "this task failed 3 times with this error since its last success"
    )
    assert (advice["flaky"]["retryable"], advice["flaky"]["after_seconds"]) == (True, 60)
    assert advice["flaky"]["failure_id"] == latest.pk
    assert advice["flaky"]["pattern"]["id"] == latest.pattern_id


@pytest.mark.django_db
def test_fleet_scope_adds_other_agents_failures_of_the_same_task_types():
    record(agent="me", task="invoice", task_type="billing", error=TIMEOUT)
    theirs = record(
        agent="b",
        task="charge",
        task_type="billing",
        error=REFUSED,
        recovery_hint="Wait for the gateway",
        minutes_ago=20,
    )
    record(agent="c", task="refund", task_type="billing", error=REFUSED, minutes_ago=15)
    record(agent="c", task="refund", task_type="billing", error=REFUSED, minutes_ago=12)
    record(agent="d", task="mail", task_type="email", error=DENIED, minutes_ago=5)
    record(agent="e", task="old", task_type="billing", error=DENIED, minutes_ago=48 * 60)

    assert build(agent="me")["fleet"] is None
    fleet = build(agent="me", scope="fleet")["fleet"]
    assert fleet == [
        {
            "pattern": {
                "id": theirs.pattern_id,
                "fingerprint": theirs.pattern.fingerprint,
                "template": theirs.pattern.template,
            },
            "agents": 2,
            "failures": 3,
            "last_seen": NOW - timedelta(minutes=12),
            # The hint's own writer, not the newest failure's agent (c).
            "recovery_hint": "Wait for the gateway",
            "recovery_hint_agent": "b",
        }
    ]
    assert [
        f["pattern"]["template"]
        for f in build(agent="me", scope="fleet", task_type="email")["fleet"]
    ] == [Failure.objects.get(agent="d").pattern.template]


@pytest.mark.django_db
def test_fleet_view_is_shared_for_a_few_seconds_then_refreshed():
    record(agent="me", task="invoice", task_type="billing", error=TIMEOUT)
    record(agent="b", task="charge", task_type="billing", error=REFUSED, minutes_ago=20)
    assert [f["agents"] for f in build(agent="me", scope="fleet")["fleet"]] == [1]
    record(agent="c", task="refund", task_type="billing", error=REFUSED, minutes_ago=15)
    # Within FLEET_CACHE_SECONDS every agent sees the same cached view of the task type ...
    assert [f["agents"] for f in build(agent="me", scope="fleet")["fleet"]] == [1]
    # ... and each agent still sees only the others: b's view holds my failure, not its own.
    assert [f["pattern"]["template"] for f in build(agent="b", scope="fleet")["fleet"]] == [
        "Connection timeout after <*> seconds"
    ]
    cache.clear()  # what expiry does
    assert [f["agents"] for f in build(agent="me", scope="fleet")["fleet"]] == [2]


@pytest.mark.django_db
def test_fleet_covers_each_of_the_agents_task_types():
    record(agent="me", task="invoice", task_type="billing", minutes_ago=30)
    record(agent="me", task="notify", task_type="email", minutes_ago=20)
    billing = record(agent="b", task="charge", task_type="billing", error=REFUSED, minutes_ago=5)
    email = record(agent="c", task="mail", task_type="email", error=DENIED, minutes_ago=3)
    record(agent="d", task="scan", task_type="storage", error=TIMEOUT, minutes_ago=1)

    fleet = build(agent="me", scope="fleet")["fleet"]
    assert [(entry["pattern"]["id"], entry["agents"]) for entry in fleet] == [
        (email.pattern_id, 1),
        (billing.pattern_id, 1),
    ]  # ties: the most recently seen first


def _busy_fleet_history():
    """Many open tasks, each with its own pattern, hints, checkpoints and lessons; a fleet."""
    for task in range(boot.OPEN_TASKS_CAP + 5):
        for attempt in range(3):
            failure = record(
                task=f"t{task}",
                error=f"Fault{task} in stage",
                task_type=f"k{task % 7}",
                checkpoint={"step": attempt},
                recovery_hint=f"hint {attempt}",
                minutes_ago=task + attempt / 10,
            )
        if task % 2:
            LessonFactory(status=Lesson.Status.APPROVED).patterns.add(failure.pattern)
        record(agent=f"peer{task}", task="p", task_type=f"k{task % 7}", error=TIMEOUT)
    LessonFactory(error_pattern="in stage", status=Lesson.Status.APPROVED)


@pytest.mark.django_db
def test_query_count_is_bounded_whatever_the_history(django_assert_max_num_queries):
    _busy_fleet_history()
    # 2 failure reads, 1 read of their distinct patterns, 1 lesson-link read, at most 4 per
    # lesson_check call, 1 fleet read.
    bound = 2 + 1 + 1 + 4 * boot.LESSON_CHECKS_CAP + 1
    assert bound == 9
    match_index()  # built once per process after lessons change, not per briefing
    with django_assert_max_num_queries(bound):
        context = build(scope="fleet")
    assert len(context["retry_advice"]) == boot.OPEN_TASKS_CAP
    assert len(context["skip"]) == len(context["loops"]) == boot.OPEN_TASKS_CAP
    hints = {entry["task"]: entry for entry in context["hints"]}
    assert all(hints[f"t{task}"]["lessons"] for task in range(1, boot.OPEN_TASKS_CAP, 2))
    assert context["fleet"]
