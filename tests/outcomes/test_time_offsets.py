"""An outcome's ``occurred_at`` with any UTC offset ISO 8601 allows is stored in UTC.

PostgreSQL refuses offsets beyond ±15:59 that Python parses (up to ±23:59); such a timestamp used
to be stored as written and answer a 500.
"""

from outcomes.models import Outcome

URL = "/api/v1/outcomes"
GOOD = {"task_id": "42", "agent": "dev", "task_type": "fix_bug", "outcome": "success"}


def test_an_offset_beyond_postgresqls_range_is_stored_in_utc(api):
    response = api.post(URL, {**GOOD, "occurred_at": "2026-01-01T00:00:00-20:00"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["occurred_at"] == "2026-01-01T20:00:00Z"
    assert Outcome.objects.get().occurred_at.isoformat() == "2026-01-01T20:00:00+00:00"


def test_a_moment_before_year_one_in_utc_is_400_naming_occurred_at(api):
    response = api.post(URL, {**GOOD, "occurred_at": "0001-01-01T00:00:00+01:00"}, format="json")
    assert response.status_code == 400, response.content
    assert "occurred_at" in response.json()["fields"]
    assert not Outcome.objects.exists()


def test_bulk_items_with_large_offsets_are_stored(api):
    items = [
        {**GOOD, "task_id": str(n), "occurred_at": f"2026-01-01T00:00:00-2{n}:00"}
        for n in range(3)
    ]
    response = api.post(f"{URL}/bulk", {"outcomes": items}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["created"] == 3


def test_the_answer_of_a_success_documents_its_null_failure(api, anon_api):
    response = api.post(URL, GOOD, format="json")
    assert response.status_code == 201 and response.json()["failure"] is None
    schema = anon_api.get("/api/v1/schema", {"format": "json"}).json()
    failure = schema["components"]["schemas"]["OutcomeRecorded"]["properties"]["failure"]
    assert failure.get("nullable") is True
