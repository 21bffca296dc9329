"""Reporting whether a lesson worked: the endpoint, and outcomes or failures that name a lesson."""

import uuid

import pytest

from config.api.idempotency import REPLAY_HEADER
from failures.records.services import failure_record
from lessons.models import Application, Lesson
from tests.lessons.factories import LessonFactory


def url(lesson) -> str:
    return f"/api/v1/lessons/{lesson.pk}/applications"


@pytest.fixture
def lesson(db):
    return LessonFactory()


def test_report_an_application(api, lesson, django_capture_on_commit_callbacks):
    failure = failure_record(agent="a", task="t", error="boom")
    with django_capture_on_commit_callbacks(execute=False) as published:
        response = api.post(
            url(lesson),
            {"worked": True, "agent": "a", "task_id": "t", "failure_id": failure.pk},
            format="json",
        )
    assert response.status_code == 201
    body = response.json()
    assert (body["lesson"], body["worked"], body["failure_id"]) == (
        str(lesson.pk),
        True,
        failure.pk,
    )
    stored = Application.objects.get()
    assert (stored.lesson, stored.worked, stored.agent, stored.task_id, stored.failure) == (
        lesson,
        True,
        "a",
        "t",
        failure,
    )
    assert len(published) == 1  # the lesson is rescored after commit


def test_the_rescoring_job_sees_the_report(api, lesson, django_capture_on_commit_callbacks):
    # No broker in this test: the published job runs when its callback runs (eager or not,
    # the periodic run would do the same).
    from lessons.effectiveness import effectiveness_recompute

    for _ in range(4):
        api.post(url(lesson), {"worked": False}, format="json")
    effectiveness_recompute(lesson_ids=[lesson.pk])
    lesson.refresh_from_db()
    assert lesson.applications_count == 4 and lesson.flagged
    listed = api.get(f"/api/v1/lessons/{lesson.pk}").json()
    assert listed["flagged"] is True and listed["applications_count"] == 4


def test_replay_and_conflict(api, lesson):
    body = {"worked": True, "event_id": str(uuid.uuid4())}
    first = api.post(url(lesson), body, format="json")
    again = api.post(url(lesson), body, format="json")
    assert again.status_code == 201 and again[REPLAY_HEADER] == "true"
    assert again.json() == first.json() and Application.objects.count() == 1
    assert api.post(url(lesson), {**body, "worked": False}, format="json").status_code == 409


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "worked"),
        ({"worked": "yes"}, "worked"),
        ({"worked": 1}, "worked"),
        ({"worked": True, "failure_id": 999999}, "failure_id"),
        ({"worked": True, "applied_at": "later"}, "applied_at"),
        ({"worked": True, "extra": 1}, "extra"),
    ],
)
def test_bad_reports_are_400_naming_the_field(api, lesson, body, field):
    response = api.post(url(lesson), body, format="json")
    assert response.status_code == 400 and field in response.json()["fields"]
    assert not Application.objects.exists()


def test_unknown_lesson_is_404_and_read_keys_cannot_report(api, read_api, lesson):
    assert (
        api.post(
            f"/api/v1/lessons/{uuid.uuid4()}/applications", {"worked": True}, format="json"
        ).status_code
        == 404
    )
    assert read_api.post(url(lesson), {"worked": True}, format="json").status_code == 403


def test_outcomes_name_the_lesson_they_applied(api, lesson):
    base = {"agent": "a", "task_type": "sync", "applied_lesson": str(lesson.pk)}
    api.post("/api/v1/outcomes", {**base, "task_id": "1", "outcome": "success"}, format="json")
    failed = api.post(
        "/api/v1/outcomes",
        {
            **base,
            "task_id": "2",
            "outcome": "failure",
            "context": {"error_message": "still broken"},
        },
        format="json",
    ).json()
    rows = list(Application.objects.order_by("pk").values_list("worked", "task_id", "failure_id"))
    assert rows == [(True, "1", None), (False, "2", failed["failure"]["id"])]
    bulk = api.post(
        "/api/v1/outcomes/bulk",
        {
            "outcomes": [
                {**base, "task_id": "3", "outcome": "success"},
                {
                    **base,
                    "task_id": "4",
                    "outcome": "success",
                    "applied_lesson": str(uuid.uuid4()),
                },
            ]
        },
        format="json",
    ).json()
    assert [r["status"] for r in bulk["results"]] == ["created", "invalid"]
    assert "applied_lesson" in bulk["results"][1]["fields"]
    assert Application.objects.count() == 3


def test_a_failure_naming_its_lesson_reports_it_did_not_work(api, lesson):
    body = {"agent": "a", "task": "t", "error": "boom", "applied_lesson": str(lesson.pk)}
    recorded = api.post("/api/v1/failures", body, format="json").json()
    application = Application.objects.get()
    assert (application.worked, application.failure_id) == (False, recorded["id"])
    unknown = api.post(
        "/api/v1/failures", {**body, "applied_lesson": str(uuid.uuid4())}, format="json"
    )
    assert unknown.status_code == 400 and "applied_lesson" in unknown.json()["fields"]
    assert Application.objects.count() == 1 and Lesson.objects.count() == 1
