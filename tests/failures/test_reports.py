"""Pattern-analysis reports: the markdown, each section, the scripted scenario, pages and email."""

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import CommandError, call_command
from django.utils import timezone

from failures.models import FailurePattern, PatternReport
from failures.records.services import failure_record, failures_record_many
from failures.staff.report_markdown import report_markdown
from failures.staff.reports import pattern_report_build
from failures.tasks import (
    pattern_report_task,
    patterns_update_task,
    regressions_detect_task,
    root_causes_detect_task,
)
from lessons.effectiveness import effectiveness_recompute
from lessons.models import Application, Lesson
from tests.failures.scenario import AGENTS, REFUSED, STEADY, TIMEOUT, entry, spike_scenario
from tests.lessons.factories import LessonFactory

EMPTY = {"since": "2026-03-01T00:00:00Z", "until": "2026-03-02T00:00:00Z"}


# --- pure: markdown -------------------------------------------------------------------------------


def test_an_empty_report_says_so_in_every_section():
    text = report_markdown(EMPTY)
    assert text.startswith("# Pattern report: 2026-03-01T00:00:00Z to 2026-03-02T00:00:00Z\n")
    assert text.count("## ") == 8 and text.count("_None._") == 8
    assert "new: 0 · rising: 0 · root-cause groups: 0 · loops: 0" in text


def test_agent_text_cannot_open_markdown_structure():
    sneaky = {
        "id": 1,
        "template": "boom\n## Owned\n```",
        "error_type": "x",
        "events": 2,
        "agents": 1,
        "tasks": 1,
        "first_seen": "2026-03-01T10:00:00Z",
        "last_seen": None,
    }
    text = report_markdown({**EMPTY, "new_patterns": [sneaky]})
    assert "\n## Owned" not in text
    assert "- #1 “```` boom ## Owned ``` ````” (x): 2 failures, 1 agents, 1 tasks" in text


def test_group_evidence_reads_as_sentences():
    group = {
        "id": 7,
        "status": "suggested",
        "signals": ["coincidence", "dependency"],
        "patterns": [{"id": 1, "template": "a"}, {"id": 2, "template": "b"}],
        "links": [
            {
                "patterns": [1, 2],
                "signal": "coincidence",
                "p_value": 0.00042,
                "expected": 0.213,
                "agents": ["a", "b"],
                "coincidence_count": 2,
                "coincidences": [
                    {
                        "start": "2026-03-01T10:58:00+00:00",
                        "end": "2026-03-01T11:06:00+00:00",
                        "agents": ["a", "b"],
                    },
                    {
                        "start": "2026-03-02T07:12:00+00:00",
                        "end": "2026-03-02T07:20:00+00:00",
                        "agents": ["a"],
                    },
                ],
            },
            {"patterns": [1, 2], "signal": "dependency", "dependency": "host:db"},
        ],
    }
    text = report_markdown({**EMPTY, "root_cause_groups": [group]})
    assert "- Group 7 (suggested; coincidence, dependency):" in text
    assert (
        "#1 and #2 started and stopped together 2 time(s), 0.21 expected by chance "
        "(p = 0.00042), for agents a, b, at 2026-03-02T07:12:00Z, 2026-03-01T10:58:00Z"
    ) in text
    assert "#1 and #2 both name “host:db”" in text


def test_group_evidence_stored_as_hourly_correlation_still_reads():
    group = {
        "id": 7,
        "status": "confirmed",
        "signals": ["correlation"],
        "patterns": [{"id": 1, "template": "a"}, {"id": 2, "template": "b"}],
        "links": [
            {
                "patterns": [1, 2],
                "signal": "correlation",
                "correlation": 0.987,
                "agents": ["a", "b"],
                "windows": ["2026-03-01T10:00:00+00:00"],
                "window_count": 1,
            }
        ],
    }
    text = report_markdown({**EMPTY, "root_cause_groups": [group]})
    assert (
        "#1 and #2 rise and fall together (r = 0.99) for agents a, b, "
        "in hours 2026-03-01T10:00:00Z"
    ) in text


