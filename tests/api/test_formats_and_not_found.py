"""Answers the schema fuzzer once found outside the schema: an unknown ``?format=``, a malformed id
in an API path, a markdown answer with nothing in it, a write asked for markdown."""

import pytest

from failures.models import Failure


@pytest.mark.parametrize(
    "path, params",
    [
        ("/api/v1/boot", {"agent": "a", "format": "xml"}),
        ("/api/v1/failures", {"format": "0"}),
        ("/api/v1/outcomes/history", {"agent": "a", "format": "yaml"}),
    ],
)
def test_an_unknown_format_is_400_naming_format(api, path, params):
    response = api.get(path, params)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["fields"] == {"format": ["Expected one of: json, markdown."]}


def test_recording_a_failure_answers_json_only(api):
    body = {"agent": "a", "task": "t", "error": "Timed out", "error_type": "timeout"}
    refused = api.post("/api/v1/failures?format=markdown", body, format="json")
    assert refused.status_code == 400, refused.content
    assert "format" in refused.json()["fields"]
    assert not Failure.objects.exists()
    recorded = api.post("/api/v1/failures?format=json", body, format="json")
    assert recorded.status_code == 201 and recorded["Content-Type"] == "application/json"


def test_the_failure_list_still_answers_markdown(api):
    response = api.get("/api/v1/failures", {"format": "markdown"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"


def test_empty_markdown_keeps_its_content_type(api):
    response = api.get("/api/v1/outcomes/history", {"agent": "nobody", "format": "markdown"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response.content.strip() == b""


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/lessons/not-a-uuid",
        "/api/v1/lessons/0/applications",
        "/api/v1/nothing-here",
    ],
)
def test_an_unknown_api_url_is_404_in_the_error_shape(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response.json() == {"error": "Not found.", "fields": {}}


def test_an_unknown_page_outside_the_api_stays_an_html_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
