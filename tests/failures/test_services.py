"""failures.records.services and failures.store.patterns: recording under a pattern, counting,
resolving."""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.models import Failure, FailurePattern, FailureTemplate
from failures.records.services import (
    failure_record,
    failures_close_open_of,
    failures_prepare,
    failures_resolve,
    failures_store,
)
from failures.store.patterns import pattern_for_message

pytestmark = pytest.mark.django_db


def record(**overrides):
    fields = {
        "agent": "a1",
        "task": "sync",
        "error": "connection refused to 10.0.0.5:5432",
        "error_type": "connection",
    }
    return failure_record(**{**fields, **overrides})


def test_messages_of_one_shape_share_a_pattern():
    first = record()
    second = record(error="connection refused to 10.9.8.7:6543", agent="a2", task="other")
    assert first.pattern_id == second.pattern_id
    pattern = FailurePattern.objects.get()
    assert pattern.template == "connection refused to <*>"
    assert (pattern.event_count, pattern.agent_count, pattern.task_count) == (2, 2, 2)
    assert FailureTemplate.objects.count() == 1


@pytest.mark.parametrize(
    "a, b",
    [
        ("connection refused to 10.0.0.5:5432", "connection reset by 10.0.0.5:5432"),
        ("HTTP 401 Unauthorized from api.example.com", "HTTP 403 Forbidden from api.example.com"),
        ("KeyError: 'user_id'", "KeyError: 'email'"),
        (
            'duplicate key value violates unique constraint "users_email_key"',
            'duplicate key value violates unique constraint "orders_pkey"',
        ),
    ],
)
def test_faults_an_agent_must_treat_differently_get_different_patterns(a, b):
    assert record(error=a).pattern_id != record(error=b).pattern_id


def test_counts_do_not_double_count_known_agents_and_tasks():
    record()
    record()
    pattern = FailurePattern.objects.get()
    assert (pattern.event_count, pattern.agent_count, pattern.task_count) == (2, 1, 1)


def test_first_and_last_seen_follow_the_failure_times():
    now = timezone.now()
    record(occurred_at=now - timedelta(days=2))
    record(occurred_at=now - timedelta(days=5))
    record(occurred_at=now - timedelta(days=1))
    pattern = FailurePattern.objects.get()
    assert pattern.first_seen == now - timedelta(days=5)
    assert pattern.last_seen == now - timedelta(days=1)


def test_a_wider_pattern_covers_a_new_shape():
    pattern = pattern_for_message(message="job nightly failed on worker <*>")
    FailurePattern.objects.filter(pk=pattern.pk).update(
        template="job <*> failed on worker <*>", head="job"
    )
    assert pattern_for_message(message="job weekly failed on worker 7").pk == pattern.pk


def test_merged_patterns_resolve_to_the_survivor():
    old = record(error="disk full on /dev/sda1").pattern
    new = record(error="quota exceeded for bucket 'logs'").pattern
    FailurePattern.objects.filter(pk=old.pk).update(merged_into=new)
    assert record(error="disk full on /dev/sdb2").pattern_id == new.pk


def test_resolve_closes_only_that_agents_open_failures_of_the_task():
    record()
    record()
    record(agent="a2")
    record(task="other")
    assert failures_resolve(agent="a1", task="sync") == 2
    assert Failure.objects.filter(status="resolved").count() == 2
    assert Failure.objects.filter(status="open").count() == 2
    assert FailurePattern.objects.get().resolved_count == 2
    assert failures_resolve(agent="a1", task="sync") == 0


def test_one_close_counts_each_patterns_own_number_of_resolutions():
    for task, error in [
        ("t1", "disk full on /dev/sda1"),
        ("t1", "disk full on /dev/sdb2"),
        ("t2", "disk full on /dev/sdc3"),
        ("t1", "quota exceeded for bucket 'a'"),
        ("t3", "connection reset by peer"),
    ]:
        record(task=task, error=error)
    now = timezone.now()
    failures_close_open_of(closings=[("a1", "t1", now), ("a1", "t2", now), ("a1", "t3", now)])
    counts = dict(FailurePattern.objects.values_list("template", "resolved_count"))
    assert counts == {
        "disk full on <*>": 3,
        "quota exceeded for bucket 'a'": 1,
        "connection reset by peer": 1,
    }


def test_abandon():
    record()
    assert failures_resolve(agent="a1", task="sync", status="abandoned") == 1
    assert Failure.objects.get().status == "abandoned"
    assert FailurePattern.objects.get().resolved_count == 0
    with pytest.raises(ValueError):
        failures_resolve(agent="a1", task="sync", status="open")


def test_a_batch_counts_new_agents_and_tasks_per_pattern_once():
    from failures.records.services import failures_record_many

    failure_record(agent="x", task="t1", error="Disk full on host-1")
    entries = [
        dict(agent=agent, task=task, error=error)
        for agent, task, error in [
            ("x", "t1", "Disk full on host-2"),  # known agent and task of that pattern
            ("y", "t1", "Disk full on host-3"),  # new agent, known task
            ("y", "t2", "Disk full on host-4"),  # same new agent again, new task
            ("x", "t1", "Quota exceeded for user7"),  # another pattern: new to it
        ]
    ]
    failures_record_many(entries=entries)
    disk, quota = (
        FailurePattern.objects.get(template__startswith=word) for word in ("Disk", "Quota")
    )
    assert (disk.event_count, disk.agent_count, disk.task_count) == (4, 2, 2)
    assert (quota.event_count, quota.agent_count, quota.task_count) == (1, 1, 1)


def test_prepared_failures_are_stored_with_their_new_ids_and_closed_ones_count_as_resolved():
    still_open, closed = failures_prepare(
        entries=[{"agent": "a", "task": f"t{i}", "error": "disk full"} for i in range(2)]
    )
    closed.status = Failure.Status.RESOLVED
    stored = failures_store(rows=[still_open, closed])
    assert {f.pk for f in stored} == set(Failure.objects.values_list("pk", flat=True))
    assert None not in {f.pk for f in stored}
    pattern = FailurePattern.objects.get()
    assert (pattern.event_count, pattern.resolved_count) == (2, 1)
