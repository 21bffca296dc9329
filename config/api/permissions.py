"""Scope checks: any valid key may read, only a write key may write. Which agents a write key
may write for is checked where the agent is known, in the services (config.api.agents)."""

from rest_framework import permissions

from .models import ApiKey


def request_reads(request, view) -> bool:
    """Whether a request only reads: a safe method, or a POST to a view that declares its POST a
    read (``post_reads = True``: a query sent as a JSON body, to keep it out of URLs and logs)."""
    if request.method in permissions.SAFE_METHODS:
        return True
    return request.method == "POST" and getattr(view, "post_reads", False)


class HasScopeForMethod(permissions.BasePermission):
    """Reads (request_reads) need a key; writes need a key with the write scope."""

    message = "This API key has the read scope; writing needs a key with the write scope."

    def has_permission(self, request, view) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey):
            return False
        return request_reads(request, view) or key.can_write
