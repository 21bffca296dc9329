"""The lesson list's ``since`` takes every UTC offset ISO 8601 allows and compares in UTC.

PostgreSQL refuses offsets beyond ±15:59 that Python parses (up to ±23:59); such a value used to
reach the query as written and answer a 500.
"""

from lessons.models import Lesson
from tests.lessons.factories import LessonFactory

URL = "/api/v1/lessons"


def test_since_with_an_offset_beyond_postgresqls_range_is_compared_in_utc(api):
    old, new = LessonFactory(error_pattern="old"), LessonFactory(error_pattern="new")
    Lesson.objects.filter(pk=old.pk).update(last_occurred="2026-01-01T00:00:00Z")
    Lesson.objects.filter(pk=new.pk).update(last_occurred="2026-01-02T00:00:00Z")
    # 2025-12-31T03:00-22:00 is 2026-01-01T01:00Z: after "old", before "new".
    response = api.get(URL, {"since": "2025-12-31T03:00:00-22:00"})
    assert response.status_code == 200, response.content
    assert [lesson["error_pattern"] for lesson in response.json()["lessons"]] == ["new"]


def test_since_before_year_one_in_utc_is_400_naming_since(api):
    response = api.get(URL, {"since": "0001-01-01T00:00:00+01:00"})
    assert response.status_code == 400, response.content
    assert "since" in response.json()["fields"]
