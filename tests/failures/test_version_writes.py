"""The release, model and prompt version of a failure posted directly: stored with it and with
the failed outcome it appends, listed with it, bounded, scrubbed and normalised as its task type
is, part of its event's digest; and boot's release parameter bounded alike."""

import uuid

import pytest

from config.api.idempotency import REPLAY_HEADER
from failures.models import Failure
from outcomes.models import Outcome

pytestmark = pytest.mark.django_db

URL = "/api/v1/failures"
VERSIONS = ("release", "model", "prompt_version")
SENT = {"release": "coder@1.4.2", "model": "claude-sonnet-4-5", "prompt_version": "p7"}
# A GitHub token shape config.scrubbing catches.
TOKEN = "ghp_" + "Z9y8X7w6V5" * 4


def failure(**overrides):
    return {"agent": "agent-1", "task": "t1", "error": "HTTP 502 Bad Gateway", **overrides}


def versions_of(row) -> dict:
    return {name: getattr(row, name) for name in VERSIONS}


def test_a_failure_stores_them_and_so_does_the_outcome_it_appends(api):
    response = api.post(URL, failure(**SENT), format="json")
    assert response.status_code == 201, response.content
    stored = Failure.objects.get(pk=response.json()["id"])
    assert versions_of(stored) == SENT
    [appended] = Outcome.objects.all()
    assert (appended.failure_id, appended.outcome) == (stored.pk, "failure")
    assert versions_of(appended) == SENT


def test_each_is_optional_and_blank_when_not_sent(api):
    response = api.post(URL, failure(model="gpt-4o"), format="json")
    assert response.status_code == 201, response.content
    expected = {"release": "", "model": "gpt-4o", "prompt_version": ""}
    assert versions_of(Failure.objects.get()) == expected
    assert versions_of(Outcome.objects.get()) == expected


def test_the_list_answers_them(api, read_api):
    api.post(URL, failure(**SENT), format="json")
    [listed] = read_api.get(URL).json()["failures"]
    assert {name: listed[name] for name in VERSIONS} == SENT


@pytest.mark.parametrize("name", VERSIONS)
@pytest.mark.parametrize("bad", ["x" * 101, 7, ["1.0"], {"v": 1}, None, "a\x00b"])
def test_a_bad_value_is_a_400_naming_the_field_and_stores_nothing(api, name, bad):
    response = api.post(URL, failure(**{name: bad}), format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["fields"]) == {name}
    assert not Failure.objects.exists() and not Outcome.objects.exists()


@pytest.mark.parametrize("name", VERSIONS)
def test_a_value_at_the_limit_is_taken(api, name):
    response = api.post(URL, failure(**{name: "v" * 100}), format="json")
    assert response.status_code == 201, response.content
    assert getattr(Failure.objects.get(), name) == "v" * 100


def test_a_secret_in_them_is_scrubbed_from_the_failure_its_outcome_and_the_list(api, read_api):
    response = api.post(
        URL, failure(**{name: f"{name} token={TOKEN}" for name in VERSIONS}), format="json"
    )
    assert response.status_code == 201, response.content
    for row in (Failure.objects.get(), Outcome.objects.get()):
        for name in VERSIONS:
            value = getattr(row, name)
            assert TOKEN not in value and value.startswith(f"{name} token="), (row, name)
    assert TOKEN not in read_api.get(URL).content.decode()


def test_they_are_normalised_and_scrubbed_as_the_task_type_is(api):
    # Invisible characters and a terminal escape around a secret that they split.
    hostile = f"1.4\u200b.2 \x1b[31mapi_key={TOKEN[:10]}\u200d{TOKEN[10:]}\x1b[0m"
    response = api.post(
        URL, failure(task_type=hostile, **dict.fromkeys(VERSIONS, hostile)), format="json"
    )
    assert response.status_code == 201, response.content
    stored = Failure.objects.get()
    assert TOKEN[10:] not in stored.task_type and "\x1b" not in stored.task_type
    assert versions_of(stored) == dict.fromkeys(VERSIONS, stored.task_type)


def test_a_replay_with_the_same_body_changes_nothing(api):
    body = failure(**SENT, event_id=str(uuid.uuid4()))
    first = api.post(URL, body, format="json")
    again = api.post(URL, body, format="json")
    assert first.status_code == again.status_code == 201
    assert again[REPLAY_HEADER] == "true" and again.json() == first.json()
    assert Failure.objects.count() == Outcome.objects.count() == 1


@pytest.mark.parametrize("name", VERSIONS)
def test_the_same_event_with_another_version_is_a_409(api, name):
    body = failure(**SENT, event_id=str(uuid.uuid4()))
    assert api.post(URL, body, format="json").status_code == 201
    other = api.post(URL, {**body, name: "something else"}, format="json")
    assert other.status_code == 409, other.content
    assert "event_id" in other.json()["error"]
    # Adding one the first body did not have is a different request too.
    bare = failure(event_id=body["event_id"])
    assert api.post(URL, bare, format="json").status_code == 409
    assert Failure.objects.count() == Outcome.objects.count() == 1
    assert versions_of(Failure.objects.get()) == SENT


def test_boot_takes_the_release_bounded_and_scrubbed(read_api):
    ok = read_api.get("/api/v1/boot", {"agent": "agent-1", "release": "coder@1.4.2"})
    assert ok.status_code == 200 and ok.json()["release"] == "coder@1.4.2"
    long = read_api.get("/api/v1/boot", {"agent": "agent-1", "release": "x" * 101})
    assert long.status_code == 400 and set(long.json()["fields"]) == {"release"}
    secret = read_api.get("/api/v1/boot", {"agent": "agent-1", "release": f"1.0 token={TOKEN}"})
    assert secret.status_code == 200 and TOKEN not in secret.content.decode()
