"""Release routes under /api/v1/."""

from config.api.routing import api_path

from .views import ReleasesApi

urlpatterns = [*api_path("releases", ReleasesApi.as_view(), "releases")]
