"""The one error shape: ``{"error": "...", "fields": {"name": ["..."]}}`` for every 4xx, and for
the 503 of a database that cannot be reached."""

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from config.errors import (
    Conflict,
    DomainError,
    Forbidden,
    InvalidInput,
    NotFound,
    fields_message,
)

from .errors import Unavailable

logger = logging.getLogger(__name__)


def _flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """Turn DRF's nested error detail into ``{"dotted.field": ["message", ...]}``."""
    if isinstance(detail, dict):
        fields: dict[str, list[str]] = {}
        for key, value in detail.items():
            name = "non_field_errors" if key == "non_field_errors" and not prefix else str(key)
            fields.update(_flatten(value, f"{prefix}.{name}" if prefix else name))
        return fields
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return {prefix or "non_field_errors": [str(item) for item in detail]}
        fields = {}
        for index, item in enumerate(detail):
            if item:  # DRF pads list errors with {} for valid items
                fields.update(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return fields
    return {prefix or "non_field_errors": [str(detail)]}


# The status of each kind of domain error (config.errors): the one place the domain meets HTTP.
DOMAIN_STATUS = {
    InvalidInput: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
}


def api_exception_handler(exc, context):
    """Render API and domain errors in the shared shape; anything else stays a real 500."""
    if isinstance(exc, DomainError):
        set_rollback()
        body = {"error": exc.message, "fields": exc.fields}
        kind = next(k for k in type(exc).__mro__ if k in DOMAIN_STATUS)
        return Response(body, status=DOMAIN_STATUS[kind])
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, (OperationalError, InterfaceError)):
        # The database is down, restarting or dropped the connection: "retry later", not a 500,
        # so clients keep the write. A write that committed before the connection broke is
        # replayed, not repeated, when it is sent again with its event id.
        logger.warning("database unavailable, answering 503: %s", exc)
        exc = Unavailable()
    if not isinstance(exc, exceptions.APIException):
        return None

    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        body = {"error": fields_message(fields), "fields": fields}
    else:
        body = {"error": str(exc.detail), "fields": {}}

    headers = {}
    # Set on some exceptions only: the authentication challenge, and how long to wait.
    if auth_header := getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = auth_header
    if wait := getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(wait))
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)
