"""The guard's flow against a live server: skip at boot, failure, lesson, strategy, application,
outcome; and the agent's call unchanged when the service is down."""

import socket

import pytest

from failures.models import Failure
from hindsight_client import (
    Guard,
    Hindsight,
    SkipTask,
    Strategies,
    current_attempt,
    fallback,
    reraise,
    retry,
)
from lessons.models import Application
from outcomes.models import Outcome

RATE_LIMIT = "HTTP 429 Too Many Requests from api.example.com"


class RateLimited(Exception):
    error_type = "rate_limit"


class StaleToken(Exception):
    pass


def flaky(failures: int, exc: Exception, value="done"):
    """A callable that raises ``exc`` its first ``failures`` calls, then returns ``value``."""
    calls = []

    def call(*args, **kwargs):
        calls.append((args, kwargs))
        if len(calls) <= failures:
            raise exc
        return value

    call.calls = calls
    return call


@pytest.fixture
def lesson(hs):
    """A known lesson for the rate limit, linked to its pattern."""
    return hs.record_lesson(
        "client_rate_limit", "rate_limit", "Wait, then retry.", error_message=RATE_LIMIT
    )


def test_success_records_the_outcome_which_closes_open_failures(hs):
    hs.record_failure("sync-users", "connection reset by peer", task_type="sync")

    @Guard(hs, task_type="sync", task="sync-users")
    def sync_users():
        return 7

    assert sync_users() == 7
    assert Outcome.objects.filter(task_id="sync-users", outcome="success").count() == 1
    assert list(Failure.objects.filter(task="sync-users").values_list("status", flat=True)) == [
        "resolved"
    ]


def test_a_task_boot_says_to_skip_is_not_run(hs):
    for _ in range(3):
        hs.record_failure("send-report", "SMTP 550 mailbox unavailable", task_type="mail")
    send_report = flaky(0, None)

    with pytest.raises(SkipTask) as caught:
        Guard(hs, task_type="mail", task="send-report").run(send_report)

    assert send_report.calls == [] and caught.value.until


def test_retry_strategy_recovers_and_reports_the_lesson_worked(hs, lesson):
    fetch = flaky(1, RateLimited(RATE_LIMIT), value={"user": 1})
    waits = []
    strategies = Strategies().on_pattern("client_rate_limit", retry(delay=0.25, attempts=2))

    result = Guard(hs, task_type="fetch", strategies=strategies, sleep=waits.append).run(fetch, 1)

    assert result == {"user": 1} and len(fetch.calls) == 2 and waits == [0.25]
    [failure] = Failure.objects.filter(task="call", agent="agent-1")
    assert failure.status == "resolved" and failure.error_type == "rate_limit"
    assert Application.objects.get(lesson_id=lesson["id"]).worked is True


def test_a_retry_that_keeps_failing_raises_and_reports_the_lesson_did_not_work(hs, lesson):
    fetch = flaky(10, RateLimited(RATE_LIMIT))
    strategies = Strategies().on_type("rate_limit", retry(delay=0, attempts=2))

    with pytest.raises(RateLimited):
        Guard(hs, task_type="fetch", task="fetch-all", strategies=strategies).run(fetch)

    assert len(fetch.calls) == 3
    counts = Failure.objects.filter(task="fetch-all").values_list("attempt_count", flat=True)
    assert sorted(counts) == [1, 2, 3]
    assert Application.objects.get(lesson_id=lesson["id"]).worked is False


def test_fallback_strategy_calls_the_alternative_with_the_same_arguments(hs):
    # A lesson for this very error (linked to its pattern): one of its type only is no answer.
    hs.record_lesson(
        "stale_token",
        "StaleToken",
        "Refresh the token and read from the cache.",
        error_message="token expired",
    )
    alternative = flaky(0, None, value="from-cache")
    strategies = Strategies().on_type("StaleToken", fallback(alternative))

    @Guard(hs, task_type="fetch", strategies=strategies)
    def read_profile(user_id, *, fresh):
        raise StaleToken("token expired")

    assert read_profile(5, fresh=True) == "from-cache"
    assert alternative.calls == [((5,), {"fresh": True})]
    assert Outcome.objects.filter(task_id="read_profile", outcome="success").exists()


def test_no_lesson_means_the_error_passes_with_checkpoint_and_side_effects_recorded(hs):
    @Guard(hs, task_type="import", strategies=Strategies().on_type("x", reraise()))
    def import_rows():
        attempt = current_attempt()
        attempt.checkpoint = {"done": 47, "resume_from": 48}
        attempt.side_effects.append("wrote rows 1-47")
        attempt.retry_safe = False
        raise ValueError("row 48: duplicate key")

    with pytest.raises(ValueError, match="row 48"):
        import_rows()

    failure = Failure.objects.get(task="import_rows")
    assert failure.checkpoint == {"done": 47, "resume_from": 48}
    assert (failure.side_effects, failure.retry_safe) == (["wrote rows 1-47"], False)


def test_with_block_success_fallback_and_retry(hs, lesson):
    hs.record_lesson("stale_token", "StaleToken", "Use the cached copy.", error_message="expired")
    strategies = (
        Strategies()
        .on_type("StaleToken", fallback(lambda: "cached"))
        .on_pattern("client_rate_limit", retry(delay=30))
    )

    with Guard(hs, task_type="block", task="ok-block") as attempt:
        pass
    with Guard(hs, task_type="block", task="stale-block", strategies=strategies) as stale:
        raise StaleToken("expired")
    with pytest.raises(RateLimited):
        with Guard(hs, task_type="block", task="limited", strategies=strategies) as limited:
            raise RateLimited(RATE_LIMIT)

    assert attempt.failure is None and stale.result == "cached"
    assert limited.retry_after == 30 and limited.lesson["id"] == lesson["id"]
    assert set(Outcome.objects.filter(outcome="success").values_list("task_id", flat=True)) == {
        "ok-block",
        "stale-block",
    }


def test_the_service_down_changes_nothing_for_the_call(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    hs = Hindsight(url, agent="offline", spool_dir=tmp_path)
    guard = Guard(hs, task_type="x", strategies=Strategies().on_type("ValueError", retry()))

    assert guard.run(lambda: "ok") == "ok"
    with pytest.raises(ValueError, match="boom"):
        guard.run(flaky(5, ValueError("boom")))

    assert [e["path"] for e in hs.spool.pending()] == ["/api/v1/outcomes", "/api/v1/failures"]
