"""Never the agent's failure: short timeouts, empty reads, and writes spooled and delivered later,
in order and exactly once."""

import asyncio
import json
import multiprocessing
import socket
import time
import uuid

import pytest

from failures.models import Failure
from hindsight_client import AsyncHindsight, Hindsight, Unavailable
from hindsight_client.spool import Spool
from outcomes.models import Outcome


@pytest.fixture
def dead_url():
    """A loopback URL where nothing listens: connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_reads_answer_empty_and_writes_spool_when_the_service_is_down(dead_url, tmp_path):
    hs = Hindsight(dead_url, "key", agent="a", spool_dir=tmp_path)

    known = hs.check_known_errors(error_type="rate_limit")
    briefing = hs.boot()
    written = hs.record_outcome("t1", "x", "success")

    assert known == {
        "lessons": [],
        "related": [],
        "has_resolution": False,
        "has_approved_resolution": False,
        "available": False,
    }
    assert briefing["available"] is False and briefing["skip"] == []
    assert written["spooled"] is True
    [entry] = hs.spool.pending()
    assert entry["event_id"] == written["event_id"] and entry["body"]["task_id"] == "t1"
    assert "key" not in hs.spool.path.read_text()  # the API key never reaches the disk


def test_a_spooled_failure_answers_the_event_id_it_will_be_sent_with(dead_url, tmp_path):
    hs = Hindsight(dead_url, agent="a", spool_dir=tmp_path)

    written = hs.record_failure("t1", "HTTP 502 Bad Gateway", error_type="upstream")

    [entry] = hs.spool.pending()
    assert written == {"event_id": entry["body"]["event_id"], "spooled": True}


def test_strict_reads_raise(dead_url, tmp_path):
    hs = Hindsight(dead_url, agent="a", spool_dir=tmp_path, strict=True)

    with pytest.raises(Unavailable):
        hs.boot()


def test_a_service_that_never_answers_times_out_quickly(tmp_path):
    # Listening but never accepting: the connection opens and the answer never comes.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        hs = Hindsight(url, agent="a", spool_dir=tmp_path, read_timeout=0.5)
        started = time.monotonic()
        known = hs.check_known_errors(error_type="x")
        elapsed = time.monotonic() - started

    assert known["available"] is False
    assert elapsed < 2


def test_an_event_id_is_spooled_once(tmp_path):
    spool = Spool(tmp_path, "http://example.invalid")
    body = {"event_id": str(uuid.uuid4()), "task_id": "t1"}

    assert spool.append("POST", "/api/v1/outcomes", body) is True
    assert spool.append("POST", "/api/v1/outcomes", body) is False
    assert len(spool.pending()) == 1


def _append_many(directory, prefix: str, count: int) -> None:
    spool = Spool(directory, "http://example.invalid")
    for number in range(count):
        spool.append("POST", "/api/v1/outcomes", {"event_id": f"{prefix}-{number}", "n": number})


def test_two_processes_append_without_corrupting_the_spool(tmp_path):
    context = multiprocessing.get_context("fork")
    workers = [
        context.Process(target=_append_many, args=(tmp_path, name, 300)) for name in ("p1", "p2")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)

    lines = Spool(tmp_path, "http://example.invalid").path.read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # every line whole
    assert len({e["event_id"] for e in entries}) == len(entries) == 600
    for name in ("p1", "p2"):  # each process's own order kept
        assert [e["body"]["n"] for e in entries if e["event_id"].startswith(name)] == list(
            range(300)
        )


def test_the_service_stopped_mid_run_gets_every_event_exactly_once(
    restartable_server, write_key, tmp_path
):
    events = [str(uuid.uuid4()) for _ in range(30)]
    # Two clients on one spool, as two processes of one agent would be.
    first, second = (
        Hindsight(
            restartable_server.url,
            write_key,
            agent="outage",
            read_timeout=2,
            spool_dir=tmp_path / "spool",
        )
        for _ in range(2)
    )

    def send(client, number):
        return client.record_outcome(
            f"task-{number:02}", "sync", "success", event_id=events[number]
        )

    assert not any(send(first, n)["spooled"] for n in range(10))
    restartable_server.stop()
    assert all(send((first, second)[n % 2], n)["spooled"] for n in range(10, 20))
    send(first, 5)  # a retry of a delivered event, while the service is down
    send(second, 12)  # a retry of a spooled one: not spooled twice
    assert len(first.spool.pending()) == 11
    restartable_server.start()
    assert not any(send((first, second)[n % 2], n)["spooled"] for n in range(20, 30))

    assert first.spool.is_empty()
    stored = Outcome.objects.filter(agent="outage").order_by("id")
    assert [str(o.event_id) for o in stored] == events  # each once, in the order sent
    assert [o.task_id for o in stored] == [f"task-{n:02}" for n in range(30)]


def test_a_successful_read_delivers_what_was_spooled(restartable_server, write_key, tmp_path):
    hs = Hindsight(restartable_server.url, write_key, agent="reader", spool_dir=tmp_path)
    restartable_server.stop()
    spooled = [hs.record_outcome(f"t{n}", "x", "success")["event_id"] for n in range(3)]
    restartable_server.start()

    assert hs.check_known_errors(error_type="x")["available"] is True
    assert hs.spool.is_empty()
    assert sorted(str(o.event_id) for o in Outcome.objects.filter(agent="reader")) == sorted(
        spooled
    )


def test_an_entry_the_service_refuses_moves_aside_and_the_rest_go_on(hs):
    bad, good = str(uuid.uuid4()), str(uuid.uuid4())
    hs.spool.append(
        "POST",
        "/api/v1/outcomes",
        {"event_id": bad, "task_id": "t", "agent": "a", "task_type": "x", "outcome": "maybe"},
    )
    hs.spool.append(
        "POST",
        "/api/v1/outcomes",
        {"event_id": good, "task_id": "t", "agent": "a", "task_type": "x", "outcome": "success"},
    )

    assert hs.flush() == 1
    assert hs.spool.is_empty()
    [dead] = [json.loads(line) for line in hs.spool.dead_path.read_text().splitlines()]
    assert dead["event_id"] == bad and "outcome" in dead["reason"]
    assert Outcome.objects.filter(event_id=good).exists()


def test_the_async_client_spools_and_flushes(restartable_server, write_key, tmp_path):
    async def run():
        async with AsyncHindsight(
            restartable_server.url, write_key, agent="async-outage", spool_dir=tmp_path
        ) as client:
            restartable_server.stop()
            written = await client.record_outcome("t1", "x", "success")
            restartable_server.start()
            return written, await client.flush()

    written, sent = asyncio.run(run())

    assert written["spooled"] is True and sent == 1
    assert Outcome.objects.filter(event_id=written["event_id"], agent="async-outage").exists()


def test_an_async_spooled_failure_is_resent_by_its_answers_event_id_once(
    restartable_server, write_key, tmp_path
):
    async def run():
        async with AsyncHindsight(
            restartable_server.url, write_key, agent="async-outage", spool_dir=tmp_path
        ) as client:
            restartable_server.stop()
            spooled = await client.record_failure(
                "t1", "HTTP 502 Bad Gateway", error_type="upstream"
            )
            restartable_server.start()
            again = await client.record_failure(
                "t1", "HTTP 502 Bad Gateway", error_type="upstream", event_id=spooled["event_id"]
            )
            return spooled, again

    spooled, again = asyncio.run(run())

    assert spooled["spooled"] is True and again["spooled"] is False
    assert again["event_id"] == spooled["event_id"]
    assert Failure.objects.filter(agent="async-outage").count() == 1


def test_an_unusable_spool_is_a_clear_error_for_writes_and_nothing_for_the_guard(
    dead_url, tmp_path
):
    from hindsight_client import Guard

    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    hs = Hindsight(dead_url, agent="a", spool_dir=not_a_directory)

    with pytest.raises(Unavailable, match="spool unusable"):
        hs.record_outcome("t1", "x", "success")
    assert hs.check_known_errors(error_type="x")["available"] is False
    assert Guard(hs, task_type="x").run(lambda: 42) == 42


def test_a_refused_key_keeps_the_spool_for_later(gunicorn_server, write_key, tmp_path):
    entry = {
        "event_id": str(uuid.uuid4()),
        "task_id": "t",
        "agent": "a",
        "task_type": "x",
        "outcome": "success",
    }
    wrong = Hindsight(gunicorn_server, "not-a-key", agent="a", spool_dir=tmp_path)
    wrong.spool.append("POST", "/api/v1/outcomes", entry)

    assert wrong.flush() == 0 and len(wrong.spool.pending()) == 1
    assert Hindsight(gunicorn_server, write_key, agent="a", spool_dir=tmp_path).flush() == 1
    assert Outcome.objects.filter(event_id=entry["event_id"]).exists()


def test_an_entry_for_another_agent_moves_aside_and_the_rest_go_on(
    gunicorn_server, transactional_db, tmp_path
):
    from config.api.services import api_key_create

    key = api_key_create(name="builders", scope="write", agent_patterns=["builder-*"]).raw
    theirs, mine = str(uuid.uuid4()), str(uuid.uuid4())
    hs = Hindsight(gunicorn_server, key, agent="builder-1", spool_dir=tmp_path)
    for event_id, agent in ((theirs, "deployer-1"), (mine, "builder-1")):
        hs.spool.append(
            "POST",
            "/api/v1/outcomes",
            {
                "event_id": event_id,
                "task_id": "t",
                "agent": agent,
                "task_type": "x",
                "outcome": "success",
            },
        )

    assert hs.flush() == 1
    assert hs.spool.is_empty()
    [dead] = [json.loads(line) for line in hs.spool.dead_path.read_text().splitlines()]
    assert dead["event_id"] == theirs
    assert Outcome.objects.filter(event_id=mine).exists()
    assert not Outcome.objects.filter(event_id=theirs).exists()
