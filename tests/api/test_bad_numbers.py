"""A number no column holds is a 400 naming where it is, never a 500.

Python's json reads ``1e400`` as infinity and ``NaN``/``Infinity`` as floats; PostgreSQL stores
none of them.
"""

import pytest

from failures.models import Failure
from lessons.models import Lesson
from outcomes.models import Outcome

LESSON = '{"error_pattern": "p", "error_type": "t", "resolution": "r", %s}'
FAILURE = '{"agent": "a", "task": "t", "error": "Timed out", %s}'
OUTCOME = '{"task_id": "t", "agent": "a", "task_type": "x", "outcome": "success", %s}'


def post_raw(api, url: str, body: str):
    return api.generic("POST", url, body, content_type="application/json")


def nothing_stored() -> bool:
    return not (Lesson.objects.exists() or Failure.objects.exists() or Outcome.objects.exists())


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "9" * 5000])
@pytest.mark.parametrize(
    "url, template, field",
    [
        ("/api/v1/lessons", LESSON % '"context": {"x": [1, %s]}', "context.x.1"),
        ("/api/v1/lessons", LESSON % '"resolution_code": %s', "resolution_code"),
        ("/api/v1/failures", FAILURE % '"checkpoint": {"step": %s}', "checkpoint.step"),
        ("/api/v1/failures", FAILURE % '"retry_after": %s', "retry_after"),
        ("/api/v1/outcomes", OUTCOME % '"duration_ms": %s', "duration_ms"),
        ("/api/v1/outcomes", OUTCOME % '"result": {"score": %s}', "result.score"),
    ],
)
def test_a_number_no_column_holds_is_400_naming_where(api, url, template, field, number):
    response = post_raw(api, url, template % number)
    assert response.status_code == 400, response.content
    body = response.json()
    assert list(body["fields"]) == [field], body
    assert field in body["error"]
    assert nothing_stored()


def test_small_and_large_finite_numbers_are_stored(api):
    response = post_raw(
        api,
        "/api/v1/outcomes",
        OUTCOME % '"result": {"a": 1e308, "b": 1e-400, "c": %s}' % ("9" * 300),
    )
    assert response.status_code == 201, response.content
    result = Outcome.objects.get().result
    assert (float(result["a"]), result["b"], result["c"]) == (1e308, 0, int("9" * 300))
