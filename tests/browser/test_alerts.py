"""Alerts as a curator sees them: the destinations (one paused), a destination's page with its
signing secret, a rule's form, the delivery log, and the dashboard saying a destination is
paused."""

from datetime import timedelta

import pytest
from django.utils import timezone

from alerts.models import Alert, Delivery, Destination, Rule
from tests.browser.conftest import columns_cut
from tests.browser.test_curator_pages import log_in, seed


@pytest.fixture
def alerting(live_server, browser_page):
    now = timezone.now()
    seed(now)
    hook = Destination.objects.create(
        name="on-call webhook", kind="webhook", url="https://hooks.example.com/hindsight/alerts"
    )
    slack = Destination.objects.create(
        name="#incidents",
        kind="slack",
        url="https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx",
        failed_in_a_row=6,
        paused_at=now - timedelta(minutes=20),
        paused_reason="6 attempts in a row failed; the last: HTTP 500",
    )
    mail = Destination.objects.create(
        name="database team", kind="email", recipients="db-oncall@example.com, lead@example.com"
    )
    spreading = Rule.objects.create(name="new fault spreading", event="new_pattern", min_agents=3)
    spreading.destinations.set([hook, slack])
    regressions = Rule.objects.create(name="fixes that stopped working", event="regression")
    regressions.destinations.set([mail])
    for minutes, (status, answer, code) in enumerate(
        [
            (Delivery.Status.DELIVERED, "ok", 200),
            (Delivery.Status.PENDING, "upstream connect error or disconnect/reset", 503),
            (Delivery.Status.FAILED, "refused: 10.0.0.7, not a public address", None),
            (Delivery.Status.HELD, "held: #incidents is paused", None),
        ]
    ):
        alert = Alert.objects.create(
            rule=spreading,
            event="new_pattern",
            subject=f"pattern:{minutes}",
            title="New pattern spreading: connection refused by postgres on port <*>",
            text="“connection refused by postgres on port <*>”: 30 failures from 3 agents.",
            link="/admin/failures/failurepattern/",
            raised_at=now - timedelta(minutes=minutes),
        )
        Delivery.objects.create(
            alert=alert,
            destination=slack if status == Delivery.Status.HELD else hook,
            status=status,
            attempts=1 if status != Delivery.Status.HELD else 0,
            last_status=code,
            last_answer=answer,
            last_attempt_at=now - timedelta(minutes=minutes),
            next_attempt_at=now + timedelta(minutes=2) if status == "pending" else None,
        )
    log_in(browser_page, live_server.url)
    return hook


def test_destinations_rules_and_the_log_read_well(live_server, browser_page, alerting, visit):
    base = live_server.url
    page = visit(browser_page, f"{base}/admin/alerts/destination/", "alerts-destinations")
    assert columns_cut(page) == []
    listing = page.locator("#result_list").inner_text()
    assert "paused since" in listing and "https://hooks.slack.com/…" in listing
    assert "abcdefghij" not in listing

    page = visit(
        browser_page,
        f"{base}/admin/alerts/destination/{alerting.pk}/change/",
        "alerts-destination-page",
    )
    assert alerting.secret in page.locator("#content").inner_text()

    page = visit(browser_page, f"{base}/admin/alerts/rule/", "alerts-rules")
    assert columns_cut(page) == []
    assert "3 agents in 15 minutes" in page.locator("#result_list").inner_text()
    visit(browser_page, f"{base}/admin/alerts/rule/add/", "alerts-rule-form")

    page = visit(browser_page, f"{base}/admin/alerts/delivery/", "alerts-delivery-log")
    assert columns_cut(page) == []
    log = page.locator("#result_list").inner_text()
    assert "held: #incidents is paused" in log and "503" in log


def test_the_dashboard_says_a_destination_is_paused(live_server, browser_page, alerting, visit):
    page = visit(browser_page, f"{live_server.url}/dashboard/", "dashboard-alerts-paused")
    banner = page.locator("#alerts-paused").inner_text()
    assert "Alerts to #incidents are paused since" in banner
    assert "6 attempts in a row failed; the last: HTTP 500" in banner
    assert "send it a test alert to resume it" in banner
