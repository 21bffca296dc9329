"""Outcome routes under /api/v1/."""

from config.api.routing import api_path

from .views import (
    OutcomeHistoryApi,
    OutcomeInsightsApi,
    OutcomesBulkApi,
    OutcomeStatsApi,
)

urlpatterns = [
    *api_path("outcomes/bulk", OutcomesBulkApi.as_view(), "outcomes-bulk"),
    *api_path("outcomes/history", OutcomeHistoryApi.as_view(), "outcomes-history"),
    *api_path("outcomes/insights", OutcomeInsightsApi.as_view(), "outcomes-insights"),
    *api_path("outcomes/stats", OutcomeStatsApi.as_view(), "outcomes-stats"),
]
