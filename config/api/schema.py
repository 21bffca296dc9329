"""OpenAPI schema hooks and extensions."""

from types import SimpleNamespace

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from .docs import ERROR_DESCRIPTIONS
from .permissions import request_reads

ERROR_SCHEMA = {
    "type": "object",
    "description": "The shape of every error answer.",
    "properties": {
        "error": {"type": "string"},
        "fields": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["error", "fields"],
}
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again (429: until the key's budget for this"
        " kind of request refills).",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    },
}


def drop_slash_variants(endpoints, **kwargs):
    """List each API path once: the trailing-slash twin answers the same and is left out."""
    return [
        endpoint
        for endpoint in endpoints
        if not (endpoint[0].endswith("/") and endpoint[0] != "/")
    ]


def error_statuses(path: str, method: str, operation: dict, *, reads: bool) -> set[int]:
    """The error statuses the service really answers for ``operation``.

    Every keyed operation may be refused (401) or throttled (429); a write (not ``reads``, see
    permissions.request_reads) also needs the write scope (403). Parameters and bodies can be
    invalid (400); a body can be too large (413); a path naming an object can name none (404).
    A 409 (event id reused) is declared by the views that take an event id. Every keyed
    operation reads the database, and answers 503 while it cannot be reached.
    """
    statuses = set()
    if any("ApiKey" in requirement for requirement in operation.get("security", [])):
        statuses |= {401, 429, 503}
        if not reads:
            statuses.add(403)
    if operation.get("parameters") or "requestBody" in operation:
        statuses.add(400)
    if "requestBody" in operation:
        statuses.add(413)
    if "{" in path:
        statuses.add(404)
    return statuses


def document_error_responses(result, generator, request, public):
    """Postprocessing hook: give every operation the error answers it can really give, in the
    one error shape (``Error``); where an operation answers markdown, its errors may be too."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    reads = {
        (path, method.lower())
        for path, _, method, callback in generator.endpoints
        if request_reads(SimpleNamespace(method=method), callback.cls)
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            markdown = any(
                "text/markdown" in answer.get("content", {})
                for code, answer in responses.items()
                if code.startswith("2")
            )
            for status in sorted(
                error_statuses(path, method, operation, reads=(path, method) in reads)
            ):
                responses.setdefault(
                    str(status),
                    {
                        "description": ERROR_DESCRIPTIONS[status],
                        "content": dict(error_content),
                    },
                )
            for code, answer in responses.items():
                if not code.startswith("4"):
                    continue
                if markdown:
                    answer.setdefault("content", {}).setdefault(
                        "text/markdown", {"schema": {"type": "string"}}
                    )
            for code in ("429", "503"):
                if code in responses:
                    responses[code].setdefault("headers", {}).update(RETRY_AFTER)
    return result


class ApiKeyScheme(OpenApiAuthenticationExtension):
    """Describes ApiKeyAuthentication as HTTP bearer auth in the schema."""

    target_class = "config.api.authentication.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key from `manage.py apikey create` or the admin.",
        }
