"""A curator's triage of patterns (failures.store.triage) and what respects it: the curation queues,
the boot briefing's recent failures, the failure write (a resolved pattern reopens), and the
lesson check (unchanged: triage is about what humans look at)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from answers.boot.composer import boot_context_build
from failures.models import FailurePattern
from failures.records.services import failure_record
from failures.staff.dashboard_sections import curation_queue
from failures.staff.report_sections import curation_queue as report_curation_queue
from failures.store.triage import muted_q, muted_sql, pattern_is_muted, pattern_triage
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()
MESSAGES = {
    "open": "payment gateway timed out",
    "resolved": "invoice renderer out of memory",
    "ignored": "cache node evicted keys",
    "snoozed": "mailer queue overflowed",
    "snooze_over": "thumbnail worker crashed",
}


def record(error: str, agent: str = "a1", minutes_ago: int = 10) -> FailurePattern:
    return failure_record(
        agent=agent,
        task=f"t-{error[:6]}",
        error=error,
        task_type="sync",
        occurred_at=NOW - timedelta(minutes=minutes_ago),
    ).pattern


def triaged(django_user_model) -> dict[str, FailurePattern]:
    """A pattern in each state; the expired snooze is written as a past snooze would be left."""
    curator = django_user_model.objects.create_user("cur", is_staff=True)
    patterns = {state: record(message) for state, message in MESSAGES.items()}
    pattern_triage(pattern=patterns["resolved"], status="resolved", user=curator)
    pattern_triage(pattern=patterns["ignored"], status="ignored", user=curator)
    pattern_triage(
        pattern=patterns["snoozed"],
        status="snoozed",
        user=curator,
        until=timezone.now() + timedelta(days=1),
    )
    FailurePattern.objects.filter(pk=patterns["snooze_over"].pk).update(
        status="snoozed", snoozed_until=NOW - timedelta(minutes=1)
    )
    return {state: FailurePattern.objects.get(pk=p.pk) for state, p in patterns.items()}


def test_triage_records_who_and_when_and_refuses_a_bad_snooze(django_user_model):
    curator = django_user_model.objects.create_user("cur", is_staff=True)
    pattern = record(MESSAGES["open"])
    with pytest.raises(ValueError, match="future"):
        pattern_triage(
            pattern=pattern,
            status="snoozed",
            user=curator,
            until=timezone.now() - timedelta(minutes=1),
        )
    with pytest.raises(ValueError, match="future"):
        pattern_triage(pattern=pattern, status="snoozed", user=curator)
    with pytest.raises(ValueError, match="unknown status"):
        pattern_triage(pattern=pattern, status="closed", user=curator)
    pattern.refresh_from_db()
    assert (pattern.status, pattern.triaged_by) == ("open", None)
    until = timezone.now() + timedelta(hours=3)
    pattern = pattern_triage(pattern=pattern, status="snoozed", user=curator, until=until)
    assert (pattern.status, pattern.snoozed_until, pattern.triaged_by) == (
        "snoozed",
        until,
        curator,
    )
    assert pattern_triage(pattern=pattern, status="open", user=curator).snoozed_until is None
    alias = record(MESSAGES["resolved"])
    FailurePattern.objects.filter(pk=alias.pk).update(merged_into=pattern)
    with pytest.raises(ValueError, match=f"merged into {pattern.pk}"):
        pattern_triage(pattern=alias, status="ignored", user=curator)


def test_muted_means_ignored_or_snoozed_until_a_time_still_ahead(django_user_model):
    patterns = triaged(django_user_model)
    muted = {state for state, p in patterns.items() if pattern_is_muted(p, now=NOW)}
    assert muted == {"ignored", "snoozed"}
    assert set(FailurePattern.objects.filter(muted_q(now=NOW)).values_list("pk", flat=True)) == {
        patterns["ignored"].pk,
        patterns["snoozed"].pk,
    }
    with connection.cursor() as cursor:  # the raw spelling boot uses (answers.queries) agrees
        cursor.execute(
            f"SELECT id FROM failures_failurepattern p WHERE {muted_sql(alias='p', now='now')}",
            {"now": NOW},
        )
        assert {pk for (pk,) in cursor.fetchall()} == {
            patterns["ignored"].pk,
            patterns["snoozed"].pk,
        }


def test_a_resolved_pattern_that_fails_again_reopens_an_ignored_one_stays(django_user_model):
    patterns = triaged(django_user_model)
    for state in ("resolved", "ignored", "snoozed"):
        record(MESSAGES[state], agent="a2", minutes_ago=1)
    states = dict(
        FailurePattern.objects.filter(pk__in=[p.pk for p in patterns.values()]).values_list(
            "pk", "status"
        )
    )
    assert states[patterns["resolved"].pk] == "open"
    reopened = FailurePattern.objects.get(pk=patterns["resolved"].pk)
    assert (reopened.triaged_by, reopened.triaged_at) == (None, reopened.last_seen)
    assert states[patterns["ignored"].pk] == "ignored"
    assert states[patterns["snoozed"].pk] == "snoozed"


def test_the_curation_queues_leave_out_triaged_patterns(django_user_model):
    patterns = triaged(django_user_model)
    expected = {patterns["open"].pk, patterns["snooze_over"].pk}
    assert {row["id"] for row in curation_queue(now=NOW)} == expected
    assert {row["id"] for row in report_curation_queue(until=NOW)} == expected


def test_boot_leaves_muted_patterns_out_of_recent_failures(django_user_model):
    patterns = triaged(django_user_model)
    recent = boot_context_build(agent="a1", now=NOW)["recent_failures"]
    assert {f["pattern_id"] for f in recent} == {
        patterns[state].pk for state in ("open", "resolved", "snooze_over")
    }


def test_the_check_still_answers_with_an_ignored_patterns_lessons(
    django_user_model, read_api, api
):
    """Ignoring is a curator's triage: an agent meeting the error still gets what is known,
    from the check and in the answer to the failure it posts."""
    patterns = triaged(django_user_model)
    LessonFactory(
        error_pattern="evictions",
        error_type="cache",
        status="approved",
        resolution="Raise the cache's memory limit",
    ).patterns.add(patterns["ignored"])
    answer = read_api.get("/api/v1/lessons/check", {"error_message": MESSAGES["ignored"]}).json()
    assert [lesson["error_pattern"] for lesson in answer["lessons"]] == ["evictions"]
    assert answer["has_approved_resolution"] is True
    posted = api.post(
        "/api/v1/failures",
        {"agent": "a3", "task": "warm-cache", "error": MESSAGES["ignored"]},
        format="json",
    ).json()
    assert posted["pattern"]["id"] == patterns["ignored"].pk
    assert [lesson["error_pattern"] for lesson in posted["lessons"]] == ["evictions"]
    assert FailurePattern.objects.get(pk=patterns["ignored"].pk).status == "ignored"


def test_boots_fleet_view_leaves_muted_patterns_out(django_user_model):
    patterns = triaged(django_user_model)
    for message in MESSAGES.values():
        record(message, agent="a2")
    fleet = boot_context_build(agent="a1", scope="fleet", now=NOW)["fleet"]
    assert {entry["pattern"]["id"] for entry in fleet} == {
        patterns[state].pk for state in ("open", "resolved", "snooze_over")
    }


def test_the_triage_rules_are_spelled_in_sql_only_by_the_triage_module():
    """muted_sql and reopened_sql are the SQL forms of the rule: a raw statement elsewhere that
    spells a pattern's triage state itself would be a second copy that can drift."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    Status = FailurePattern.Status
    # The states only a pattern has (a failure is open or resolved too), and the reopening.
    spellings = [f"'{Status.IGNORED.value}'", f"'{Status.SNOOZED.value}'", "THEN 'open'"]
    spelled = [
        str(path.relative_to(root))
        for package in ("config", "failures", "lessons", "outcomes", "answers", "alerts")
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts
        and path.name != "triage.py"
        and any(spelling in path.read_text() for spelling in spellings)
    ]
    assert spelled == []
