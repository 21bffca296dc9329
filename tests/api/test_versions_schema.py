"""The OpenAPI schema documents the release, model and prompt version: in every write that takes
them, with their bound, in the answers that show them, and as boot's release parameter."""

import pytest

VERSIONS = ("release", "model", "prompt_version")


@pytest.fixture
def schema(anon_api) -> dict:
    response = anon_api.get("/api/v1/schema", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def _body(schema: dict, path: str) -> dict:
    ref = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]


@pytest.mark.parametrize("path", ["/api/v1/failures", "/api/v1/outcomes"])
def test_the_writes_take_them_optional_and_bounded(schema, path):
    body = _body(schema, path)
    for name in VERSIONS:
        field = body["properties"][name]
        assert (field["type"], field["maxLength"]) == ("string", 100), (path, name)
        assert field.get("description"), (path, name)
        assert name not in body.get("required", [])


def test_the_bulk_write_takes_each_outcomes(schema):
    items = _body(schema, "/api/v1/outcomes/bulk")["properties"]["outcomes"]["items"]
    item = schema["components"]["schemas"][items["$ref"].rsplit("/", 1)[1]]
    assert {name: item["properties"][name]["maxLength"] for name in VERSIONS} == dict.fromkeys(
        VERSIONS, 100
    )


def test_the_answers_that_show_a_row_in_full_show_them(schema):
    components = schema["components"]["schemas"]
    for answer in ("FailureOutput", "OutcomeRecorded"):
        assert set(VERSIONS) <= set(components[answer]["properties"]), answer


def test_boot_takes_the_release_bounded(schema):
    [release] = [
        parameter
        for parameter in schema["paths"]["/api/v1/boot"]["get"]["parameters"]
        if parameter["name"] == "release"
    ]
    assert release["in"] == "query" and not release.get("required")
    assert release["schema"]["maxLength"] == 100
