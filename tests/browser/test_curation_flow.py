"""A curator's round in a real browser: log in, approve a lesson from the dashboard's curation
queue, merge two patterns, and check that the dashboard's charts drew the database's numbers."""

import html
import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from failures.models import Failure, FailurePattern
from failures.records.services import failures_record_many
from lessons.models import Lesson
from lessons.services import lesson_record
from outcomes.models import Outcome
from tests.browser.conftest import page_faults, staff_log_in
from tests.lessons.factories import LessonFactory

PASSWORD = "curator-password-7f3a"
# Faults the engine keeps apart, with failures spread over the month (count, days spread) and
# the error type an agent's library raises for each.
FAULTS = [
    ("connection refused by postgres", 40, 25, "psycopg.OperationalError"),
    ("disk quota exceeded on builder", 30, 20, "OSError"),
    ("permission denied writing artifacts", 22, 28, "PermissionError"),
    ("rate limit exceeded calling github", 18, 10, "github.RateLimitExceededException"),
    ("certificate expired for api gateway", 14, 29, "ssl.SSLCertVerificationError"),
    ("out of memory in renderer", 11, 6, "MemoryError"),
    ("dns lookup failed for mirror", 8, 15, "socket.gaierror"),
    ("checksum mismatch in uploaded bundle", 6, 3, "ValueError"),
    ("segmentation fault in image resizer", 4, 12, "subprocess.CalledProcessError"),
    ("queue overflow in mailer", 3, 2, "queue.Full"),
]
# Two shapes of one fault, for the merge.
BILLING = [
    "HTTP 502 from billing while syncing invoices",
    "HTTP 503 from billing while syncing invoices",
]
# (agent, task type): (successes, failures)
OUTCOMES = {
    ("builder", "build"): (9, 1),
    ("builder", "deploy"): (3, 3),
    ("tester", "test_run"): (6, 4),
    ("writer", "report"): (5, 0),
}


def seed(now) -> dict:
    """Failures, outcomes and lessons a month of a small fleet would leave; returns ids."""
    entries = []
    for message, count, spread, error_type in FAULTS:
        for i in range(count):
            entries.append(
                {
                    "agent": f"agent-{i % 4}",
                    "task": f"{message[:8]}-{i}",
                    "error": message,
                    "error_type": error_type,
                    "occurred_at": now - timedelta(days=(i * spread) / count, hours=1),
                }
            )
    for k, message in enumerate(BILLING):
        for i in range(5 + k):
            entries.append(
                {
                    "agent": "agent-9",
                    "task": f"billing-{k}-{i}",
                    "error": message,
                    "error_type": "requests.exceptions.HTTPError",
                    "occurred_at": now - timedelta(days=i, hours=2),
                }
            )
    for i in range(3):  # one task failing the same way again and again: a loop
        entries.append(
            {
                "agent": "deployer",
                "task": "deploy-web",
                "error": "deploy lock held",
                "error_type": "filelock.Timeout",
                "occurred_at": now - timedelta(hours=3 - i),
            }
        )
    failures_record_many(entries=entries)
    Outcome.objects.bulk_create(
        [
            Outcome(
                task_id=f"{agent}-{kind}-{i}",
                agent=agent,
                task_type=kind,
                outcome="success" if i < good else "failure",
                occurred_at=now - timedelta(hours=i),
            )
            for (agent, kind), (good, bad) in OUTCOMES.items()
            for i in range(good + bad)
        ]
    )
    for value in (0.15, 0.3, 0.45, 0.55, 0.62, 0.75, 0.8, 0.92):
        LessonFactory(effectiveness=value, status="approved" if value > 0.5 else "unverified")
    top = FailurePattern.objects.get(template=FAULTS[0][0])
    lesson_record(
        error_pattern="postgres_refused",
        error_type="psycopg.OperationalError",
        resolution="Check that the database is up",
        error_message=FAULTS[0][0],
    )
    get_user_model().objects.create_superuser("curator", "curator@example.com", PASSWORD)
    return {
        "top": top.pk,
        "lesson": Lesson.objects.get(error_pattern="postgres_refused").pk,
        "billing": sorted(
            Failure.objects.filter(error__in=BILLING)
            .values_list("pattern_id", flat=True)
            .distinct()
        ),
    }


