"""Failure routes under /api/v1/."""

from config.api.routing import api_path
from failures.records.views import FailuresResolveApi
from failures.store.views import PatternApi

urlpatterns = [
    *api_path("failures/resolve", FailuresResolveApi.as_view(), "failures-resolve"),
    *api_path("patterns/<int:pk>", PatternApi.as_view(), "pattern"),
]
