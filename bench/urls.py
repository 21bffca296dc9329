"""Bench URLs: the project's own, plus the baseline endpoint at /api/v1/bench/baseline."""

from django.urls import path

from config.urls import urlpatterns as project_urlpatterns

from .views import BaselineApi

urlpatterns = [
    path("api/v1/bench/baseline", BaselineApi.as_view(), name="bench-baseline"),
    *project_urlpatterns,
]
