"""The bench's writer sends event ids as the project's client makes them (time-ordered), unless
asked for random ones: which of the two a run used changes what the database does per write."""

import random
import uuid
from itertools import accumulate

import pytest
from django.db import connection

from bench.messages import all_makers
from bench.outcomes_bench import Writer

pytestmark = pytest.mark.django_db

ROWS = [{"agent": f"agent-{n}", "task_type": "sync", "files": [f"src/{n}.py"]} for n in range(5)]


def _event_ids(kind: str | None) -> list[uuid.UUID]:
    makers = all_makers()
    rng = random.Random(3)
    connection.ensure_connection()
    options = {} if kind is None else {"event_ids": kind}
    writer = Writer(
        connection.connection,
        ROWS,
        (makers, list(accumulate([1] * len(makers))), []),
        rng,
        **options,
    )
    return [uuid.UUID(item["event_id"]) for item in writer.batch(400) if "event_id" in item]


def test_event_ids_are_time_ordered_by_default():
    ids = _event_ids(None)
    assert len(ids) > 200  # ~70% of outcomes carry one
    assert {event_id.version for event_id in ids} == {7}
    # Made in order, they sort by their time (the first 48 bits, milliseconds) in that order.
    stamps = [event_id.int >> 80 for event_id in ids]
    assert stamps == sorted(stamps)


def test_random_event_ids_when_asked():
    ids = _event_ids("v4")
    assert {event_id.version for event_id in ids} == {4}
    assert len(set(ids)) == len(ids)


def test_without_the_client_time_ordered_ids_are_refused_by_name(monkeypatch):
    from bench import outcomes_bench

    monkeypatch.setitem(outcomes_bench.EVENT_IDS, "v7", None)  # as when it is not installed
    with pytest.raises(SystemExit, match="make install-dev"):
        _event_ids(None)
    assert _event_ids("v4")


def test_the_floor_measures_the_api_checks_of_the_writers_batches():
    """The bulk floor's CPU figures run the API's own per-item checks on the writer's batches:
    a change to those checks' signatures must not leave the suite's last table failing."""
    from bench import floor

    makers = all_makers()
    connection.ensure_connection()
    writer = Writer(
        connection.connection,
        ROWS,
        (makers, list(accumulate([1] * len(makers))), []),
        random.Random(5),
    )
    batches = [writer.batch(50) for _ in range(2)]
    assert floor.checking_cpu(batches) > 0
    assert floor.decoding_cpu(batches) > 0
