"""The three lesson endpoints as an agent calls them."""

import uuid

import pytest

from lessons.models import Lesson
from lessons.services import lessons_seed
from tests.lessons.factories import LessonFactory

URL = "/api/v1/lessons"
BODY = {"error_pattern": "test_error", "error_type": "test", "resolution": "Do X"}


def test_record_answers_as_the_seed(api):
    created = api.post(URL, BODY, format="json")
    assert created.status_code == 201
    assert created.json()["created"] is True
    assert created.json()["status"] == "unverified"
    uuid.UUID(created.json()["id"])
    updated = api.post(URL, BODY, format="json")
    assert updated.status_code == 200
    assert updated.json()["updated"] is True and updated.json()["occurrences"] == 2


def test_another_key_cannot_overwrite_an_unverified_lesson(api, make_key):
    """A second write key recording the lesson with its own resolution gets the proposal's id;
    checks still answer the first key's text."""
    from tests.conftest import bearer

    api.post(URL, BODY, format="json")
    other = bearer(make_key("write", name="another-fleet"))
    answer = other.post(URL, {**BODY, "resolution": "Do Y"}, format="json").json()
    assert answer["updated"] is True and "proposal_id" in answer
    check = api.get(f"{URL}/check", {"error_type": "test"}).json()
    assert [lesson["resolution"] for lesson in check["related"]] == ["Do X"]


def test_check_answers_as_the_seed_and_says_each_status(api):
    api.post(URL, BODY, format="json")
    response = api.get(
        f"{URL}/check",
        {"error_type": "test", "error_message": "worker raised test_error at start"},
    )
    assert response.status_code == 200
    payload = response.json()
    assert payload["has_resolution"] is True and payload["has_approved_resolution"] is False
    (lesson,) = payload["lessons"]
    assert lesson["resolution"] == "Do X" and lesson["status"] == "unverified"
    assert (lesson["match"], lesson["match_score"]) == ("template", 1.0)
    assert payload["related"] == []
    assert {
        "error_pattern",
        "error_type",
        "skill_name",
        "context",
        "resolution_code",
        "occurrences",
        "last_occurred",
        "effectiveness",
        "created_at",
        "source",
        "match",
        "match_score",
    } <= set(lesson)


def test_a_lesson_of_the_type_only_is_related_not_a_resolution(api):
    LessonFactory(error_pattern="test_error", error_type="test", status="approved")
    for query in (
        {"error_type": "test"},
        {"error_type": "test", "error_message": "disk quota exceeded on /var"},
    ):
        payload = api.get(f"{URL}/check", query).json()
        assert payload["lessons"] == [] and [l["match"] for l in payload["related"]] == ["type"]
        assert payload["has_resolution"] is False and payload["has_approved_resolution"] is False


def test_check_with_nothing_known(api):
    payload = api.get(f"{URL}/check", {"error_type": "nothing"}).json()
    assert payload == {
        "lessons": [],
        "related": [],
        "has_resolution": False,
        "has_approved_resolution": False,
    }


@pytest.mark.parametrize("query", [{}, {"skill_name": "http"}, {"limit": 3}])
def test_a_check_with_neither_type_nor_message_is_a_400_naming_both(read_api, query):
    LessonFactory(error_type="timeout", status="approved")
    for response in (
        read_api.get(f"{URL}/check", query),
        read_api.post(f"{URL}/check", query, format="json"),
    ):
        assert response.status_code == 400
        assert {"error_type", "error_message"} <= set(response.json()["fields"])
        assert "error_type" in response.json()["error"]


def test_check_uses_the_error_message(api):
    lessons_seed()
    payload = api.get(
        f"{URL}/check",
        {
            "error_message": "psycopg.OperationalError: connection refused (db connection to 10.0.0.5)",
        },
    ).json()
    assert [l["error_pattern"] for l in payload["lessons"]] == ["db_connection_refused"]
    assert payload["lessons"][0]["status"] == "approved"
    assert payload["has_approved_resolution"] is True