def test_each_regression_and_handled_recurrence_says_why_in_words():
    lesson = {
        "id": "x",
        "error_pattern": "stripe_signature",
        "approved_at": "2026-02-27T00:00:00Z",
    }
    judged = {
        "failures_since": 9,
        "failures_recent": 9,
        "failures_before": 4,
        "span_hours": 48.0,
        "applications": 8,
        "worked": 5,
        "recent_applications": 5,
        "recent_worked": 2,
    }
    base = {
        "pattern": {"id": 3, "template": "Webhook signature mismatch"},
        "kind": "lesson_approved",
        "fixed_at": "2026-02-27T00:00:00Z",
        "since": "2026-02-28T10:00:00Z",
        "evidence": {"lessons": [lesson], **judged},
    }
    text = report_markdown(
        {
            **EMPTY,
            "regressions": [
                {**base, "verdict": "failing"},
                {
                    **base,
                    "verdict": "returned",
                    "kind": "resolved",
                    "evidence": {
                        **judged,
                        "worked": 0,
                        "resolved_failures": 4,
                        "quiet_hours": 30.0,
                    },
                },
            ],
            "recurring_handled": [{**base, "verdict": "handled"}],
        }
    )
    fixed = "fixed by lesson approval (stripe_signature) from 2026-02-27T00:00:00Z"
    assert text.count("- #3 “Webhook signature mismatch”: ") == 3
    assert (
        "its lesson stopped working: 2 of the latest 5 applications worked; back since "
        f"2026-02-28T10:00:00Z, {fixed}"
    ) in text
    assert (
        "back at its pre-fix rate with no application that worked: 9 failures in the last "
        "48.0 h, 4 in as long before the fix; back since 2026-02-28T10:00:00Z, fixed when "
        "all its failures were closed (4 resolved, quiet for 30.0 h) from "
        "2026-02-27T00:00:00Z"
    ) in text
    assert (
        "recurring, handled: 9 failures since the fix, its lesson worked in 5 of 8 "
        f"applications; {fixed}"
    ) in text
    assert "regressions: 2 · recurring, handled: 1" in text


# --- sections -------------------------------------------------------------------------------------


def at(hours_ago: float):
    return timezone.now() - timedelta(hours=hours_ago)


def burst(error: str, hours_ago: list[float], agent: str = "a") -> FailurePattern:
    """Failures of one message at these times (each its own task); return their pattern."""
    failures_record_many(
        entries=[entry(agent, f"t-{i}-{error[:6]}", error, at(h)) for i, h in enumerate(hours_ago)]
    )
    return FailurePattern.objects.filter(failures__error=error).distinct().get()


@pytest.mark.django_db
def test_new_and_rising_patterns():
    old_rising = burst("Rate limited by search-api", [30] + [5] * 6)
    steady = burst("Cache miss storm on sessions-cache", [30] * 5 + [5] * 6)
    new = burst("Certificate expired for billing-gateway", [2])
    data = pattern_report_build().data
    assert [p["id"] for p in data["new_patterns"]] == [new.pk]
    assert [(p["id"], p["current"], p["previous"]) for p in data["rising_patterns"]] == [
        (old_rising.pk, 6, 1)
    ]
    assert steady.pk not in {p["id"] for p in data["rising_patterns"]}


@pytest.mark.django_db
def test_lessons_whose_effectiveness_fell_by_the_margin_or_were_flagged():
    LessonFactory(error_pattern="fell", effectiveness=0.5, effectiveness_previous=0.75)
    LessonFactory(
        error_pattern="flagged",
        effectiveness=0.6,
        effectiveness_previous=0.6,
        flagged=True,
        flagged_reason="worked 1 time in 6",
    )
    LessonFactory(error_pattern="wobbled", effectiveness=0.7, effectiveness_previous=0.75)
    LessonFactory(
        error_pattern="rejected",
        effectiveness=0.1,
        effectiveness_previous=0.9,
        status=Lesson.Status.REJECTED,
    )
    fell = pattern_report_build().data["lessons_fell"]
    assert [(e["error_pattern"], e["flagged"]) for e in fell] == [
        ("flagged", True),
        ("fell", False),
    ]


@pytest.mark.django_db
def test_curation_queue_is_the_most_frequent_patterns_without_an_approved_lesson():
    top = burst("Timeout reading from payments-api", [1, 2, 3, 4])
    waiting = burst("Connection refused to db-primary:5432", [1, 2])
    known = burst("Disk quota exceeded on /srv", [1, 2, 3, 4, 5])
    LessonFactory(status=Lesson.Status.APPROVED).patterns.add(known)
    LessonFactory(status=Lesson.Status.UNVERIFIED).patterns.add(waiting)
    queue = pattern_report_build().data["curation_queue"]
    assert [(e["id"], e["unverified_lessons"]) for e in queue] == [(top.pk, 0), (waiting.pk, 1)]


@pytest.mark.django_db
def test_a_report_of_the_same_window_is_rebuilt_in_place():
    until = timezone.now()
    first = pattern_report_build(since=until - timedelta(hours=6), until=until)
    burst("Timeout reading from payments-api", [1])
    again = pattern_report_build(since=until - timedelta(hours=6), until=until)
    assert again.pk == first.pk and PatternReport.objects.count() == 1
    assert len(again.data["new_patterns"]) == 1


