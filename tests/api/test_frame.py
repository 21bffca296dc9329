"""The API frame: paths, schema and docs, the error shape."""

import pytest


@pytest.mark.parametrize(
    "path",
    ["/api/v1/lessons", "/api/v1/lessons/", "/api/v1/lessons/check", "/api/v1/lessons/check/"],
)
def test_paths_work_with_and_without_trailing_slash(api, path):
    assert api.get(path, {"error_type": "timeout"}).status_code == 200


def test_post_works_without_trailing_slash_and_with(api):
    body = {"error_pattern": "slash", "error_type": "t", "resolution": "r"}
    assert api.post("/api/v1/lessons", body, format="json").status_code == 201
    assert api.post("/api/v1/lessons/", body, format="json").status_code == 200


def test_openapi_schema_lists_each_path_once(anon_api):
    response = anon_api.get("/api/v1/schema", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = set(schema["paths"])
    assert {"/api/v1/lessons", "/api/v1/lessons/check", "/api/v1/lessons/{lesson_id}"} <= paths
    assert not [p for p in paths if p.endswith("/")]
    record = schema["paths"]["/api/v1/lessons"]["post"]["responses"]
    assert {"200", "201", "400", "401", "403", "409", "413"} <= set(record)


def test_swagger_ui_is_served_without_a_cdn(anon_api):
    response = anon_api.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower()
    assert "https://" not in html and "http://" not in html


def test_swagger_assets_are_served_locally(client, anon_api):
    html = anon_api.get("/api/v1/docs").content.decode()
    bundle = html.split('src="')[1].split('"')[0]
    assert bundle.startswith("/static/")
    assert client.get(bundle).status_code == 200


def test_unknown_lesson_is_404_in_the_error_shape(api):
    response = api.get("/api/v1/lessons/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404
    assert response.json() == {"error": "No such lesson.", "fields": {}}


def test_health_needs_no_key(anon_api):
    assert anon_api.get("/api/v1/health").json() == {"status": "ok"}


def test_schema_generates_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert "/api/v1/lessons/check" in (tmp_path / "s.yml").read_text()


def test_a_method_the_path_does_not_take_is_405_in_the_error_shape(api):
    response = api.delete("/api/v1/lessons")
    assert response.status_code == 405
    assert response.json() == {"error": 'Method "DELETE" not allowed.', "fields": {}}


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_body_not_sent_as_json_is_415_in_the_error_shape(api, content_type):
    response = api.generic(
        "POST", "/api/v1/lessons", b'{"error_pattern": "p"}', content_type=content_type
    )
    assert response.status_code == 415
    assert response.json() == {
        "error": f'Unsupported media type "{content_type}" in request.',
        "fields": {},
    }
