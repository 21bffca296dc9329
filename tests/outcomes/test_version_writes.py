"""The release, model and prompt version of outcomes, one by one and in bulk: stored with each
outcome and with the failure a failed one creates, answered, bounded, scrubbed and normalised
as the task type is, part of each event's digest."""

import uuid

import pytest

from config.api.idempotency import REPLAY_HEADER
from failures.models import Failure
from outcomes.models import Outcome

pytestmark = pytest.mark.django_db

URL = "/api/v1/outcomes"
BULK = "/api/v1/outcomes/bulk"
VERSIONS = ("release", "model", "prompt_version")
SENT = {"release": "coder@1.4.2", "model": "claude-sonnet-4-5", "prompt_version": "p7"}
# A GitHub token shape config.scrubbing catches.
TOKEN = "ghp_" + "Z9y8X7w6V5" * 4


def outcome(**overrides):
    return {
        "task_id": "t1",
        "agent": "agent-1",
        "task_type": "deploy",
        "outcome": "success",
        **overrides,
    }


def failed(**overrides):
    context = {"error_type": "key_error", "error_message": "KeyError: 'region'"}
    return outcome(outcome="failure", context=context, **overrides)


def versions_of(row) -> dict:
    return {name: getattr(row, name) for name in VERSIONS}


def test_a_success_stores_and_answers_them(api):
    response = api.post(URL, outcome(**SENT), format="json")
    assert response.status_code == 201, response.content
    assert {name: response.json()[name] for name in VERSIONS} == SENT
    assert versions_of(Outcome.objects.get()) == SENT


def test_a_failed_outcome_gives_its_failure_the_same(api):
    response = api.post(URL, failed(**SENT), format="json")
    assert response.status_code == 201, response.content
    stored = Outcome.objects.get()
    assert stored.failure_id == response.json()["failure"]["id"]
    assert versions_of(stored) == versions_of(Failure.objects.get()) == SENT


def test_bulk_stores_each_items_own(api):
    items = [
        outcome(task_id="a", **SENT),
        failed(task_id="b", release="coder@1.4.3", model="gpt-4o"),
        failed(task_id="c"),
        outcome(task_id="d", prompt_version="p8"),
    ]
    response = api.post(BULK, {"outcomes": items}, format="json")
    assert response.status_code == 200 and response.json()["created"] == 4, response.content
    stored = {row.task_id: versions_of(row) for row in Outcome.objects.all()}
    assert stored == {
        "a": SENT,
        "b": {"release": "coder@1.4.3", "model": "gpt-4o", "prompt_version": ""},
        "c": {"release": "", "model": "", "prompt_version": ""},
        "d": {"release": "", "model": "", "prompt_version": "p8"},
    }
    failures = {row.task: versions_of(row) for row in Failure.objects.all()}
    assert failures == {"b": stored["b"], "c": stored["c"]}


@pytest.mark.parametrize("name", VERSIONS)
@pytest.mark.parametrize("bad", ["x" * 101, 7, ["1.0"], None, "a\x00b"])
def test_a_bad_value_is_a_400_naming_the_field(api, name, bad):
    response = api.post(URL, failed(**{name: bad}), format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["fields"]) == {name}
    assert not Outcome.objects.exists() and not Failure.objects.exists()


@pytest.mark.parametrize("name", VERSIONS)
def test_bulk_names_the_field_of_the_bad_item_and_stores_the_rest(api, name):
    items = [outcome(task_id="good", **SENT), outcome(task_id="bad", **{name: "x" * 101})]
    response = api.post(BULK, {"outcomes": items}, format="json")
    assert response.status_code == 200, response.content
    good, bad = response.json()["results"]
    assert good["status"] == "created"
    assert bad["status"] == "invalid" and set(bad["fields"]) == {name}
    assert list(Outcome.objects.values_list("task_id", flat=True)) == ["good"]


@pytest.mark.parametrize("name", VERSIONS)
def test_a_value_at_the_limit_is_taken(api, name):
    response = api.post(URL, failed(**{name: "v" * 100}), format="json")
    assert response.status_code == 201, response.content
    assert getattr(Outcome.objects.get(), name) == getattr(Failure.objects.get(), name)
    assert getattr(Outcome.objects.get(), name) == "v" * 100


@pytest.mark.parametrize("url", [URL, BULK])
def test_a_secret_in_them_is_scrubbed_from_the_outcome_and_its_failure(api, url):
    item = failed(**{name: f"{name} token={TOKEN}" for name in VERSIONS})
    body = item if url == URL else {"outcomes": [item]}
    response = api.post(url, body, format="json")
    assert response.status_code in (200, 201), response.content
    assert TOKEN not in response.content.decode()
    for row in (Outcome.objects.get(), Failure.objects.get()):
        for name in VERSIONS:
            value = getattr(row, name)
            assert TOKEN not in value and value.startswith(f"{name} token="), (row, name)


def test_they_are_normalised_and_scrubbed_as_the_task_type_is(api):
    # Invisible characters and a terminal escape around a secret that they split.
    hostile = f"1.4\u200b.2 \x1b[31mapi_key={TOKEN[:10]}\u200d{TOKEN[10:]}\x1b[0m"
    response = api.post(
        URL, failed(task_type=hostile, **dict.fromkeys(VERSIONS, hostile)), format="json"
    )
    assert response.status_code == 201, response.content
    stored = Outcome.objects.get()
    assert TOKEN[10:] not in stored.task_type and "\x1b" not in stored.task_type
    assert versions_of(stored) == dict.fromkeys(VERSIONS, stored.task_type)
    assert versions_of(Failure.objects.get()) == versions_of(stored)


def test_a_replay_with_the_same_body_changes_nothing(api):
    body = failed(**SENT, event_id=str(uuid.uuid4()))
    first = api.post(URL, body, format="json")
    again = api.post(URL, body, format="json")
    assert first.status_code == again.status_code == 201
    assert again[REPLAY_HEADER] == "true" and again.json()["id"] == first.json()["id"]
    assert Outcome.objects.count() == Failure.objects.count() == 1


@pytest.mark.parametrize("name", VERSIONS)
def test_the_same_event_with_another_version_is_a_409(api, name):
    body = failed(**SENT, event_id=str(uuid.uuid4()))
    assert api.post(URL, body, format="json").status_code == 201
    other = api.post(URL, {**body, name: "something else"}, format="json")
    assert other.status_code == 409, other.content
    bare = {key: value for key, value in body.items() if key != name}
    assert api.post(URL, bare, format="json").status_code == 409
    assert Outcome.objects.count() == Failure.objects.count() == 1
    assert versions_of(Outcome.objects.get()) == SENT


def test_bulk_replays_the_same_event_and_refuses_another_release_for_it(api):
    body = outcome(**SENT, event_id=str(uuid.uuid4()))
    assert api.post(BULK, {"outcomes": [body]}, format="json").json()["created"] == 1
    again = api.post(
        BULK, {"outcomes": [body, {**body, "release": "coder@9.9.9"}]}, format="json"
    ).json()
    assert [item["status"] for item in again["results"]] == ["replayed", "conflict"]
    assert Outcome.objects.count() == 1 and Outcome.objects.get().release == "coder@1.4.2"
