"""Every write endpoint with a key bound to agents: its own agents (by name and by glob) write,
another agent's write is a 403 naming the field, and every stored row records the key."""

import uuid
from dataclasses import dataclass
from typing import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.api.models import ApiKey
from config.api.services import api_key_create
from failures.models import Failure
from failures.records.services import failure_record
from lessons.models import Application, Lesson, LessonProposal
from outcomes.models import Outcome
from tests.conftest import bearer
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db

OWN, GLOB, OTHER = "builder-1", "ci-7", "deployer"
ERROR = "Twilio API timeout after 30 seconds"


@pytest.fixture
def bound():
    """A write key bound to one agent by name and to others by glob, and its client."""
    created = api_key_create(name="builders", scope="write", agent_patterns=[OWN, "ci-*"])
    return created.key, bearer(created.raw)


@dataclass(frozen=True)
class Write:
    """One write endpoint: how to ask it in an agent's name, the field that names the agent,
    and the rows it stored (each must name the key)."""

    name: str
    send: Callable  # (client, agent, lesson) -> response
    field: str
    rows: Callable  # (response) -> list of stored rows


def _failure_rows(response):
    failure = Failure.objects.get(pk=response.json()["id"])
    return [failure, Outcome.objects.get(failure=failure)]


def _outcome_rows(response):
    outcome = Outcome.objects.get(pk=response.json()["id"])
    return [outcome, outcome.failure]


def _resolve(client, agent, lesson):
    failure_record(agent=agent, task="t-1", error=ERROR)
    return client.post("/api/v1/failures/resolve", {"agent": agent, "task": "t-1"}, format="json")


def _resolved(response):
    assert response.json()["resolved"] == 1
    return []  # closing writes no row of its own


def _apply_to_failure(client, agent, lesson):
    failure = failure_record(agent=agent, task="t-1", error=ERROR)
    return client.post(
        f"/api/v1/lessons/{lesson.pk}/applications",
        {"worked": True, "failure_id": failure.pk},
        format="json",
    )


WRITES = [
    Write(
        "failure",
        lambda c, agent, lesson: c.post(
            "/api/v1/failures", {"agent": agent, "task": "t-1", "error": ERROR}, format="json"
        ),
        "agent",
        _failure_rows,
    ),
    Write(
        "failure applying a lesson",
        lambda c, agent, lesson: c.post(
            "/api/v1/failures",
            {"agent": agent, "task": "t-1", "error": ERROR, "applied_lesson": str(lesson.pk)},
            format="json",
        ),
        "agent",
        lambda r: [*_failure_rows(r), Application.objects.get(failure_id=r.json()["id"])],
    ),
    Write(
        "outcome",
        lambda c, agent, lesson: c.post(
            "/api/v1/outcomes",
            {
                "task_id": "t-1",
                "agent": agent,
                "task_type": "sync",
                "outcome": "failure",
                "context": {"error_type": "timeout", "error_message": ERROR},
            },
            format="json",
        ),
        "agent",
        _outcome_rows,
    ),
    Write(
        "outcome applying a lesson",
        lambda c, agent, lesson: c.post(
            "/api/v1/outcomes",
            {
                "task_id": "t-1",
                "agent": agent,
                "task_type": "sync",
                "outcome": "success",
                "applied_lesson": str(lesson.pk),
            },
            format="json",
        ),
        "agent",
        lambda r: [Outcome.objects.get(pk=r.json()["id"]), Application.objects.get()],
    ),
    Write("resolve", _resolve, "agent", _resolved),
    Write(
        "application",
        lambda c, agent, lesson: c.post(
            f"/api/v1/lessons/{lesson.pk}/applications",
            {"worked": False, "agent": agent},
            format="json",
        ),
        "agent",
        lambda r: [Application.objects.get(pk=r.json()["id"])],
    ),
    Write(
        "application to a failure",
        _apply_to_failure,
        "failure_id",
        lambda r: [Application.objects.get(pk=r.json()["id"])],
    ),
]
AGENTS = [("own agent", OWN, True), ("agent of a glob", GLOB, True), ("other agent", OTHER, False)]


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
@pytest.mark.parametrize(("agent", "allowed"), [a[1:] for a in AGENTS], ids=[a[0] for a in AGENTS])
def test_a_bound_key_writes_for_its_agents_only(bound, write, agent, allowed):
    key, client = bound
    lesson = LessonFactory()
    response = write.send(client, agent, lesson)
    if allowed:
        assert response.status_code in (200, 201), response.json()
        rows = write.rows(response)
        assert [row.api_key_id for row in rows] == [key.pk] * len(rows)
        return
    assert response.status_code == 403
    body = response.json()
    assert list(body["fields"]) == [write.field]
    assert body["error"].startswith(f"Forbidden {write.field}:")
    assert f"{OWN}, ci-*" in body["fields"][write.field][0]
    # Nothing was written in the other agent's name, and its failures stay open.
    assert not Outcome.objects.exists() and not Application.objects.exists()
    assert set(Failure.objects.values_list("api_key_id", "status")) <= {(None, "open")}


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_a_fleet_key_writes_for_any_agent(make_key, write):
    client = bearer(make_key("write", name="fleet"))
    response = write.send(client, OTHER, LessonFactory())
    assert response.status_code in (200, 201), response.json()
    assert all(row.api_key.name == "fleet" for row in write.rows(response))


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/v1/failures", {"agent": OTHER, "task": "t-1", "error": ERROR}),
        ("/api/v1/lessons/{lesson}/applications", {"worked": True, "agent": OTHER}),
    ],
    ids=["failure", "application"],
)
def test_a_bound_key_replaying_another_agents_event_is_refused_not_answered(
    bound, make_key, path, body
):
    """The key's agents are checked before a replay answers: a stored answer is another
    agent's data."""
    _, client = bound
    url, sent = path.format(lesson=LessonFactory().pk), {**body, "event_id": str(uuid.uuid4())}
    first = bearer(make_key("write", name="fleet")).post(url, sent, format="json")
    assert first.status_code == 201
    replay = client.post(url, sent, format="json")
    assert replay.status_code == 403 and "Idempotent-Replayed" not in replay
    assert list(replay.json()["fields"]) == ["agent"]


