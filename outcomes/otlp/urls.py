"""The OTLP/HTTP route, at the root: exporters append /v1/traces to their endpoint."""
from config.api.routing import api_path

from .views import TracesApi

urlpatterns = [
    *api_path("v1/traces", TracesApi.as_view(), "otlp-traces"),
]
