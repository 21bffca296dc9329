"""OpenAPI schema hooks and extensions."""
from drf_spectacular.extensions import OpenApiAuthenticationExtension


def drop_slash_variants(endpoints, **kwargs):
    """List each API path once: the trailing-slash twin answers the same and is left out."""
    return [
        endpoint for endpoint in endpoints
        if not (endpoint[0].endswith("/") and endpoint[0] != "/")
    ]


class ApiKeyScheme(OpenApiAuthenticationExtension):
    """Describes ApiKeyAuthentication as HTTP bearer auth in the schema."""

    target_class = "config.api.authentication.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "An API key from `manage.py apikey create` or the admin."}
