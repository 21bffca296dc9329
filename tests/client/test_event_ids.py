"""Event ids the client makes: unique, and ordered by the time they were made (UUID version 7),
so the server's unique index on event ids grows at one end."""

import time
import uuid

from hindsight_client._core import event_id_new, with_event_id


def test_an_event_id_is_a_version_7_uuid_of_the_current_millisecond():
    before = time.time_ns() // 1_000_000
    event_id = event_id_new()
    after = time.time_ns() // 1_000_000

    assert event_id.version == 7 and event_id.variant == uuid.RFC_4122
    assert before <= event_id.int >> 80 <= after


def test_ids_made_later_sort_later_and_never_repeat():
    earlier = [event_id_new() for _ in range(1000)]
    time.sleep(0.002)
    later = [event_id_new() for _ in range(1000)]

    assert max(earlier) < min(later)
    assert len(set(earlier + later)) == 2000


def test_a_given_event_id_is_kept():
    given = str(uuid.uuid4())

    assert with_event_id({"event_id": given})["event_id"] == given
    assert uuid.UUID(with_event_id({})["event_id"]).version == 7
