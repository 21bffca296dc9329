"""PostgreSQL restarted under a running service: the agent's client spools what the service could
not store, and once the database is back every event is stored exactly once, in the order sent."""

import threading
import uuid

from hindsight_client import Hindsight
from tests.faults.conftest import manage

EVENTS = 60


def _stored(database, agent: str) -> list[tuple[str, str]]:
    with database.connect() as connection:
        rows = connection.execute(
            "SELECT event_id::text, task_id FROM outcomes_outcome WHERE agent = %s ORDER BY id",
            [agent],
        ).fetchall()
    return [(event_id, task_id) for event_id, task_id in rows]


def test_a_database_restart_mid_run_loses_and_doubles_nothing(
    throwaway_postgres, gunicorn_on, tmp_path
):
    database = throwaway_postgres
    key = (
        manage(database.url(), "apikey", "create", "fault-agent", "--scope", "write")
        .strip()
        .splitlines()[-1]
    )
    # Its own cache namespace: the shared test Redis must not answer for another database.
    base = gunicorn_on(database.url(), HINDSIGHT_CACHE_PREFIX=f"faults-{uuid.uuid4().hex}")
    events = [str(uuid.uuid4()) for _ in range(EVENTS)]
    spooled: list[int] = []

    def send(client, number: int) -> None:
        failed = number % 3 == 0
        answer = client.record_outcome(
            f"task-{number:02}",
            "sync",
            "failure" if failed else "success",
            context={"error_type": "timeout", "error_message": f"timed out after {number}s"}
            if failed
            else None,
            event_id=events[number],
        )
        if answer["spooled"]:
            spooled.append(number)

    with Hindsight(
        base, key, agent="restart", read_timeout=10, spool_dir=tmp_path / "spool"
    ) as client:
        for number in range(0, 20):
            send(client, number)
        assert spooled == []

        # Stop the database while writes are in flight, then keep writing while it is down.
        stopping = threading.Thread(target=database.stop, args=("immediate",))
        stopping.start()
        for number in range(20, 35):
            send(client, number)
        stopping.join()
        for number in range(35, 40):
            send(client, number)
        assert set(range(35, 40)) <= set(spooled)

        # Start it again while writes go on: the first ones after it answers drain the spool.
        starting = threading.Thread(target=database.start)
        starting.start()
        for number in range(40, 50):
            send(client, number)
        starting.join()
        for number in range(50, EVENTS):
            send(client, number)
        client.flush()
        assert client.spool.is_empty()
        assert not client.spool.dead_path.exists()

    stored = _stored(database, "restart")
    assert [event_id for event_id, _ in stored] == events  # each once, in the order sent
    assert [task_id for _, task_id in stored] == [f"task-{n:02}" for n in range(EVENTS)]
