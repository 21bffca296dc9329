"""The staff dashboard: who may see it, what each section reads, caching, and its chart library."""

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.utils import timezone

from failures.models import Failure
from failures.records.services import failures_record_many
from failures.staff import dashboard
from failures.staff.dashboard import dashboard_compose, dashboard_data
from outcomes.models import Outcome, SpanRejection
from tests.lessons.factories import LessonFactory

URL = "/dashboard/"
# Messages the pattern engine keeps apart (no shared shape), one pattern each.
DISTINCT = [
    "connection refused by postgres",
    "disk quota exceeded on builder",
    "permission denied writing artifacts",
    "certificate expired for api gateway",
    "rate limit exceeded calling github",
    "out of memory in renderer",
    "timeout waiting for redis lock",
    "dns lookup failed for mirror",
    "checksum mismatch in uploaded bundle",
    "segmentation fault in image resizer",
]


def record(
    error: str,
    n: int,
    *,
    days_ago: float = 0.1,
    agent: str = "a",
    task: str = "",
    error_type: str = "timeout",
) -> int:
    at = timezone.now() - timedelta(days=days_ago)
    failures_record_many(
        entries=[
            {
                "agent": agent,
                "task": task or f"{error[:10]}-{i}",
                "error": error,
                "error_type": error_type,
                "occurred_at": at,
            }
            for i in range(n)
        ]
    )
    return Failure.objects.filter(error=error).values_list("pattern_id", flat=True).first()


def page_data(response) -> dict:
    text = response.content.decode()
    start = text.index('<script id="dashboard-data" type="application/json">') + 52
    return json.loads(text[start : text.index("</script>", start)])


@pytest.mark.django_db
def test_anonymous_is_sent_to_the_login(client):
    response = client.get(URL)
    assert response.status_code == 302 and response.url.startswith(
        "/admin/login/?next=/dashboard/"
    )


@pytest.mark.django_db
def test_non_staff_is_sent_to_the_login(client):
    user = get_user_model().objects.create_user("agent-owner", password="x-long-password-1")
    client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 302 and response.url.startswith("/admin/login/")


@pytest.mark.django_db
def test_failures_over_time_counts_every_failure_of_the_window(admin_client):
    ids = [record(message, n=i + 1, days_ago=i % 5) for i, message in enumerate(DISTINCT)]
    record("old outage in the vault", n=50, days_ago=45)  # outside the 30 days
    data = page_data(admin_client.get(URL))["failures_over_time"]
    in_window = Failure.objects.filter(occurred_at__gte=timezone.now() - timedelta(days=29.9))
    assert data["total"] == sum(data["totals"]) == in_window.count() == 55
    # Top 8 by failures in the window, the two smallest in "other".
    assert [s["id"] for s in data["series"]] == ids[::-1][:8]
    assert sum(data["other"]) == 1 + 2
    for day, total, other in zip(range(30), data["totals"], data["other"]):
        assert total == other + sum(s["counts"][day] for s in data["series"])


@pytest.mark.django_db
def test_top_patterns_are_ranked_by_the_window_not_by_all_time():
    # The pattern with the most failures ever had nearly all of them before the window.
    old = record("legacy importer crashed", n=40, days_ago=60)
    record("legacy importer crashed", n=1, days_ago=1)
    recent = [record(message, n=3 + i, days_ago=1) for i, message in enumerate(DISTINCT[:8])]
    series = dashboard.failures_over_time(now=timezone.now())["series"]
    assert [s["id"] for s in series] == recent[::-1]
    assert old not in [s["id"] for s in series]


@pytest.mark.django_db
def test_rising_patterns_and_loops():
    rising = record("disk full on builder", n=6, days_ago=0.2)
    record("disk full on builder", n=1, days_ago=1.5)
    record("steady noise from cron", n=4, days_ago=0.2)
    record("steady noise from cron", n=4, days_ago=1.5)
    loop = record("deploy lock held by another job", n=3, task="deploy-web", agent="deployer")
    data = dashboard_compose(now=timezone.now())
    # Three is below the report's minimum for "rising" (5); even with none the day before.
    assert [(r["id"], r["current"], r["previous"]) for r in data["rising"]] == [(rising, 6, 1)]
    (entry,) = data["loops"]["entries"]
    assert (entry["agent"], entry["task"], entry["kind"], entry["length"]) == (
        "deployer",
        "deploy-web",
        "repeat",
        3,
    )
    assert entry["patterns"][0]["id"] == loop and data["summary"]["loops"] == 1


