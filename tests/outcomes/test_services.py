"""Writing the ledger: one write per event, replays, the batch's order, retention."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from failures.models import Failure, FailurePattern
from failures.records.services import failure_record
from failures.store.mining import patterns_recount
from outcomes.models import Outcome, OutcomeFile
from outcomes.services import outcomes_prune, outcomes_record
from outcomes.validation import outcome_parse

pytestmark = pytest.mark.django_db


def parsed(**fields):
    raw = {"task_id": "t1", "agent": "dev", "task_type": "sync", "outcome": "success", **fields}
    item, errors = outcome_parse(raw)
    assert not errors, errors
    return item


def failed(message="Connection refused to db-7:5432", **fields):
    context = {"error_type": "connection", "error_message": message, **fields.pop("context", {})}
    return parsed(outcome="failure", context=context, **fields)


def test_a_failed_outcome_with_an_error_becomes_a_failure_with_its_pattern():
    [recorded] = outcomes_record(
        items=[
            failed(
                context={"retry_safe": True, "retry_after": 30, "checkpoint": {"resume_from": 48}}
            )
        ]
    )
    outcome = Outcome.objects.get()
    failure = Failure.objects.get()
    assert recorded.status == "created" and recorded.outcome.pk == outcome.pk
    assert outcome.failure == failure and outcome.pattern_id == failure.pattern_id
    assert (failure.agent, failure.task, failure.task_type, failure.error_type) == (
        "dev",
        "t1",
        "sync",
        "connection",
    )
    assert (failure.retry_safe, failure.retry_after, failure.checkpoint) == (
        True,
        30,
        {"resume_from": 48},
    )
    pattern = FailurePattern.objects.get()
    assert (pattern.event_count, pattern.agent_count, pattern.task_count) == (1, 1, 1)
    assert pattern.template == "Connection refused to <*>:<*>"


def test_a_failed_outcome_without_an_error_message_is_only_an_outcome():
    outcomes_record(items=[parsed(outcome="failure", context={"error_type": "timeout"})])
    assert Outcome.objects.get().failure is None and not Failure.objects.exists()


def test_a_success_closes_the_tasks_open_failures_and_says_how_many():
    mine = [
        failure_record(agent="dev", task="t1", error="Connection refused to db-1:5432")
        for _ in range(2)
    ]
    other_agent = failure_record(agent="qa", task="t1", error="Connection refused to db-1:5432")
    other_task = failure_record(agent="dev", task="t2", error="Connection refused to db-1:5432")
    [recorded] = outcomes_record(items=[parsed()])
    assert recorded.outcome.resolved_failures == 2
    statuses = dict(Failure.objects.values_list("pk", "status"))
    assert [statuses[f.pk] for f in mine] == ["resolved", "resolved"]
    assert statuses[other_agent.pk] == statuses[other_task.pk] == "open"
    assert FailurePattern.objects.get().resolved_count == 2


def test_in_one_batch_a_success_closes_only_the_failures_before_it():
    before, success, after, second = outcomes_record(
        items=[failed(), parsed(), failed(message="Connection refused to db-9:5432"), parsed()]
    )
    assert before.outcome.failure.status == "resolved"  # stored closed
    assert Failure.objects.get(pk=before.outcome.failure_id).status == "resolved"
    assert success.outcome.resolved_failures == 1
    assert Failure.objects.get(pk=after.outcome.failure_id).status == "resolved"
    assert second.outcome.resolved_failures == 1


def test_a_failure_after_the_last_success_of_a_batch_stays_open():
    success, after = outcomes_record(items=[parsed(), failed()])
    assert success.outcome.resolved_failures == 0
    assert Failure.objects.get(pk=after.outcome.failure_id).status == "open"


def test_a_late_success_closes_only_what_failed_before_it_as_of_when_it_happened():
    now = timezone.now()
    before = failure_record(
        agent="dev",
        task="t1",
        error="Connection refused to db-1:5432",
        occurred_at=now - timedelta(minutes=10),
    )
    since = failure_record(
        agent="dev",
        task="t1",
        error="Connection refused to db-1:5432",
        occurred_at=now - timedelta(minutes=2),
    )
    # Sent from a spool: it happened five minutes ago, between the two failures.
    [late] = outcomes_record(items=[parsed(occurred_at=(now - timedelta(minutes=5)).isoformat())])
    assert late.outcome.resolved_failures == 1
    before.refresh_from_db(), since.refresh_from_db()
    assert (before.status, before.resolved_at) == ("resolved", now - timedelta(minutes=5))
    assert since.status == "open"


def test_in_one_batch_each_failure_is_closed_by_the_earliest_success_after_it_by_time():
    now = timezone.now()
    at = lambda minutes: (now - timedelta(minutes=minutes)).isoformat()  # noqa: E731
    # Listed out of order: what counts is when each happened.
    late, early, failure, stale = outcomes_record(
        items=[
            parsed(occurred_at=at(1)),
            parsed(occurred_at=at(3)),
            failed(occurred_at=at(4)),
            parsed(occurred_at=at(6)),
        ]
    )
    closed = Failure.objects.get()
    assert (closed.status, closed.resolved_at) == ("resolved", now - timedelta(minutes=3))
    assert (
        early.outcome.resolved_failures,
        late.outcome.resolved_failures,
        stale.outcome.resolved_failures,
    ) == (1, 0, 0)


def test_an_event_id_replay_changes_nothing():
    event = str(uuid.uuid4())
    [first] = outcomes_record(items=[failed(event_id=event)])
    [again] = outcomes_record(items=[failed(event_id=event)])
    assert (first.status, again.status) == ("created", "replayed")
    assert again.outcome.pk == first.outcome.pk
    assert Outcome.objects.count() == Failure.objects.count() == 1
    assert FailurePattern.objects.get().event_count == 1


def test_a_reused_event_id_with_another_body_is_a_conflict():
    event = str(uuid.uuid4())
    outcomes_record(items=[parsed(event_id=event)])
    [clash] = outcomes_record(items=[parsed(event_id=event, task_id="t9")])
    assert clash.status == "conflict" and event in clash.message
    assert Outcome.objects.count() == 1


def test_the_same_event_twice_in_one_batch_is_stored_once():
    event = str(uuid.uuid4())
    first, again, clash = outcomes_record(
        items=[failed(event_id=event), failed(event_id=event), parsed(event_id=event)]
    )
    assert (first.status, again.status, clash.status) == ("created", "replayed", "conflict")
    assert again.outcome.pk == first.outcome.pk
    assert Outcome.objects.count() == 1 and FailurePattern.objects.get().event_count == 1


def test_a_batch_repeating_a_stored_event_answers_each_copy_from_the_stored_row():
    event = str(uuid.uuid4())
    [stored] = outcomes_record(items=[failed(event_id=event)])
    again, clash, twice, new = outcomes_record(
        items=[failed(event_id=event), parsed(event_id=event), failed(event_id=event), parsed()]
    )
    assert [r.status for r in (again, clash, twice, new)] == [
        "replayed",
        "conflict",
        "replayed",
        "created",
    ]
    assert again.outcome.pk == twice.outcome.pk == stored.outcome.pk
    assert Outcome.objects.count() == 2 and FailurePattern.objects.get().event_count == 1


def test_a_replayed_success_closes_nothing_failed_since():
    """The outcome is stored last, after the closing: a replay's closing is undone."""
    event = str(uuid.uuid4())
    [success] = outcomes_record(items=[parsed(event_id=event)])
    [failure] = outcomes_record(items=[failed()])
    [again] = outcomes_record(items=[parsed(event_id=event)])
    assert (again.status, again.outcome.pk) == ("replayed", success.outcome.pk)
    assert again.outcome.resolved_failures == 0
    assert Failure.objects.get().status == Failure.Status.OPEN
    assert FailurePattern.objects.get().resolved_count == 0


