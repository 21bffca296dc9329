"""The release, model and prompt version an agent sends: stored with its outcome and its
failure alike, bounded, scrubbed, and part of what makes two writes of one event the same."""

import uuid

import pytest

from failures.models import Failure
from outcomes.models import Outcome

pytestmark = pytest.mark.django_db

TOKEN = "ghp_" + "a1B2c3D4e5" * 4
OUTCOME = {
    "task_id": "t1",
    "agent": "agent-1",
    "task_type": "deploy",
    "outcome": "failure",
    "context": {"error_type": "key_error", "error_message": "KeyError: 'region'"},
    "release": "coder@1.4.2",
    "model": "claude-sonnet-4-5",
    "prompt_version": "p7",
}


def test_a_failed_outcome_and_its_failure_carry_them(api):
    response = api.post("/api/v1/outcomes", OUTCOME, format="json")
    assert response.status_code == 201, response.content
    outcome = Outcome.objects.get()
    failure = Failure.objects.get()
    for row in (outcome, failure):
        assert (row.release, row.model, row.prompt_version) == (
            "coder@1.4.2",
            "claude-sonnet-4-5",
            "p7",
        )


def test_a_failure_and_its_ledger_entry_carry_them(api):
    response = api.post(
        "/api/v1/failures",
        {"agent": "agent-1", "task": "t1", "error": "boom", "release": "9f3c2ab", "model": "m"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert Failure.objects.get().outcomes.get().release == "9f3c2ab"
    assert Outcome.objects.get().model == "m"
    assert api.get("/api/v1/failures").json()["failures"][0]["release"] == "9f3c2ab"


@pytest.mark.parametrize("name", ["release", "model", "prompt_version"])
def test_a_value_too_long_is_a_400_naming_the_field(api, name):
    for url, body in (
        ("/api/v1/outcomes", OUTCOME),
        ("/api/v1/failures", {"agent": "a", "task": "t", "error": "boom"}),
    ):
        response = api.post(url, {**body, name: "x" * 101}, format="json")
        assert response.status_code == 400, response.content
        assert name in response.json()["fields"], response.json()
        response = api.post(url, {**body, name: 7}, format="json")
        assert response.status_code == 400 and name in response.json()["fields"]


def test_a_secret_in_them_is_scrubbed(api):
    api.post("/api/v1/outcomes", {**OUTCOME, "release": f"1.0 token={TOKEN}"}, format="json")
    stored = Outcome.objects.get()
    assert TOKEN not in stored.release and stored.release.startswith("1.0 token=")
    assert TOKEN not in Failure.objects.get().release


def test_a_replay_is_the_same_event_only_with_the_same_release(api):
    event = {**OUTCOME, "event_id": str(uuid.uuid4())}
    assert api.post("/api/v1/outcomes", event, format="json").status_code == 201
    assert api.post("/api/v1/outcomes", event, format="json").status_code in (200, 201)
    other = api.post("/api/v1/outcomes", {**event, "release": "coder@1.4.3"}, format="json")
    assert other.status_code == 409
    assert Outcome.objects.count() == 1
