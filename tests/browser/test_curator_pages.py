"""The pages a curator lives in, as a person sees them in Chromium: the admin index, writing a
lesson, the lesson list and page, a pattern's page with its triage, and the dashboard. Every
page visited is screenshotted and checked for visible breakage (conftest.page_faults)."""

import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.utils import timezone

from failures.models import Failure, FailurePattern, RootCauseGroup, RootCauseMembership
from failures.records.services import failure_record, failures_record_many
from lessons.models import Application, Lesson, LessonCuration, LessonProposal, PatternLink
from outcomes.models import Outcome, SpanRejection
from tests.browser.conftest import columns_cut, page_faults, staff_log_in
from tests.conftest import curators_make
from tests.lessons.factories import LessonFactory

PASSWORD = "curator-pages-5b1e"
FAULT = "connection refused by postgres on port 5432"
OTHER = "disk quota exceeded on builder"
PARTIAL = (
    "deadlock detected while updating orders: process 4121 waits for ShareLock on "
    "transaction 99812; blocked by process 4177"
)
LONG_RESOLUTION = (
    "Restart the connection pool, then check that the primary accepts "
    "connections before retrying; if it does not, fail over to the replica "
    "and page the database on-call."
)


def seed(now) -> dict:
    """Two patterns in one root-cause group, failures over two weeks from three agents, a lesson
    applied twelve times (ten worked), a flagged one, a pending proposal and refused spans."""
    failures_record_many(
        entries=[
            {
                "agent": f"agent-{i % 3}",
                "task": f"sync-{i}",
                "task_type": "sync" if i % 2 else "deploy",
                "error": FAULT,
                "error_type": "psycopg.OperationalError",
                "occurred_at": now - timedelta(days=i % 14, hours=1),
            }
            for i in range(30)
        ]
        + [
            {
                "agent": "agent-0",
                "task": f"build-{i}",
                "error": OTHER,
                "error_type": "OSError",
                "occurred_at": now - timedelta(days=i, hours=2),
            }
            for i in range(4)
        ]
    )
    failures_record_many(
        entries=[
            {
                "agent": "agent-1",
                "task": "sync-orders-2026-11-28T06:00:00Z",
                "error": PARTIAL,
                "error_type": "psycopg.errors.DeadlockDetected",
                "occurred_at": now - timedelta(minutes=5),
                "side_effects": ["wrote 3 rows to orders", "sent 1 e-mail"],
            }
        ]
    )
    pattern = FailurePattern.objects.get(template__startswith="connection refused")
    other = FailurePattern.objects.get(template__startswith="disk quota")
    group = RootCauseGroup.objects.create(
        members_key="a" * 40, detected_at=now, evidence={"signals": ["co-occurrence"]}
    )
    for member in (pattern, other):
        RootCauseMembership.objects.create(group=group, pattern=member)
    lesson = LessonFactory(
        error_pattern="postgres_refused",
        error_type="psycopg.OperationalError",
        resolution=LONG_RESOLUTION,
        status="approved",
        effectiveness=0.83,
        applications_count=12,
    )
    lesson.patterns.add(pattern)
    Application.objects.bulk_create(
        [
            Application(
                lesson=lesson,
                worked=i < 10,
                agent=f"agent-{i % 3}",
                task_id=f"sync-{i}",
                applied_at=now - timedelta(hours=i),
            )
            for i in range(12)
        ]
    )
    LessonProposal.objects.create(
        lesson=lesson,
        resolution="Raise max_connections to 500",
        digest="e" * 64,
        proposed_by="agent-2",
    )
    # A candidate link: two agents' reports through one key, and that key's wording.
    PatternLink.objects.create(
        lesson=lesson,
        pattern=other,
        successes=2,
        agents=2,
        keys=1,
        wordings=1,
        first_seen=now - timedelta(days=1),
        last_seen=now,
    )
    LessonFactory(
        error_pattern="disk_full",
        error_type="OSError",
        flagged=True,
        effectiveness=0.2,
        applications_count=6,
        flagged_reason="works 2 times in 6",
    )
    Outcome.objects.bulk_create(
        [
            Outcome(
                task_id=f"{kind}-{i}",
                agent="agent-0",
                task_type=kind,
                outcome="success" if kind == "build" else "failure",
                occurred_at=now - timedelta(hours=i),
            )
            for kind in ("build", "deploy")
            for i in range(3)
        ]
    )
    # One failed deploy as an agent reports it: its error type, how long it ran, its pattern.
    Outcome.objects.filter(task_id="deploy-0").update(
        error_type="psycopg.errors.DeadlockDetected",
        duration_ms=12_500,
        pattern=FailurePattern.objects.get(template__startswith="deadlock"),
    )
    SpanRejection.objects.bulk_create(
        [
            SpanRejection(
                at=now - timedelta(hours=1),
                reason="no agent",
                count=12,
                example="span 00f067aa0ba902b7 of trace 4bf92f3577b34da6a3ce929d0e0e4736: no agent: set "
                "the gen_ai.agent.name attribute, or the service name (OTEL_SERVICE_NAME).",
            ),
            SpanRejection(
                at=now - timedelta(hours=3),
                reason="hindsight.checkpoint: not a finite number",
                count=1,
                example="span 53995c3f42cd8ad8 of trace "
                "5b8efff798038103d269b633813fc60c: hindsight.checkpoint: holds a number "
                "that is not finite or is out of range.",
            ),
        ]
    )
    curator = get_user_model().objects.create_user("carol", password=PASSWORD, is_staff=True)
    # A transactional test's flush empties the group the data migrations made: make it again.
    curators_make(django_apps, SimpleNamespace(connection=connection))
    curator.groups.add(Group.objects.get(name="curators"))
    return {
        "pattern": pattern,
        "other": other,
        "lesson": lesson,
        "group": group,
        "curator": curator,
    }