def test_a_conflicting_event_leaves_no_failure_pattern_or_count_behind():
    event = str(uuid.uuid4())
    outcomes_record(items=[parsed(event_id=event)])
    patterns = FailurePattern.objects.count()
    [clash, new] = outcomes_record(
        items=[failed("Quota exceeded for bucket logs-eu", event_id=event), failed()]
    )
    assert (clash.status, new.status) == ("conflict", "created")
    assert Failure.objects.get().error == "Connection refused to db-7:5432"
    assert FailurePattern.objects.count() == patterns + 1  # the new failure's pattern only
    assert FailurePattern.objects.get(pk=new.outcome.pattern_id).event_count == 1


def test_new_events_are_written_without_reading_the_ledger_first():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        outcomes_record(items=[parsed(event_id=str(uuid.uuid4()))])
    reads = [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith("SELECT") and "outcomes_outcome" in q["sql"]
    ]
    assert reads == []


def test_a_batch_is_one_transaction(monkeypatch):
    from outcomes import services

    def broken(rows, files):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "outcomes_insert", broken)  # after the failures are stored
    with pytest.raises(RuntimeError):
        outcomes_record(items=[failed(context={"file_path": "a.py"}), parsed()])
    assert not Outcome.objects.exists() and not Failure.objects.exists()
    assert not FailurePattern.objects.filter(event_count__gt=0).exists()


def test_secrets_in_context_and_result_are_scrubbed_before_storage():
    token = "ghp_" + "a1B2c3D4e5" * 4
    outcomes_record(
        items=[
            failed(
                message=f"push failed: token {token} rejected",
                context={"password": "hunter2"},
                result={"log": f"used {token}"},
            )
        ]
    )
    outcome = Outcome.objects.get()
    stored = str(outcome.context) + str(outcome.result) + outcome.failure.error
    assert token not in stored and "hunter2" not in stored


