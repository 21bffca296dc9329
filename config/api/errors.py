"""Errors of the HTTP layer itself (a body too large, the database out of reach), in the one error
shape; what the domain refuses is config.errors."""

from rest_framework import status
from rest_framework.exceptions import APIException


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
