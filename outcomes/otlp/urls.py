"""The OTLP/HTTP route, at the root: exporters append /v1/traces to their endpoint."""

from django.urls import path

from .views import TracesApi

urlpatterns = [
    path("v1/traces", TracesApi.as_view(), name="otlp-traces"),
]
