"""Failure routes under /api/v1/."""

from config.api.routing import api_path
from failures.boot.views import BootApi
from failures.records.views import FailuresApi, FailuresResolveApi
from failures.store.views import PatternApi

urlpatterns = [
    *api_path("failures", FailuresApi.as_view(), "failures"),
    *api_path("failures/resolve", FailuresResolveApi.as_view(), "failures-resolve"),
    *api_path("boot", BootApi.as_view(), "boot"),
    *api_path("patterns/<int:pk>", PatternApi.as_view(), "pattern"),
]