def log_in(page, url: str) -> None:
    staff_log_in(page, url, "carol", PASSWORD, "/admin/")


def line_height(locator) -> float:
    return locator.evaluate(
        "(e) => parseFloat(getComputedStyle(e).lineHeight)"
        " || parseFloat(getComputedStyle(e).fontSize) * 1.2"
    )


@pytest.fixture
def world(live_server, browser_page):
    ids = seed(timezone.now())
    log_in(browser_page, live_server.url)
    return ids


def test_the_fault_finder_catches_a_link_wrapped_one_letter_per_line(browser_page):
    page = browser_page
    page.set_content(
        '<div style="width:8px; overflow-wrap:anywhere"><a href="#">Dashboard</a>'
        "</div><p>&lt;Thing object at 0x7f00&gt;</p>"
    )
    assert page_faults(page) == [
        "shows 'object at 0x'",
        "link 'Dashboard' wrapped one letter per line",
    ]


def test_admin_index_links_read_on_one_line(live_server, browser_page, world, visit):
    page = visit(browser_page, f"{live_server.url}/admin/", "admin-index")
    for name in ("Dashboard", "Reports"):
        link = page.locator("#hindsight-links a", has_text=name)
        box = link.bounding_box()
        assert box["height"] < 1.5 * line_height(link), f"{name} wraps: {box}"


def test_writing_a_lesson(live_server, browser_page, world, visit):
    pattern = world["pattern"]
    page = visit(
        browser_page,
        f"{live_server.url}/admin/lessons/lesson/add/?error_pattern="
        f"pg_refused&error_type=psycopg.OperationalError&patterns={pattern.pk}",
        "lesson-add",
    )
    form = page.locator("#lesson_form").inner_text()
    assert "Agent" not in form and "Source" not in form  # what is written is a human's
    page.fill("#id_resolution", "Wait for the failover, then retry once.")
    page.click("input[name=_save]")
    page.wait_for_selector("ul.messagelist li")
    lesson = Lesson.objects.get(error_pattern="pg_refused")
    assert (lesson.status, lesson.source, lesson.reviewed_by) == (
        "approved",
        "human",
        world["curator"],
    )
    assert list(lesson.patterns.all()) == [pattern]
    history = lesson.curations.get(action=LessonCuration.Action.WRITE)
    assert (history.action, history.user, history.after["status"]) == (
        LessonCuration.Action.WRITE,
        world["curator"],
        "approved",
    )


def test_lesson_list(live_server, browser_page, world, visit):
    page = visit(browser_page, f"{live_server.url}/admin/lessons/lesson/", "lesson-list")
    rows = {
        row.locator("th").inner_text(): row for row in page.locator("#result_list tbody tr").all()
    }
    refused, full = rows["postgres_refused"], rows["disk_full"]
    assert "83% of 12 applications" in refused.inner_text()
    assert "Restart the connection pool" in refused.inner_text()
    assert LONG_RESOLUTION not in refused.inner_text()  # shortened
    assert refused.locator("td.field-flag").inner_text().strip() == ""
    assert refused.locator("td.field-flag img").count() == 0  # no ✗ on a lesson not flagged
    assert "flagged" in full.locator("td.field-flag").inner_text()
    assert "20% of 6 applications" in full.inner_text()
    assert columns_cut(page) == []  # every column fits the list


