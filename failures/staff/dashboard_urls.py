"""Routes of the staff dashboard, under /dashboard/."""

from django.urls import path

from failures.staff.dashboard_views import dashboard

app_name = "dashboard"

urlpatterns = [
    path("", dashboard, name="index"),
]
