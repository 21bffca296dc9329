"""Domain errors that services raise and the API turns into the one error shape."""

from rest_framework import status
from rest_framework.exceptions import APIException


class InvalidInput(APIException):
    """400 with per-field messages, for checks a serializer cannot make."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Invalid input."
    default_code = "invalid"

    def __init__(self, message: str, fields: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.fields = fields or {}

    @classmethod
    def from_fields(cls, fields: dict[str, list[str]]) -> "InvalidInput":
        """A 400 whose message names every offending field and quotes the first problem."""
        return cls(validation_message(fields), fields)


def validation_message(fields: dict[str, list[str]]) -> str:
    """``Invalid input in a, b: a: <first message>``; non-field errors as they are."""
    named = [name for name in fields if name != "non_field_errors"]
    if not named:
        return "; ".join(fields.get("non_field_errors", ["Invalid input."]))
    first = named[0]
    return f"Invalid input in {', '.join(named)}: {first}: {fields[first][0]}"


class Conflict(APIException):
    """409: the request contradicts what is stored (e.g. an event id reused with another body)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "Conflict."
    default_code = "conflict"


class PayloadTooLarge(APIException):
    """413: the body is larger than the service accepts."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "Request body too large."
    default_code = "payload_too_large"


class Unavailable(APIException):
    """503: a backing service (the database) cannot be reached right now; the same request may
    succeed when retried, so clients keep the write and send it again."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "The service is temporarily unavailable; retry shortly."
    default_code = "unavailable"
    # Seconds a client should wait before retrying (sent as Retry-After).
    wait = 2
