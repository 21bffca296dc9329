"""Lesson routes under /api/v1/."""

from config.api.routing import api_path

from .views import LessonApplicationsApi, LessonCheckApi, LessonDetailApi, LessonsApi

urlpatterns = [
    *api_path("lessons", LessonsApi.as_view(), "lessons"),
    *api_path("lessons/check", LessonCheckApi.as_view(), "lessons-check"),
    *api_path("lessons/<uuid:lesson_id>", LessonDetailApi.as_view(), "lesson-detail"),
    *api_path(
        "lessons/<uuid:lesson_id>/applications",
        LessonApplicationsApi.as_view(),
        "lesson-applications",
    ),
]