@pytest.mark.django_db
def test_report_task_takes_iso_strings_and_a_rerun_rebuilds_the_same_report():
    until = timezone.now().replace(microsecond=0)
    naive_since = (until - timedelta(hours=3)).replace(tzinfo=None).isoformat()  # read as UTC
    first = pattern_report_task(since=naive_since, until=until.isoformat())
    assert pattern_report_task(since=naive_since, until=until.isoformat()) == first
    report = PatternReport.objects.get()
    assert (report.since, report.until) == (until - timedelta(hours=3), until)
    assert pattern_report_task() == pattern_report_task()  # the window ends on the hour
    assert PatternReport.objects.count() == 2


# --- the scripted scenario ------------------------------------------------------------------------


def scripted_scenario(now) -> dict:
    """Two faults spiking together across a, b, c; a lesson that keeps failing; a pattern back
    at its pre-fix rate after its lesson was approved, none of it handled; another back as
    often, and handled by its lesson every time; an agent looping on one task."""
    ids = spike_scenario(now)
    failing = LessonFactory(error_pattern="payments_timeout_retry", error_type="timeout")
    failing.patterns.add(ids["timeout"])
    # It worked once yesterday, then agents report it failing six times today: the
    # effectiveness job (run then and now) measures the fall and flags it.
    Application.objects.create(lesson=failing, worked=True, applied_at=now - timedelta(days=1))
    effectiveness_recompute(now=now - timedelta(days=1))
    for minutes in range(6):
        Application.objects.create(
            lesson=failing, worked=False, applied_at=now - timedelta(minutes=minutes)
        )
    effectiveness_recompute(now=now)
    webhook = burst("Webhook signature mismatch for stripe events", [50])
    approved = LessonFactory(error_pattern="stripe_signature", status=Lesson.Status.APPROVED)
    approved.patterns.add(webhook)
    Lesson.objects.filter(pk=approved.pk).update(reviewed_at=at(48))
    for hours_ago in (3, 2, 1):
        failure_record(
            agent="a",
            task=f"hook-{hours_ago}",
            occurred_at=at(hours_ago),
            error="Webhook signature mismatch for stripe events",
        )
    limited = burst("Too many requests: search quota exceeded", [60, 55])
    backoff = LessonFactory(error_pattern="payments_backoff", status=Lesson.Status.APPROVED)
    backoff.patterns.add(limited)
    Lesson.objects.filter(pk=backoff.pk).update(reviewed_at=at(48))
    for hours_ago in (30, 20, 10):
        failure = failure_record(
            agent="b",
            task=f"pay-{hours_ago}",
            occurred_at=at(hours_ago),
            error="Too many requests: search quota exceeded",
        )
        Application.objects.create(
            lesson=backoff, worked=True, failure=failure, applied_at=at(hours_ago - 0.1)
        )
    for hours_ago in (3, 2, 1):
        failure_record(
            agent="d",
            task="deploy",
            error="Disk quota exceeded on /var/lib/build",
            occurred_at=at(hours_ago),
        )
    return {**ids, "webhook": webhook.pk, "limited": limited.pk}


@pytest.mark.django_db
def test_scripted_scenario_report_has_the_group_regression_loop_lesson_and_queue():
    ids = scripted_scenario(timezone.now())
    patterns_update_task()
    assert root_causes_detect_task()["groups"] == 1
    assert regressions_detect_task()["flagged"] == 1
    report = PatternReport.objects.get(pk=pattern_report_task())
    data = report.data
    (group,) = data["root_cause_groups"]
    assert {p["id"] for p in group["patterns"]} == {ids["refused"], ids["timeout"]}
    assert group["signals"] == ["coincidence"] and group["agents"] == list(AGENTS)
    (regression,) = data["regressions"]
    assert (regression["pattern"]["id"], regression["kind"], regression["verdict"]) == (
        ids["webhook"],
        "lesson_approved",
        "returned",
    )
    (handled,) = data["recurring_handled"]
    assert (handled["pattern"]["id"], handled["label"]) == (ids["limited"], "recurring, handled")
    (loop,) = data["loops"]
    assert (loop["agent"], loop["task"], loop["kind"], loop["length"]) == (
        "d",
        "deploy",
        "repeat",
        3,
    )
    (lesson,) = data["lessons_fell"]
    assert (lesson["error_pattern"], lesson["flagged"]) == ("payments_timeout_retry", True)
    queue = [entry["id"] for entry in data["curation_queue"]]
    assert queue[:3] == [ids["steady"], ids["refused"], ids["timeout"]]
    assert ids["webhook"] not in queue  # it has an approved lesson
    for text in (
        "Connection refused to db-primary:<*>",
        TIMEOUT,
        STEADY[:20],
        "payments_timeout_retry",
        "d / deploy: repeat of 3",
        "back at its pre-fix rate with no application that worked: 3 failures in the "
        "last 48.0 h, 1 in as long before the fix",
        "fixed by lesson approval (stripe_signature)",
        "recurring, handled: 3 failures since the fix, its lesson worked in 3 of 3 "
        "applications; fixed by lesson approval (payments_backoff)",
    ):
        assert text in report.markdown.replace("\\", "")  # agent text is escaped
    assert REFUSED not in report.markdown  # patterns are shown by template, not raw message


