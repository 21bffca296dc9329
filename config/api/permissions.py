"""Scope checks: any valid key may read, only a write key may write. Which agents a write key
may write for is checked where the agent is known, in the services (config.api.agents)."""
from rest_framework import permissions

from .models import ApiKey


class HasScopeForMethod(permissions.BasePermission):
    """Safe methods need a key; other methods need a key with the write scope."""

    message = "This API key has the read scope; writing needs a key with the write scope."

    def has_permission(self, request, view) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return key.can_write
