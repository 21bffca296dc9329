"""OpenAPI schema hooks."""


def drop_slash_variants(endpoints, **kwargs):
    """List each API path once: the trailing-slash twin answers the same and is left out."""
    return [
        endpoint for endpoint in endpoints
        if not (endpoint[0].endswith("/") and endpoint[0] != "/")
    ]
