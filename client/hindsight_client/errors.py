"""The exceptions the client raises: the server's `{"error", "fields"}` answer, by status."""

from __future__ import annotations


class HindsightError(Exception):
    """Base of every error the client raises."""

    status: int | None = None

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        fields: dict[str, list[str]] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.status = status if status is not None else self.status
        self.fields = fields or {}


class InvalidRequest(HindsightError):
    """400 (and 413): the request was refused; ``.fields`` names the offending fields."""

    status = 400


class Unauthorized(HindsightError):
    """401: no key, or a revoked one."""

    status = 401


class Forbidden(HindsightError):
    """403: a read key on a write, or (``.fields`` naming it) a key bound to other agents."""

    status = 403


class NotFound(HindsightError):
    """404: no such lesson (or path)."""

    status = 404


class Conflict(HindsightError):
    """409: the event id was already used with another body."""

    status = 409


class ServerError(HindsightError):
    """5xx: the service failed while handling the request."""

    status = 500


class Unavailable(HindsightError):
    """The service could not be reached in time (connection refused, timeout, 502/503/504)."""


_BY_STATUS = {
    400: InvalidRequest,
    413: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
}
# Gateway and overload answers say "try later", as a refused connection does: such writes are
# spooled, where any other 5xx is a server bug that resending would only repeat.
UNAVAILABLE_STATUSES = frozenset({429, 502, 503, 504})


def error_for(status: int, body: object) -> HindsightError:
    """The exception for an error answer, carrying the server's message and fields."""
    message = f"HTTP {status}"
    fields: dict[str, list[str]] = {}
    if isinstance(body, dict):
        message = str(body.get("error") or body.get("detail") or message)
        found = body.get("fields")
        if isinstance(found, dict):
            fields = found
    if status in UNAVAILABLE_STATUSES:
        return Unavailable(message, status=status)
    if status >= 500:
        return ServerError(message, status=status)
    return _BY_STATUS.get(status, HindsightError)(message, status=status, fields=fields)