@pytest.mark.parametrize(
    "query",
    [
        {
            "error_message": "psycopg.OperationalError: connection refused (db connection to 10.0.0.5)"
        },
        {"error_type": "timeout", "limit": 2},
        {"error_type": "timeout", "skill_name": "http", "limit": "3"},
        {"error_type": "timeout", "error_message": "upstream timed out after 30s"},
    ],
)
def test_a_posted_check_answers_as_the_get_with_a_read_key(read_api, query):
    """POST /lessons/check takes the GET's query as a JSON body (out of URLs and access logs)."""
    lessons_seed()
    LessonFactory.create_batch(4, error_type="timeout")
    got = read_api.get(f"{URL}/check", query)
    posted = read_api.post(f"{URL}/check", query, format="json")
    assert posted.status_code == got.status_code == 200
    assert posted.json() == got.json()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"limit": 0}, "limit"),
        ({"error_type": 5}, "error_type"),
        ({"error_message": "x" * 10_001}, "error_message"),
    ],
)
def test_a_posted_check_names_a_bad_field(read_api, body, field):
    response = read_api.post(f"{URL}/check", body, format="json")
    assert response.status_code == 400 and field in response.json()["fields"]


def test_a_posted_check_is_in_the_schema_as_a_read(api):
    document = api.get("/api/v1/schema", {"format": "json"}).json()
    posted = document["paths"]["/api/v1/lessons/check"]["post"]
    assert posted["operationId"] == "lessons_check_post"
    assert "requestBody" in posted and "403" not in posted["responses"]
    assert (
        posted["responses"]["200"]["content"]["application/json"]["schema"]
        == document["paths"]["/api/v1/lessons/check"]["get"]["responses"]["200"]["content"][
            "application/json"
        ]["schema"]
    )


def test_check_stays_within_a_few_queries(api, django_assert_max_num_queries):
    LessonFactory.create_batch(20)
    with django_assert_max_num_queries(3):  # key lookup, last-used touch, lessons
        assert api.get(f"{URL}/check", {"error_type": "timeout"}).status_code == 200


def test_list_has_the_seed_shape_and_pages(api):
    LessonFactory.create_batch(7, error_type="auth")
    LessonFactory(error_type="timeout")
    first = api.get(URL, {"per_page": 3, "error_type": "auth"}).json()
    assert set(first) == {"lessons", "total", "page", "per_page"}
    assert (first["total"], first["page"], first["per_page"], len(first["lessons"])) == (
        7,
        1,
        3,
        3,
    )
    last = api.get(URL, {"per_page": 3, "page": 3, "error_type": "auth"}).json()
    assert len(last["lessons"]) == 1
    beyond = api.get(URL, {"per_page": 3, "page": 9}).json()
    assert beyond["lessons"] == [] and beyond["total"] == 8
    seen = {
        l["id"]
        for p in (1, 2, 3)
        for l in api.get(URL, {"per_page": 3, "page": p, "error_type": "auth"}).json()["lessons"]
    }
    assert len(seen) == 7


def test_list_is_most_recent_first(api):
    old = LessonFactory(error_pattern="old")
    LessonFactory(error_pattern="new")
    Lesson.objects.filter(pk=old.pk).update(last_occurred="2020-01-01T00:00:00Z")
    assert [l["error_pattern"] for l in api.get(URL).json()["lessons"]] == ["new", "old"]
    assert [
        l["error_pattern"]
        for l in api.get(URL, {"since": "2025-01-01T00:00:00Z"}).json()["lessons"]
    ] == ["new"]


def test_detail(api):
    lesson = LessonFactory()
    assert api.get(f"{URL}/{lesson.pk}").json()["error_pattern"] == lesson.error_pattern


def test_replay_returns_the_first_answer(api):
    body = {**BODY, "event_id": str(uuid.uuid4())}
    first = api.post(URL, body, format="json")
    again = api.post(URL, body, format="json")
    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Lesson.objects.get().occurrences == 1


def test_replay_with_keys_in_another_order_is_still_a_replay(api):
    event = str(uuid.uuid4())
    api.post(URL, {**BODY, "event_id": event}, format="json")
    reordered = {"event_id": event, **dict(reversed(list(BODY.items())))}
    assert api.post(URL, reordered, format="json")["Idempotent-Replayed"] == "true"


def test_same_event_id_with_another_body_is_409(api):
    event = str(uuid.uuid4())
    api.post(URL, {**BODY, "event_id": event}, format="json")
    response = api.post(URL, {**BODY, "resolution": "Do Y", "event_id": event}, format="json")
    assert response.status_code == 409
    assert event in response.json()["error"]
    lesson = Lesson.objects.get()
    assert (lesson.occurrences, lesson.resolution) == (1, "Do X")


@pytest.mark.parametrize("status_filter, expected", [("approved", 1), ("unverified", 1)])
def test_list_filters_by_status(api, status_filter, expected):
    LessonFactory(status="approved")
    LessonFactory()
    assert api.get(URL, {"status": status_filter}).json()["total"] == expected
