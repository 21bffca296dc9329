"""Top-level URLs: the home page, the admin, the versioned API and its schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api.routing import api_path
from config.api.views import HealthApi
from config.home import home

api_v1 = [
    *api_path("schema", SpectacularAPIView.as_view(), "schema"),
    *api_path("docs", SpectacularSwaggerView.as_view(url_name="schema"), "docs"),
    *api_path("health", HealthApi.as_view(), "health"),
    path("", include("answers.urls")),
    path("", include("lessons.urls")),
    path("", include("failures.urls")),
    path("", include("outcomes.urls")),
    path("", include("outcomes.releases.urls")),
]

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("reports/", include("failures.staff.report_urls")),
    path("dashboard/", include("failures.staff.dashboard_urls")),
    # OTLP/HTTP trace export: exporters append /v1/traces to the endpoint they are given.
    path("", include("outcomes.otlp.urls")),
]

# Under /api/ an unknown URL (or a malformed id in one) answers in the API's error shape.
handler404 = "config.api.views.not_found"
