"""An agent's timestamp more than a day ahead of the server's clock is a 400 naming the field.

Such a time is a wrong clock or unit: stored, it would sort first forever and outweigh every
real event in the decay of effectiveness.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.models import Failure
from lessons.models import Application
from outcomes.models import Outcome
from tests.lessons.factories import LessonFactory


def _ahead(**delta) -> str:
    return (timezone.now() + timedelta(**delta)).isoformat()


@pytest.fixture
def lesson(db):
    return LessonFactory()


def _timed_requests(lesson):
    applications = f"/api/v1/lessons/{lesson.pk}/applications"
    return [
        (
            "/api/v1/failures",
            lambda at: {"agent": "a", "task": "t", "error": "e", "timestamp": at},
            "timestamp",
            Failure,
        ),
        (
            "/api/v1/outcomes",
            lambda at: {
                "task_id": "t",
                "agent": "a",
                "task_type": "x",
                "outcome": "success",
                "occurred_at": at,
            },
            "occurred_at",
            Outcome,
        ),
        (applications, lambda at: {"worked": True, "applied_at": at}, "applied_at", Application),
    ]


@pytest.mark.parametrize(
    "moment",
    [
        pytest.param(lambda: _ahead(days=1, minutes=5), id="a day and 5 minutes ahead"),
        pytest.param(lambda: "9999-12-31T23:59:59Z", id="year 9999"),
        pytest.param(lambda: "2200-01-01T00:00:00+14:00", id="year 2200 with an offset"),
    ],
)
def test_a_timestamp_more_than_a_day_ahead_is_400_naming_it(api, lesson, moment):
    for url, body, field, model in _timed_requests(lesson):
        response = api.post(url, body(moment()), format="json")
        assert response.status_code == 400, (url, response.content)
        assert list(response.json()["fields"]) == [field]
        assert "more than a day in the future" in response.json()["error"]
        assert not model.objects.exists()


def test_a_timestamp_less_than_a_day_ahead_is_taken(api, lesson):
    for url, body, _field, model in _timed_requests(lesson):
        response = api.post(url, body(_ahead(hours=23)), format="json")
        assert response.status_code == 201, (url, response.content)
        assert model.objects.exists()