def test_lesson_page(live_server, browser_page, world, visit):
    lesson = world["lesson"]
    page = visit(
        browser_page, f"{live_server.url}/admin/lessons/lesson/{lesson.pk}/change/", "lesson-page"
    )
    applications = page.locator(".field-applications_recent table").inner_text()
    assert "agent-1" in applications and "did not work" in applications
    assert applications.count("worked") >= 10
    assert FAULT in page.locator(".field-failures_recent").inner_text()
    proposals = page.locator("#proposals-group").inner_text()
    assert "Raise max_connections to 500" in proposals
    assert str(lesson.pk) not in proposals
    assert page.locator("text=pattern links learned from the fleet").count() == 1
    links = page.locator("#pattern_links-group")
    assert "keys" in links.locator("thead").inner_text().lower()
    assert OTHER in links.inner_text()
    # Not flagged: the page says nothing of a flag (no blank row, no red icon).
    assert page.locator(".field-flag, .field-flagged_reason").count() == 0
    assert "Flagged" not in page.locator("#lesson_form").inner_text()
    # Values as a person reads them: a short score, one format of moment with its zone.
    assert page.locator(".field-rank_score_shown .readonly").inner_text() == (
        f"{lesson.rank_score:.3f}"
    )
    form = page.locator("#lesson_form").inner_text()
    # One format of moment, its time joined to its zone by a no-break space.
    assert re.search(r"Last occurred:\s+\d{4}-\d\d-\d\d \d\d:\d\d\u00a0UTC", form), form
    assert "a.m." not in form and "p.m." not in form


def test_pattern_page_and_its_triage(live_server, browser_page, world, visit):
    pattern, page = world["pattern"], browser_page
    url = f"{live_server.url}/admin/failures/failurepattern/{pattern.pk}/change/"
    visit(page, url, "pattern-page")
    bars = page.locator("#pattern-days .pattern-bar")
    assert bars.count() == 30
    assert sum(int(bar.get_attribute("data-count")) for bar in bars.all()) == 30
    assert "30 in the last 30 days" in page.locator("#pattern-days h2").inner_text()
    agents = page.locator("#pattern-agents").inner_text()
    assert all(f"agent-{i}\t10" in agents for i in range(3))
    types = page.locator("#pattern-task-types").inner_text()
    assert "sync\t15" in types and "deploy\t15" in types
    assert page.locator("#pattern-latest tbody tr").count() == 10
    assert "83% of 12 applications" in page.locator("#pattern-lessons").inner_text()
    assert OTHER in page.locator("#pattern-groups").inner_text()

    page.click("#pattern-triage button[value=ignore]")
    page.wait_for_selector("ul.messagelist li")
    assert page.locator("#triage-state").inner_text() == "ignored"
    assert FailurePattern.objects.get(pk=pattern.pk).status == "ignored"
    screenshot_after = visit(page, url, "pattern-page-ignored")
    assert screenshot_after.locator("#pattern-triage button[value=reopen]").count() == 1

    until = timezone.now() + timedelta(days=2)
    page.fill("#pattern-triage input[name=snooze_until]", f"{until:%Y-%m-%dT%H:%M}")
    page.click("#pattern-triage button[value=snooze]")
    page.wait_for_selector("ul.messagelist li")
    assert page.locator("#triage-state").inner_text() == (
        f"snoozed until {until:%Y-%m-%d %H:%M}\u00a0UTC"
    )

    page.click("#pattern-triage button[value=resolve]")
    page.wait_for_selector("ul.messagelist li")
    assert page.locator("#triage-state").inner_text() == "resolved"
    failure_record(agent="agent-0", task="sync-again", error=FAULT)
    visit(page, url, "pattern-page-reopened")
    assert page.locator("#triage-state").inner_text() == "open"
    assert "reopened by a failure" in page.locator("#triage-reopened").inner_text()


def test_dashboard_bars_at_zero_carry_their_label(
    live_server, browser_page, world, visit, screenshot
):
    page = visit(browser_page, f"{live_server.url}/dashboard/", "dashboard-pages")
    page.wait_for_selector("#chart-success-type[data-drawn='true']")
    labels = page.locator("#chart-success-type .bartext")
    assert sorted(labels.all_text_contents()) == ["0 / 3", "3 / 3"]  # deploy 0%, build 100%
    zero = labels.filter(has_text="0 / 3").bounding_box()
    # The plot area starts past the left margin plotly leaves for the names (170 px).
    chart = page.locator("#chart-success-type").bounding_box()
    assert zero["width"] > 0 and chart["x"] + 170 <= zero["x"] < chart["x"] + chart["width"]
    screenshot(page, "dashboard-pages-drawn")
    assert page_faults(page) == []