@pytest.mark.django_db
def test_curation_queue_offers_write_and_review_links(admin_client):
    covered = record("payment gateway timed out", n=9)
    waiting = record("invoice renderer out of memory", n=5, error_type="memory")
    bare = record("cache node evicted keys", n=2)
    LessonFactory(error_pattern="gateway", status="approved").patterns.add(covered)
    LessonFactory(error_pattern="renderer").patterns.add(waiting)
    response = admin_client.get(URL)
    queue = response.context["queue"]
    assert [(row["id"], row["unverified_lessons"]) for row in queue] == [(waiting, 1), (bare, 0)]
    assert queue[0]["write_url"] == (
        "/admin/lessons/lesson/add/?error_pattern=invoice+renderer+out+of+memory"
        f"&error_type=memory&patterns={waiting}"
    )
    page = response.content.decode()
    assert "status__exact=unverified" in page and "review 1 unverified" in page


@pytest.mark.django_db
def test_success_rates_by_task_type_and_agent():
    now = timezone.now()
    rows = [
        ("a", "deploy", "success"),
        ("a", "deploy", "failure"),
        ("b", "deploy", "success"),
        ("b", "triage", "success"),
        ("b", "triage", "success"),
    ]
    Outcome.objects.bulk_create(
        [
            Outcome(
                task_id=str(i),
                agent=agent,
                task_type=kind,
                outcome=result,
                occurred_at=now - timedelta(hours=i),
            )
            for i, (agent, kind, result) in enumerate(rows)
        ]
    )
    Outcome.objects.create(
        task_id="old",
        agent="a",
        task_type="deploy",
        outcome="failure",
        occurred_at=now - timedelta(days=9),
    )  # outside the week
    success = dashboard_compose(now=now)["success"]
    assert success["outcomes"] == 5 and success["successes"] == 4
    assert [(r["name"], r["total"], r["rate"]) for r in success["by_task_type"]] == [
        ("deploy", 3, 66.7),
        ("triage", 2, 100.0),
    ]
    assert [(r["name"], r["total"], r["rate"]) for r in success["by_agent"]] == [
        ("b", 3, 100.0),
        ("a", 2, 50.0),
    ]


@pytest.mark.django_db
def test_effectiveness_distribution_bins_lessons_by_status():
    for value, status in (
        (0.1, "approved"),
        (0.5, "unverified"),
        (0.52, "unverified"),
        (1.0, "approved"),
        (0.3, "rejected"),
    ):
        LessonFactory(effectiveness=value, status=status)
    data = dashboard_compose(now=timezone.now())["effectiveness"]
    assert data["approved"][2] == 1 and data["approved"][19] == 1  # 1.0 in the last bin
    assert data["unverified"][10] == 2 and sum(data["unverified"]) == 2
    assert sum(data["approved"]) == 2  # the rejected one is left out
    assert data["never_applied"] == 4


@pytest.mark.django_db
def test_the_composition_is_cached_and_curation_drops_it(admin_client, django_assert_num_queries):
    # Both today, whatever the time of day: a finished day's total has a cache of its own that
    # curation does not drop (curation does not change it), so in the first hours after
    # midnight failures of 0.1 days ago would be yesterday's, counted once and kept.
    record("first failure", n=1, days_ago=0)
    first = dashboard_data()
    record("second failure", n=1, days_ago=0)
    with django_assert_num_queries(0):
        assert dashboard_data() == first
    lesson = LessonFactory()
    admin_client.post(
        "/admin/lessons/lesson/", {"action": "approve", "_selected_action": [lesson.pk]}
    )
    assert dashboard_data()["failures_over_time"]["total"] == 2


@pytest.mark.django_db
def test_finished_days_are_counted_once_then_read_from_the_cache(django_assert_num_queries):
    record("yesterday's failure", n=2, days_ago=1)
    now = timezone.now()
    days = [now.date() - timedelta(days=29 - i) for i in range(30)]
    assert dashboard._daily_totals(days=days, now=now)[days[-2]] == 2
    with django_assert_num_queries(1):  # today's count only
        dashboard._daily_totals(days=days, now=now)


def test_the_chart_library_is_served_from_the_installed_package():
    path = finders.find("dashboard/vendor/plotly.min.js")
    assert path and "site-packages" in path and path.endswith("package_data/plotly.min.js")
    with open(path, encoding="utf-8") as bundle:
        assert "plotly.js v" in bundle.read(300)


@pytest.mark.django_db
def test_page_links_the_library_and_admin_index_links_the_dashboard(admin_client):
    page = admin_client.get(URL).content.decode()
    assert '<script src="/static/dashboard/vendor/plotly.min.js" defer>' in page
    assert "cdn" not in page.lower()
    assert 'href="/dashboard/"' in admin_client.get("/admin/").content.decode()


