"""Routes under /api/v1/ of the answers composed from several apps: two records and boot."""

from config.api.routing import api_path

from .boot.views import BootApi
from .views import FailuresApi, OutcomesApi

urlpatterns = [
    *api_path("failures", FailuresApi.as_view(), "failures"),
    *api_path("outcomes", OutcomesApi.as_view(), "outcomes"),
    *api_path("boot", BootApi.as_view(), "boot"),
]
