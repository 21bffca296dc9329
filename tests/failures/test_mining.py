"""The pattern job: shapes that differ only in a plain word become one pattern."""

import io

import pytest
from django.core.management import call_command

from failures.models import Failure, FailurePattern
from failures.records.services import failure_record
from failures.store.mining import patterns_mine, patterns_recount
from lessons.selectors import lesson_check
from lessons.services import lesson_record
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

USERS = ["alice", "bob", "carol", "dave"]


def record(user: str, agent: str = "a1"):
    return failure_record(
        agent=agent,
        task=f"login-{user}",
        error_type="auth",
        error=f"session expired for user {user} while syncing mailbox",
    )


def test_four_shapes_of_one_fault_merge_into_one_pattern():
    failures = [record(u, agent=f"a{i}") for i, u in enumerate(USERS)]
    assert len({f.pattern_id for f in failures}) == 4  # the write path cannot know yet
    result = patterns_mine()
    assert result.merged == 3
    live = FailurePattern.objects.filter(merged_into__isnull=True)
    (pattern,) = live
    assert pattern.template == "session expired for user <*> while syncing mailbox"
    assert Failure.objects.filter(pattern=pattern).count() == 4
    assert (pattern.event_count, pattern.agent_count, pattern.task_count) == (4, 4, 4)
    # A fifth user is now covered on the write path, and old ids resolve through aliases.
    assert record("erin").pattern_id == pattern.pk
    assert FailurePattern.objects.filter(merged_into=pattern).count() == 3


def test_lessons_follow_the_merge():
    for user in USERS[:3]:
        record(user)
    lesson_record(
        error_pattern="mailbox_login_lapse",
        error_type="auth",
        resolution="re-login",
        error_message="session expired for user alice while syncing mailbox",
    )
    record(USERS[3])
    patterns_mine()
    found = lesson_check(error_message="session expired for user zed while syncing mailbox")
    assert [(c.lesson.error_pattern, c.match) for c in found.lessons] == [
        ("mailbox_login_lapse", "pattern")
    ]


@pytest.mark.parametrize("sampled_user", USERS)
def test_a_writers_own_wording_is_still_its_own_after_the_merge(sampled_user):
    """Whichever pattern the unverified lesson's sample linked, merged into another or not,
    the link is its writer's word alone: the approved lesson that fits comes first."""
    for user in USERS:
        record(user)
    lesson_record(
        error_pattern="mailbox_login_lapse",
        error_type="auth",
        resolution="re-login",
        error_message=f"session expired for user {sampled_user} while syncing mailbox",
    )
    LessonFactory(
        error_pattern="session expired while syncing mailbox", error_type="auth", status="approved"
    )
    patterns_mine()
    found = lesson_check(error_message="session expired for user zed while syncing mailbox")
    assert [(c.lesson.error_pattern, c.match) for c in found.lessons] == [
        ("session expired while syncing mailbox", "words"),
        ("mailbox_login_lapse", "pattern"),
    ]


def test_distinct_faults_are_not_merged():
    for error in [
        "connection refused by db-1 while syncing mailbox now",
        "connection reset by db-1 while syncing mailbox now",
        "connection timeout by db-1 while syncing mailbox now",
        "connection closed by db-1 while syncing mailbox now",
    ]:
        failure_record(agent="a", task="t", error=error)
    assert patterns_mine().merged == 0
    assert FailurePattern.objects.filter(merged_into__isnull=True).count() == 4


def test_mining_twice_changes_nothing_more():
    for user in USERS:
        record(user)
    patterns_mine()
    again = patterns_mine()
    assert (again.merged, again.widened) == (0, 0)


def test_recount_corrects_drifted_counters():
    record("alice")
    record("alice", agent="a2")
    FailurePattern.objects.update(event_count=99, agent_count=0, task_count=7)
    assert patterns_recount() == 1
    pattern = FailurePattern.objects.get()
    assert (pattern.event_count, pattern.agent_count, pattern.task_count) == (2, 2, 1)


def test_command():
    for user in USERS:
        record(user)
    out = io.StringIO()
    call_command("mine_patterns", stdout=out)
    assert "3 pattern(s) merged" in out.getvalue()


# Letter-only ids and RFC 1123 dates are values (failures.patterns.letters, rule rfc_date):
# one fault carrying them is one pattern on the write path, and mining joins no other fault.
REQUESTS = [
    "req_dKbLqtAmlhLHUXKdSuNvqlzt",
    "req_ipbNClShVPwYforduMlJRUBT",
    "req_KxzLbtKMJIHBWRHBffCwgBXz",
    "req_FkMrcFSbrXXanOZCQoCIBiwv",
]
DATES = [
    "Mon, 09 Nov 2026 07:01:22 GMT",
    "Tue, 10 Nov 2026 23:59:59 GMT",
    "Wed, 11 Nov 2026 00:00:01 +0000",
    "Sat, 5 Dec 2026 07:01:22 GMT",
]
ERRORS = ["ConnectionRefusedError", "ConnectionResetError", "PermissionDenied"]


def test_ids_and_dates_neither_split_a_fault_nor_merge_faults():
    for i, (request, date) in enumerate(zip(REQUESTS, DATES)):
        for error in ERRORS:
            failure_record(
                agent=f"a{i}",
                task="sync",
                error_type=error,
                error=f"{date} request {request} to the mail store failed: {error}",
            )
    live = FailurePattern.objects.filter(merged_into__isnull=True)
    assert sorted(live.values_list("template", flat=True)) == sorted(
        f"<*> request <*> to the mail store failed: {error}" for error in ERRORS
    )
    out = io.StringIO()
    call_command("mine_patterns", stdout=out)
    assert "3 templates regrouped: 0 pattern(s) merged, 0 widened" in out.getvalue()
    assert live.count() == 3
    assert set(live.values_list("event_count", flat=True)) == {4}