# --- pages, downloads, email, command -------------------------------------------------------------


@pytest.fixture
def report(db):
    burst("Timeout reading from payments-api", [1, 2])
    return pattern_report_build()


@pytest.fixture
def staff_client(client, django_user_model):
    curator = django_user_model.objects.create_user("curator", is_staff=True)
    curator.groups.add(Group.objects.get(name="curators"))  # reports need a permission
    client.force_login(curator)
    return client


@pytest.mark.parametrize("suffix", ["", "{pk}/", "{pk}.md", "{pk}.json"])
def test_reports_are_for_staff_only(client, report, suffix):
    url = "/reports/" + suffix.format(pk=report.pk)
    assert client.get(url).status_code == 302  # anonymous: to the login
    client.force_login(get_user_model().objects.create_user("agent-owner"))
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_staff_read_the_list_and_the_report(staff_client, report):
    listing = staff_client.get("/reports/").content.decode()
    assert f'href="/reports/{report.pk}/"' in listing and "new: 1 · rising: 0" in listing
    page = staff_client.get(f"/reports/{report.pk}/").content.decode()
    assert "Timeout reading from payments-api" in page and "Curation queue" in page
    assert staff_client.get("/reports/999999/").status_code == 404


def test_staff_download_markdown_and_json(staff_client, report):
    md = staff_client.get(f"/reports/{report.pk}.md")
    assert md["Content-Type"] == "text/markdown; charset=utf-8"
    assert md["Content-Disposition"] == f'attachment; filename="pattern-report-{report.pk}.md"'
    assert md.content.decode() == report.markdown
    assert json.loads(staff_client.get(f"/reports/{report.pk}.json").content) == report.data


@pytest.mark.django_db
def test_the_report_is_mailed_to_admins_once_committed(
    settings, django_capture_on_commit_callbacks
):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    until = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        report = pattern_report_build(since=until - timedelta(hours=1), until=until)
    (message,) = mail.outbox
    assert message.to == ["ops@example.org"] and "Pattern report" in message.subject
    assert message.body == report.markdown
    with django_capture_on_commit_callbacks(execute=True):  # the same window, rebuilt
        pattern_report_build(since=until - timedelta(hours=1), until=until)
    assert len(mail.outbox) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "admins, backend",
    [
        ([("Ops", "ops@example.org")], None),  # Django's default backend, never chosen: no email
        ([], "django.core.mail.backends.locmem.EmailBackend"),  # nobody to mail
    ],
)
def test_no_email_unless_admins_and_a_backend_are_configured(
    settings, django_capture_on_commit_callbacks, admins, backend
):
    settings.ADMINS = admins
    if backend:
        settings.EMAIL_BACKEND = backend
    with django_capture_on_commit_callbacks(execute=True):
        pattern_report_build()
    assert mail.outbox == []


@pytest.mark.django_db
def test_command_builds_stores_and_says_where():
    burst("Timeout reading from payments-api", [30])
    out = io.StringIO()
    call_command(
        "pattern_report", "--since", (timezone.now() - timedelta(days=2)).isoformat(), stdout=out
    )
    report = PatternReport.objects.get()
    assert report.data["new_patterns"][0]["template"] == "Timeout reading from payments-api"
    assert f"Pattern report {report.pk} stored" in out.getvalue()
    assert f"/reports/{report.pk}.md" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("pattern_report", "--since", "yesterday")


@pytest.mark.django_db
def test_command_can_run_the_detections_first():
    now = timezone.now()
    spike_scenario(now)
    call_command("pattern_report", "--detect", stdout=io.StringIO())
    assert len(PatternReport.objects.get().data["root_cause_groups"]) == 1


def test_staff_read_every_section_of_the_scenario_as_html(db, staff_client):
    scripted_scenario(timezone.now())
    root_causes_detect_task()
    regressions_detect_task()
    report = pattern_report_build()
    page = staff_client.get(f"/reports/{report.pk}/").content.decode()
    group = report.data["root_cause_groups"][0]["id"]
    for text in (
        f"Group {group} (suggested: coincidence)",
        "started and stopped together 2",
        "<td>deploy</td>",
        "repeat of 3",
        "approved lesson stripe_signature",
        "payments_timeout_retry",
        "flagged: worked in 1.0 of 7.0 recent",
        "<code>KeyError: &#x27;user_id&#x27; in order serializer</code>",
        "regression: back at its pre-fix rate, no application worked",
        "<td>recurring, handled</td>",
        "3 failures; its lesson worked in 3 of 3 applications",
    ):
        assert text in page
