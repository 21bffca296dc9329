"""The schema documents the error answers the API really gives, and real ones match it."""

import re
import uuid
from types import SimpleNamespace

import pytest
import schemathesis
from django.urls import resolve
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.api.permissions import request_reads
from config.wsgi import application

SAFE = {"get", "head", "options"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@pytest.fixture(scope="module")
def document(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        return Client().get("/api/v1/schema", {"format": "json"}).json()


def _reads(path, method) -> bool:
    """Whether an operation only reads: a safe method, or a POST its view declares a read."""
    if method in SAFE:
        return True
    # Any value of a path parameter routes to the same view; the ids POST paths name are UUIDs.
    view = resolve(re.sub(r"\{[^}]+\}", str(uuid.uuid4()), path)).func.cls
    return method == "post" and request_reads(SimpleNamespace(method="POST"), view)


def _operations(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def test_every_keyed_operation_documents_401_and_429_with_retry_after(document):
    keyed = [
        (p, m, op)
        for p, m, op in _operations(document)
        if {"ApiKey": []} in op.get("security", [])
    ]
    assert len(keyed) >= 14
    for path, method, operation in keyed:
        responses = operation["responses"]
        assert {"401", "429"} <= set(responses), (method, path)
        assert responses["429"]["headers"]["Retry-After"]["required"] is True


def test_public_operations_document_no_key_errors(document):
    health = document["paths"]["/api/v1/health"]["get"]["responses"]
    assert set(health) == {"200"}


@pytest.mark.parametrize(
    ("rule", "status"),
    [
        pytest.param(lambda path, method, op: not _reads(path, method), "403", id="403 on writes"),
        pytest.param(lambda path, method, op: "requestBody" in op, "413", id="413 with a body"),
        pytest.param(
            lambda path, method, op: "requestBody" in op or bool(op.get("parameters")),
            "400",
            id="400 with input",
        ),
        pytest.param(lambda path, method, op: "{" in path, "404", id="404 with an id in the path"),
    ],
)
def test_statuses_are_documented_where_they_apply(document, rule, status):
    matching = [
        (path, method) for path, method, op in _operations(document) if rule(path, method, op)
    ]
    assert matching
    for path, method in matching:
        assert status in document["paths"][path][method]["responses"], (method, path)


def test_error_answers_have_the_error_shape(document):
    error = {"$ref": "#/components/schemas/Error"}
    assert document["components"]["schemas"]["Error"]["required"] == ["error", "fields"]
    for path, method, operation in _operations(document):
        for status, answer in operation["responses"].items():
            if status.startswith("4"):
                assert answer["content"]["application/json"]["schema"] == error, (
                    method,
                    path,
                    status,
                )


def test_errors_of_markdown_operations_may_be_markdown(document):
    for path in ("/api/v1/boot", "/api/v1/outcomes/history"):
        answer = document["paths"][path]["get"]["responses"]["400"]
        assert set(answer["content"]) == {"application/json", "text/markdown"}
    record = document["paths"]["/api/v1/failures"]["post"]
    assert "text/markdown" not in record["responses"]["400"]["content"]


@pytest.mark.redis
def test_a_throttled_answer_matches_the_schema(make_key, settings, in_process):
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema?format=json", application)
    check = schema["/api/v1/lessons/check"]["GET"]
    headers = {"Authorization": f"Bearer {make_key('read')}"}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"read": "2/hour"},
    }
    # Four requests against a budget of two: even if the hour turns between two of them, at
    # least one is throttled.
    cases = [check.Case(query={"error_type": "timeout"}, headers=headers) for _ in range(4)]
    answers = [case.call() for case in cases]

    throttled = [answer for answer in answers if answer.status_code == 429]
    assert throttled and answers[0].status_code == 200
    assert all(int(answer.headers["retry-after"][0]) >= 1 for answer in throttled)
    assert set(throttled[0].json()) == {"error", "fields"}
    for case, answer in zip(cases, answers):
        case.validate_response(answer, checks=CHECKS)