def _back_after_the_fix(error: str, *, worked: bool) -> int:
    """A pattern seen three times before its lesson was approved two days ago, and three times
    since, each time with an application of the lesson that worked (or did not)."""
    from failures.analysis.regressions import regressions_detect
    from lessons.models import Application, Lesson

    pattern = record(error, n=3, days_ago=3)
    lesson = LessonFactory(error_pattern=error[:20], status="approved")
    lesson.patterns.add(pattern)
    Lesson.objects.filter(pk=lesson.pk).update(reviewed_at=timezone.now() - timedelta(days=2))
    record(error, n=3, days_ago=1)
    since_fix = Failure.objects.filter(
        pattern_id=pattern, occurred_at__gt=timezone.now() - timedelta(days=2)
    )
    for failure in since_fix:
        Application.objects.create(
            lesson=lesson,
            worked=worked,
            failure=failure,
            applied_at=failure.occurred_at + timedelta(minutes=1),
        )
    regressions_detect(now=timezone.now() + timedelta(minutes=10))
    return pattern


@pytest.mark.django_db
def test_a_recurrence_its_lesson_handles_is_shown_apart_from_regressions(admin_client):
    handled = _back_after_the_fix(DISTINCT[4], worked=True)
    data = dashboard_compose(now=timezone.now())
    assert (data["summary"]["regressions"], data["summary"]["recurring_handled"]) == (0, 1)
    [entry] = data["regressions"]["entries"]
    assert (entry["pattern"]["id"], entry["label"], entry["regression"]) == (
        handled,
        "recurring, handled",
        False,
    )
    page = admin_client.get(URL).content.decode()
    assert "dash-alert" not in page.split("</span>regression")[0].rsplit("dash-card", 1)[1]
    assert "dash-regression" not in page and "<td>recurring, handled</td>" in page


@pytest.mark.django_db
def test_a_regression_is_counted_and_shown_in_red(admin_client):
    failing = _back_after_the_fix(DISTINCT[0], worked=False)
    data = dashboard_compose(now=timezone.now())
    assert (data["summary"]["regressions"], data["summary"]["recurring_handled"]) == (1, 0)
    [entry] = data["regressions"]["entries"]
    assert (entry["pattern"]["id"], entry["label"], entry["regression"]) == (
        failing,
        "regression: its lesson stopped working",
        True,
    )
    page = admin_client.get(URL).content.decode()
    assert "dash-alert" in page.split("</span>regression")[0].rsplit("dash-card", 1)[1]
    assert '<tr class="dash-regression">' in page


@pytest.mark.django_db
def test_refused_spans_of_the_last_day_are_shown_by_reason(admin_client):
    now = timezone.now()
    for hours_ago, reason, count, example in [
        (1, "no agent", 4, "span a of trace t: no agent: set OTEL_SERVICE_NAME"),
        (2, "no agent", 3, "span b of trace t: older"),
        (3, "invalid hindsight.retry_safe", 1, "span c of trace t: Must be true"),
        (30, "no end time", 9, "span d of trace t: a day and more ago"),
    ]:
        SpanRejection.objects.create(
            at=now - timedelta(hours=hours_ago), reason=reason, count=count, example=example
        )
    data = dashboard_compose(now=now)
    assert [
        (row["reason"], row["spans"], row["exports"], row["example"])
        for row in data["spans_refused"]
    ] == [
        ("no agent", 7, 2, "span a of trace t: no agent: set OTEL_SERVICE_NAME"),
        ("invalid hindsight.retry_safe", 1, 1, "span c of trace t: Must be true"),
    ]
    assert data["summary"]["spans_refused"] == 8
    page = admin_client.get(URL).content.decode()
    refused = page.split('id="spans-refused"')[1]
    assert '<tr data-reason="no agent">' in refused and "OTEL_SERVICE_NAME" in refused
    assert "no end time" not in refused
    assert "dash-alert" in page.split(">OpenTelemetry span")[0].rsplit("dash-card", 1)[1]


@pytest.mark.django_db
def test_the_cards_count_in_words_that_agree_with_the_figure(admin_client):
    failing = _back_after_the_fix(DISTINCT[0], worked=False)
    assert failing
    page = admin_client.get(URL).content.decode()
    assert "</span>regression this week" in page  # one
    assert "</span>tasks looping now" in page  # none
    assert not re.search(r'dash-figure">1</span>\w+s ', page)


@pytest.mark.django_db
def test_a_curators_change_to_a_lesson_drops_the_cached_dashboard(admin_client):
    """lessons tells the dashboard through its signal (lessons.signals.lessons_curated)."""
    lesson = LessonFactory()
    dashboard_data()
    assert cache.get(dashboard.CACHE_KEY) is not None
    response = admin_client.post(
        "/admin/lessons/lesson/", {"action": "approve", "_selected_action": [str(lesson.pk)]}
    )
    assert response.status_code == 302
    assert cache.get(dashboard.CACHE_KEY) is None