def test_every_other_curator_page_shows_nothing_broken(live_server, browser_page, world, visit):
    """The lists and pages not covered above, each checked and screenshotted."""
    lesson, group = world["lesson"], world["group"]
    proposal = lesson.proposals.get()
    pages = {
        "pattern-list": "/admin/failures/failurepattern/",
        "failure-list": "/admin/failures/failure/",
        "failure-page": f"/admin/failures/failure/{world['pattern'].failures.first().pk}/change/",
        "root-cause-list": "/admin/failures/rootcausegroup/",
        "root-cause-page": f"/admin/failures/rootcausegroup/{group.pk}/change/",
        "proposal-list": "/admin/lessons/lessonproposal/",
        "proposal-page": f"/admin/lessons/lessonproposal/{proposal.pk}/change/",
        "application-list": f"/admin/lessons/application/?lesson__id__exact={lesson.pk}",
        "outcome-list": "/admin/outcomes/outcome/",
        "report-list": "/reports/",
    }
    for name, path in pages.items():
        visit(browser_page, f"{live_server.url}{path}", name)
        assert columns_cut(browser_page) == [], name  # at 1400 px no column is hidden
    # Values as a person reads them: side effects as a list, a duration in seconds, the
    # pattern a merge kept linked by its number.
    failure = Failure.objects.get(error=PARTIAL)
    visit(
        browser_page,
        f"{live_server.url}/admin/failures/failure/{failure.pk}/change/",
        "failure-page-side-effects",
    )
    effects = browser_page.locator(".field-side_effects_shown li").all_inner_texts()
    assert effects == ["wrote 3 rows to orders", "sent 1 e-mail"]
    # A long message is cut at a word, with an ellipsis, in the title and the breadcrumbs.
    for shown in (
        browser_page.locator("#content h2").inner_text(),
        browser_page.locator(".breadcrumbs").inner_text(),
    ):
        assert shown.endswith("for ShareLock on…"), shown
    visit(
        browser_page,
        f"{live_server.url}/admin/outcomes/outcome/?outcome=failure",
        "outcome-list-failures",
    )
    assert "DURATION MS" not in browser_page.locator("#result_list thead").inner_text().upper()
    assert "12.5 s" in browser_page.locator("#result_list td.field-duration").all_inner_texts()
    # The list of patterns says each one's triage and offers the snooze time with the actions.
    visit(browser_page, f"{live_server.url}/admin/failures/failurepattern/", "pattern-list")
    assert browser_page.locator("td.field-triage_state").first.inner_text() == "open"
    assert browser_page.locator("input[name=snooze_until]").count() == 1
    # The applications list behind the lesson page's "all 12 applications" holds its 12.
    visit(browser_page, f"{live_server.url}{pages['application-list']}", "application-list")
    assert browser_page.locator("#result_list tbody tr").count() == 12


def test_a_pattern_page_shows_the_fleets_suggestion_and_confirms_it(
    live_server, browser_page, world, visit
):
    """A lesson the fleet reports worked on a pattern, not linked yet (a candidate link): the
    page says so with the evidence, not "no lesson", and a curator confirms it there."""
    other, lesson = world["other"], world["lesson"]
    url = f"{live_server.url}/admin/failures/failurepattern/{other.pk}/change/"
    page = visit(browser_page, url, "pattern-page-suggested")
    assert (
        "none linked yet: the fleet suggests 1 below"
        in page.locator("#pattern-lessons").inner_text()
    )
    row = page.locator("#pattern-candidates tbody tr")
    assert "postgres_refused" in row.inner_text()
    assert (
        "worked 2 times for 2 agents; sent as a wording of its error by 1 key; from 1 key in all"
    ) in row.inner_text()
    row.locator("button", has_text="Confirm link").click()
    page.wait_for_selector("ul.messagelist li")
    assert "Linked lesson postgres_refused" in page.locator("ul.messagelist").inner_text()
    assert lesson.patterns.filter(pk=other.pk).exists()
    assert PatternLink.objects.get(lesson=lesson, pattern=other).state == "confirmed"
    visit(page, url, "pattern-page-confirmed")
    assert page.locator("#pattern-candidates").count() == 0
    assert "postgres_refused" in page.locator("#pattern-lessons table").inner_text()