def chart(page, element: str):
    """The traces plotly drew into a chart: plotly keeps them on the element (``.data``). Their
    labels are given to plotly with & < > as entities (dashboard.js, label()): read as shown."""
    page.wait_for_selector(f"#{element}[data-drawn='true']")
    traces = page.evaluate(
        f"() => document.getElementById('{element}').data"
        ".map(t => ({name: t.name, x: t.x, y: t.y}))"
    )
    return [
        {**trace, "name": _shown(trace["name"]), "y": [_shown(y) for y in trace["y"]]}
        for trace in traces
    ]


def _shown(value):
    return html.unescape(value) if isinstance(value, str) else value


def test_curator_round(live_server, browser_page, screenshot):
    now = timezone.now()
    ids = seed(now)
    page = browser_page

    staff_log_in(page, live_server.url, "curator", PASSWORD, "/dashboard/")

    # Approve the waiting lesson from the curation queue.
    row = page.locator(f"#curation-queue tr[data-pattern='{ids['top']}']")
    assert row.locator("a.dash-write").get_attribute("href").endswith(f"&patterns={ids['top']}")
    row.locator("a.dash-review").click()
    page.check(f"input.action-select[value='{ids['lesson']}']")
    page.select_option("select[name=action]", "approve")
    page.click("button[name=index]")
    assert "Approved 1 lesson" in page.locator("ul.messagelist li").inner_text()
    assert Lesson.objects.get(pk=ids["lesson"]).status == "approved"

    # Merge the two billing patterns.
    page.goto(f"{live_server.url}/admin/failures/failurepattern/?q=billing")
    for pk in ids["billing"]:
        page.check(f"input.action-select[value='{pk}']")
    page.select_option("select[name=action]", "merge")
    page.click("button[name=index]")
    assert "Merged 1 pattern into" in page.locator("ul.messagelist li").inner_text()
    merged = FailurePattern.objects.filter(pk__in=ids["billing"])
    survivor = merged.get(merged_into__isnull=True)
    gone = merged.exclude(pk=survivor.pk).get()
    assert gone.merged_into_id == survivor.pk
    # The list says where a merged pattern went, as a link to it, not as a bare number.
    page.goto(f"{live_server.url}/admin/failures/failurepattern/?merged=alias")
    cell = page.locator(
        f"#result_list tr:has(input[value='{gone.pk}']) td.field-merged_into_link a"
    )
    assert cell.inner_text() == f"#{survivor.pk}"
    assert cell.get_attribute("href").endswith(f"/failurepattern/{survivor.pk}/change/")
    screenshot(page, "pattern-list-merged")

    # The dashboard's charts hold the database's numbers.
    page.goto(f"{live_server.url}/dashboard/")
    failures = chart(page, "chart-failures")
    window = Failure.objects.filter(
        occurred_at__gte=(now - timedelta(days=29)).replace(
            hour=0, minute=0, second=0, microsecond=0
        )
    )
    assert sum(sum(trace["y"]) for trace in failures) == window.count() == Failure.objects.count()
    drawn = {trace["name"]: sum(trace["y"]) for trace in failures}
    assert drawn[FAULTS[0][0]] == 40
    assert drawn[survivor.template] == window.filter(pattern=survivor).count() == 11
    assert page.locator("#chart-failures .barlayer .point path").count() > 0  # bars in the SVG
    assert page.locator(f"#curation-queue tr[data-pattern='{ids['top']}']").count() == 0

    by_type = chart(page, "chart-success-type")[0]
    rates = dict(zip(by_type["y"], by_type["x"]))
    for kind in ("build", "deploy", "test_run", "report"):
        rows = Outcome.objects.filter(task_type=kind)
        expected = round(100 * rows.filter(outcome="success").count() / rows.count(), 1)
        assert rates[kind] == expected
    lessons = chart(page, "chart-effectiveness")
    assert (
        sum(sum(trace["y"]) for trace in lessons)
        == Lesson.objects.exclude(status="rejected").count()
    )
    # One task loops: the card says so in the singular.
    loops = page.locator(".dash-card", has_text="looping now").inner_text()
    assert re.fullmatch(r"1\s*task looping now", loops.strip()), loops
    assert "deploy-web" in page.locator("#content-main").inner_text()
    screenshot(page, "dashboard")
    assert page_faults(page) == []

    page.goto(f"{live_server.url}/admin/lessons/lesson/")
    page.wait_for_selector("#result_list")
    screenshot(page, "lesson-list-fleet")
    assert page_faults(page) == []
