"""Bad input gets a 400 (or 413) that names the field, never a 500 and never a stored row."""

import json

import pytest

from lessons.models import Lesson

URL = "/api/v1/lessons"
GOOD = {"error_pattern": "p", "error_type": "timeout", "resolution": "wait"}


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def post_raw(api, body: str | bytes, **extra):
    return api.generic("POST", URL, body, content_type="application/json", **extra)


@pytest.mark.parametrize(
    "name, body, field",
    [
        ("NUL in a text field", {**GOOD, "resolution": "a\x00b"}, "resolution"),
        ("NUL in the pattern", {**GOOD, "error_pattern": "\x00"}, "error_pattern"),
        ("NUL inside context", {**GOOD, "context": {"file": "a\x00"}}, "context.file"),
        ("NUL in a context key", {**GOOD, "context": {"k\x00": 1}}, "context"),
        ("over-long pattern", {**GOOD, "error_pattern": "x" * 201}, "error_pattern"),
        ("over-long type", {**GOOD, "error_type": "x" * 101}, "error_type"),
        ("over-long skill", {**GOOD, "skill_name": "x" * 101}, "skill_name"),
        ("number for text", {**GOOD, "error_type": 42}, "error_type"),
        ("bool for text", {**GOOD, "resolution": True}, "resolution"),
        ("list for context", {**GOOD, "context": [1, 2]}, "context"),
        ("text for context", {**GOOD, "context": "x"}, "context"),
        ("missing required", {"error_pattern": "p"}, "error_type"),
        ("blank required", {**GOOD, "resolution": "   "}, "resolution"),
        ("bad event id", {**GOOD, "event_id": "not-a-uuid"}, "event_id"),
        ("unknown field", {**GOOD, "effectiveness": 1.0}, "effectiveness"),
        ("context 21 levels deep", {**GOOD, "context": nested(20)}, "context"),
    ],
)
def test_bad_fields_are_400_naming_the_field(api, name, body, field):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    payload = response.json()
    # Nested problems are named by their full path (context.a.a...), which starts with the field.
    assert any(name == field or name.startswith(field + ".") for name in payload["fields"]), (
        payload
    )
    assert field.split(".")[0] in payload["error"]
    assert not Lesson.objects.exists()


def test_twenty_levels_are_accepted(api):
    # The body is level 1, so a context of 19 levels makes 20 in all.
    response = api.post(URL, {**GOOD, "context": nested(19)}, format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "name, raw",
    [
        ("not JSON", "{nope"),
        ("empty", ""),
        ("NaN", '{"error_pattern": "p", "error_type": "t", "resolution": NaN}'),
        ("bad UTF-8", b'{"error_pattern": "\xff\xfe"}'),
        ("very deep", "[" * 100_000 + "]" * 100_000),
        ("lone surrogate", '{"error_pattern": "\\ud800", "error_type": "t", "resolution": "r"}'),
        ("a list", "[1, 2]"),
        ("a string", '"text"'),
    ],
)
def test_malformed_bodies_are_400(api, name, raw):
    response = post_raw(api, raw)
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"error", "fields"}
    assert not Lesson.objects.exists()


def test_body_over_one_mebibyte_is_413(api):
    body = json.dumps({**GOOD, "resolution": "x" * (1024 * 1024)})
    response = post_raw(api, body)
    assert response.status_code == 413
    assert response.json()["error"].startswith("Request body is larger than")
    assert not Lesson.objects.exists()


def test_body_over_the_limit_without_content_length_is_413(api):
    body = json.dumps({**GOOD, "resolution": "x" * (1024 * 1024)}).encode()
    # A lying Content-Length: the parser still stops reading at the limit.
    response = post_raw(api, body, CONTENT_LENGTH="100")
    assert response.status_code in (400, 413)
    assert not Lesson.objects.exists()


@pytest.mark.parametrize(
    "url, params, field",
    [
        ("/api/v1/lessons/check", {"error_type": "a\x00"}, "error_type"),
        ("/api/v1/lessons/check", {"error_message": "x" * 10_001}, "error_message"),
        ("/api/v1/lessons/check", {"limit": "0"}, "limit"),
        ("/api/v1/lessons/check", {"limit": "many"}, "limit"),
        ("/api/v1/lessons", {"page": "0"}, "page"),
        ("/api/v1/lessons", {"page": "99999999999999999999"}, "page"),
        ("/api/v1/lessons", {"per_page": "1000"}, "per_page"),
        ("/api/v1/lessons", {"status": "bogus"}, "status"),
        ("/api/v1/lessons", {"source": "bogus"}, "source"),
        ("/api/v1/lessons", {"min_effectiveness": "NaN"}, "min_effectiveness"),
        ("/api/v1/lessons", {"min_effectiveness": "2"}, "min_effectiveness"),
        ("/api/v1/lessons", {"since": "yesterday"}, "since"),
        ("/api/v1/lessons", {"since": "2026-13-45T99:00:00Z"}, "since"),
        ("/api/v1/lessons", {"error_type": "a\x00b"}, "error_type"),
    ],
)
def test_bad_query_parameters_are_400_naming_them(api, url, params, field):
    response = api.get(url, params)
    assert response.status_code == 400, response.content
    assert field in response.json()["fields"]


def test_bad_lesson_id_is_404_not_500(api):
    assert api.get("/api/v1/lessons/not-a-uuid").status_code == 404
