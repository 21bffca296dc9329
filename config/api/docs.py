"""Shared pieces of the OpenAPI description."""

from drf_spectacular.utils import OpenApiResponse

from .serializers import ErrorSerializer

ERROR_DESCRIPTIONS = {
    400: "Invalid input; `fields` names each offending field.",
    401: "No API key, or an unknown or revoked one.",
    403: "The key's scope does not allow this, or the key is bound to other agents than the "
    "one named; `fields` names the field.",
    404: "Not found.",
    409: "The event_id was already used for a different request.",
    413: "The body is larger than the service accepts (1 MiB; 8 MiB and 1,000 outcomes for a "
    "bulk write).",
    429: "Too many requests for this API key; retry after `Retry-After` seconds.",
    503: "The database cannot be reached right now; retry after `Retry-After` seconds.",
}


def error_responses(*codes: int) -> dict:
    """OpenAPI responses for the given error status codes, all in the one error shape."""
    return {
        code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
        for code in codes
    }


READ_ERRORS = (400, 401)
WRITE_ERRORS = (400, 401, 403, 409, 413)