def test_bulk_stores_the_own_agents_items_and_refuses_the_others(bound):
    key, client = bound
    items = [
        {
            "task_id": f"t-{n}",
            "agent": agent,
            "task_type": "sync",
            "outcome": "failure",
            "event_id": str(uuid.uuid4()),
            "context": {"error_type": "timeout", "error_message": ERROR},
        }
        for n, agent in enumerate([OWN, OTHER, GLOB, OTHER])
    ]
    response = client.post("/api/v1/outcomes/bulk", {"outcomes": items}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert [r["status"] for r in body["results"]] == [
        "created",
        "forbidden",
        "created",
        "forbidden",
    ]
    assert (body["created"], body["forbidden"]) == (2, 2)
    refused = body["results"][1]
    assert list(refused["fields"]) == ["agent"] and refused["error"].startswith("Forbidden agent:")
    assert set(Outcome.objects.values_list("agent", "api_key_id")) == {
        (OWN, key.pk),
        (GLOB, key.pk),
    }
    assert set(Failure.objects.values_list("agent", "api_key_id")) == {
        (OWN, key.pk),
        (GLOB, key.pk),
    }


def test_a_bound_key_cannot_close_another_agents_failures_with_a_success(bound):
    _, client = bound
    failure_record(agent=OTHER, task="t-1", error=ERROR)
    response = client.post(
        "/api/v1/outcomes/bulk",
        {
            "outcomes": [
                {"task_id": "t-1", "agent": OTHER, "task_type": "sync", "outcome": "success"}
            ]
        },
        format="json",
    )
    assert response.json()["results"][0]["status"] == "forbidden"
    assert Failure.objects.get().status == "open"


def test_a_lesson_names_no_agent_and_records_its_first_writer(bound, make_key):
    key, client = bound
    body = {"error_pattern": "twilio-timeout", "error_type": "timeout", "resolution": "wait"}
    assert client.post("/api/v1/lessons", body, format="json").status_code == 201
    lesson = Lesson.objects.get()
    assert lesson.api_key_id == key.pk
    other = bearer(make_key("write", name="fleet"))
    assert other.post("/api/v1/lessons", body, format="json").status_code == 200
    lesson.refresh_from_db()
    assert (lesson.occurrences, lesson.api_key_id) == (2, key.pk)  # counted, writer kept


def test_a_proposal_records_the_key_that_first_proposed_it(bound, make_key):
    key, client = bound
    lesson = LessonFactory(error_pattern="twilio-timeout", status=Lesson.Status.APPROVED)
    body = {
        "error_pattern": lesson.error_pattern,
        "error_type": "timeout",
        "resolution": "raise the timeout",
    }
    assert client.post("/api/v1/lessons", body, format="json").json()["proposal_id"]
    other = bearer(make_key("write", name="fleet"))
    other.post("/api/v1/lessons", body, format="json")
    proposal = LessonProposal.objects.get()
    assert (proposal.times_proposed, proposal.api_key_id) == (2, key.pk)


@pytest.mark.parametrize("agent", [OWN, OTHER])
def test_the_check_adds_no_query(bound, agent):
    """The key's patterns come with the row authentication read: that read is the only query
    of the key table, whether the write is allowed or refused."""
    _, client = bound
    client.get("/api/v1/lessons")  # last_used_at is now fresh: no write to the key for a while
    with CaptureQueriesContext(connection) as queries:
        client.post(
            "/api/v1/outcomes",
            {"task_id": "t-1", "agent": agent, "task_type": "sync", "outcome": "success"},
            format="json",
        )
    of_keys = [q["sql"] for q in queries if "api_apikey" in q["sql"]]
    assert len(of_keys) == 1 and of_keys[0].startswith("SELECT")


def test_binding_a_key_applies_to_its_next_request(make_key):
    """Keys are read afresh on every request: nothing caches what a key may write for."""
    client = bearer(make_key("write", name="fleet"))
    body = {"agent": OTHER, "task": "t-1"}
    assert client.post("/api/v1/failures/resolve", body, format="json").status_code == 200
    ApiKey.objects.filter(name="fleet").update(agent_patterns=[OWN])
    assert client.post("/api/v1/failures/resolve", body, format="json").status_code == 403


def test_a_bound_key_reads_the_whole_fleet(bound):
    _, client = bound
    failure_record(agent=OTHER, task="t-1", error=ERROR)
    assert client.get("/api/v1/failures", {"agent": OTHER}).json()["failures"]
    assert client.get("/api/v1/boot", {"agent": OTHER}).status_code == 200
    assert client.get("/api/v1/outcomes/history", {"agent": OTHER}).status_code == 200