def test_files_are_stored_for_related_lookups():
    [recorded] = outcomes_record(
        items=[
            parsed(
                context={"file_path": "./src/a.py"},
                result={"files_changed": ["src/a.py", "src/b.py"]},
            )
        ]
    )
    assert sorted(OutcomeFile.objects.values_list("path", flat=True)) == ["src/a.py", "src/b.py"]
    assert set(OutcomeFile.objects.values_list("occurred_at", flat=True)) == {
        recorded.outcome.occurred_at
    }


def test_prune_deletes_old_outcomes_in_batches_and_keeps_failures_and_pattern_counts():
    old = timezone.now() - timedelta(days=40)
    outcomes_record(
        items=[
            failed(
                occurred_at=(old + timedelta(minutes=i)).isoformat(),
                context={"file_path": f"f{i}.py"},
            )
            for i in range(7)
        ]
    )
    outcomes_record(items=[failed(), parsed(task_id="t2")])
    pattern_before = FailurePattern.objects.values(
        "event_count", "agent_count", "task_count"
    ).get()
    assert outcomes_prune(older_than_days=30, batch_size=3) == 7
    assert Outcome.objects.count() == 2 and OutcomeFile.objects.count() == 0
    assert Failure.objects.count() == 8
    patterns_recount()
    assert (
        FailurePattern.objects.values("event_count", "agent_count", "task_count").get()
        == pattern_before
    )


def test_prune_command(capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    outcomes_record(items=[parsed(occurred_at=(timezone.now() - timedelta(days=9)).isoformat())])
    call_command("prune_outcomes", "--older-than", "8")
    assert "1 outcome(s)" in capsys.readouterr().out and not Outcome.objects.exists()
    with pytest.raises(CommandError):
        call_command("prune_outcomes", "--older-than", "0")


def test_a_mixed_batch_stores_outcomes_failures_files_and_counts_once():
    """Outcomes stored first with their new failures' ids, the failures last: a batch with a
    repeated event, a success closing a failure of its own request and one closing an older
    failure stores and answers each once."""
    event = str(uuid.uuid4())
    outcomes_record(items=[failed(task_id="old")])
    recorded = outcomes_record(
        items=[
            failed(event_id=event, context={"file_path": "a.py"}),
            parsed(event_id=event),
            failed(message="Quota exceeded for bucket logs-eu", task_id="t2"),
            parsed(task_id="t2", context={"files": ["b.py", "c.py"]}),
            parsed(task_id="old"),
        ]
    )
    [again] = outcomes_record(items=[failed(event_id=event, context={"file_path": "a.py"})])
    assert [r.status for r in recorded] == ["created", "conflict", "created", "created", "created"]
    assert [r.outcome.resolved_failures for r in recorded if r.outcome] == [0, 0, 1, 1]
    assert again.status == "replayed" and again.outcome.pk == recorded[0].outcome.pk
    assert Outcome.objects.count() == 5 and Failure.objects.count() == 3
    statuses = dict(Failure.objects.values_list("task", "status"))
    assert statuses == {"old": "resolved", "t1": "open", "t2": "resolved"}
    for outcome in Outcome.objects.filter(outcome="failure"):
        assert outcome.failure.pattern_id == outcome.pattern_id
    assert sorted(OutcomeFile.objects.values_list("path", flat=True)) == ["a.py", "b.py", "c.py"]
    counts = {
        p.template[:5]: (p.event_count, p.resolved_count) for p in FailurePattern.objects.all()
    }
    assert sorted(counts.values()) == [(1, 1), (2, 1)]


def test_each_item_of_a_batch_is_answered_with_the_row_stored_for_it():
    """Outcomes go in event-id order, not the request's: each answer names its own row, every
    column stored as sent, and each file belongs to the outcome that named it."""
    events = sorted((uuid.uuid4() for _ in range(6)), reverse=True)
    items = [
        parsed(
            event_id=str(event),
            task_id=f"t{k}",
            duration_ms=k * 10,
            context={"file_path": f"src/{k}.py", "depth": {"k": k}},
            result={"approach": f"try {k}"},
            occurred_at=(timezone.now() - timedelta(minutes=k)).isoformat(),
        )
        for k, event in enumerate(events)
    ]
    items.insert(3, parsed(task_id="no-event", context={"files": ["x.py", "y.py"]}))
    recorded = outcomes_record(items=items)
    for item, answer in zip(items, recorded):
        stored = Outcome.objects.get(pk=answer.outcome.pk)
        assert (
            stored.event_id,
            stored.task_id,
            stored.duration_ms,
            stored.context,
            stored.result,
            stored.occurred_at,
            stored.recorded_at,
        ) == (
            item.event_id,
            item.task_id,
            item.duration_ms,
            item.context,
            item.result,
            item.occurred_at,
            answer.outcome.recorded_at,
        )
        assert sorted(stored.files.values_list("path", "occurred_at")) == [
            (path, item.occurred_at) for path in sorted(item.files)
        ]
