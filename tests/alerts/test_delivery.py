"""Delivering alerts to a real HTTP receiver on the loopback: the Standard Webhooks signature,
retries with backoff, the window that holds a storm to one alert, pausing and resuming a
destination, the address checks, timeouts, answer sizes, redirects, Slack and e-mail."""

import io
import json
import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from standardwebhooks import Webhook

from alerts import sending, services
from alerts.models import Alert, Delivery, Destination
from alerts.selectors import destinations_paused
from alerts.services import (
    MAX_ATTEMPTS,
    PAUSE_AFTER,
    alert_test_send,
    alerts_raise,
    alerts_run,
    delivery_attempt,
    retry_delay,
)
from failures.records.services import failures_record_many
from failures.staff.dashboard import dashboard_compose
from tests.alerts.conftest import receiver_start, rule_to

pytestmark = pytest.mark.django_db

OUTAGE = "Connection to billing-db:5432 refused (ECONNREFUSED) while charging invoice"


def spread(now, *, agents: int = 3, each: int = 1, error: str = OUTAGE):
    """``agents`` agents each meet ``error`` ``each`` times in the last minutes."""
    failures_record_many(
        entries=[
            dict(
                agent=f"agent-{a}",
                task=f"task-{a}-{n}",
                error=error,
                error_type="psycopg.OperationalError",
                occurred_at=now - timedelta(minutes=2, seconds=n),
            )
            for a in range(agents)
            for n in range(each)
        ]
    )


def only_delivery() -> Delivery:
    (delivery,) = Delivery.objects.select_related("alert", "destination")
    return delivery


def test_a_new_pattern_reaches_the_webhook_signed_as_the_specification_says(webhook, receiver):
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    assert alerts_raise(now=now) == 1
    delivery = only_delivery()
    assert delivery_attempt(delivery_id=delivery.pk, now=now) == Delivery.Status.DELIVERED

    (request,) = receiver.received
    assert request.path == "/hooks/hindsight"
    # The reference verifier of the specification checks id, timestamp, body and signature.
    payload = Webhook(webhook.secret).verify(request.body, request.headers)
    assert request.headers["webhook-id"] == delivery.message_id
    assert request.headers["webhook-timestamp"] == str(int(now.timestamp()))
    assert webhook.secret.startswith("whsec_")
    assert payload["type"] == "alert.new_pattern"
    data = payload["data"]
    assert data["subject"] == f"pattern:{delivery.alert.subject.split(':')[1]}"
    assert "3 agents" in data["text"] and "billing-db:<*> refused" in data["text"]
    assert data["url"].startswith("http://127.0.0.1:8000/admin/failures/failurepattern/")
    # Another secret does not verify it.
    with pytest.raises(Exception, match="signature"):
        Webhook("whsec_" + "A" * 43 + "=").verify(request.body, request.headers)
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status, delivery.last_answer) == (1, 200, "ok")


def test_the_alert_links_to_the_admin_page_that_explains_it(webhook, admin_client):
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    alerts_raise(now=now)
    alert = Alert.objects.get()
    assert alert.link.startswith("/admin/failures/failurepattern/")
    assert admin_client.get(alert.link).status_code == 200


def test_a_500_is_retried_with_backoff_and_then_delivered(webhook, receiver):
    receiver.statuses = [500, 503, 200]
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    alerts_raise(now=now)
    delivery = only_delivery()

    assert delivery_attempt(delivery_id=delivery.pk, now=now) == Delivery.Status.PENDING
    delivery.refresh_from_db()
    assert delivery.next_attempt_at == now + retry_delay(1) == now + timedelta(seconds=60)
    assert (delivery.attempts, delivery.last_status) == (1, 500)
    # Not due yet: nothing is sent.
    assert delivery_attempt(delivery_id=delivery.pk, now=now + timedelta(seconds=30)) is None
    assert len(receiver.received) == 1

    second = now + timedelta(seconds=61)
    assert delivery_attempt(delivery_id=delivery.pk, now=second) == Delivery.Status.PENDING
    delivery.refresh_from_db()
    assert delivery.next_attempt_at == second + timedelta(seconds=120)  # doubled
    third = second + timedelta(seconds=121)
    assert delivery_attempt(delivery_id=delivery.pk, now=third) == Delivery.Status.DELIVERED

    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status, delivery.delivered_at) == (3, 200, third)
    # One message: the same id on every attempt, each signed at its own moment, each verifying.
    ids = {request.headers["webhook-id"] for request in receiver.received}
    assert ids == {delivery.message_id}
    stamps = [request.headers["webhook-timestamp"] for request in receiver.received]
    assert stamps == [str(int(moment.timestamp())) for moment in (now, second, third)]
    destination = Destination.objects.get()
    assert (destination.failed_in_a_row, destination.last_success_at) == (0, third)


def test_the_job_hands_over_retries_as_they_fall_due(webhook, receiver, monkeypatch):
    handed = []
    monkeypatch.setattr(services, "_hand_over", handed.append)
    receiver.statuses = [500, 200]
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    assert alerts_run(now=now).handed_over == 1
    delivery_attempt(delivery_id=handed[-1], now=now)
    assert alerts_run(now=now + timedelta(seconds=30)).handed_over == 0  # not due
    assert alerts_run(now=now + timedelta(seconds=61)).handed_over == 1
    assert delivery_attempt(delivery_id=handed[-1], now=now + timedelta(seconds=61)) == (
        Delivery.Status.DELIVERED
    )
    assert alerts_run(now=now + timedelta(minutes=5)).handed_over == 0


def test_every_attempt_failing_ends_the_delivery_after_the_last_one(webhook, receiver):
    receiver.statuses = [500]
    moment = timezone.now()
    test_alert = Alert.objects.create(
        event="new_pattern", subject="pattern:1", title="t", text="x", link="/", raised_at=moment
    )
    delivery = Delivery.objects.create(
        alert=test_alert, destination=webhook, next_attempt_at=moment
    )
    for attempt in range(1, MAX_ATTEMPTS + 1):
        status = delivery_attempt(delivery_id=delivery.pk, now=moment)
        delivery.refresh_from_db()
        assert delivery.attempts == attempt
        if attempt < MAX_ATTEMPTS:
            assert status == Delivery.Status.PENDING
            moment = delivery.next_attempt_at
    assert status == Delivery.Status.FAILED and delivery.next_attempt_at is None
    assert len(receiver.received) == MAX_ATTEMPTS
    # The whole backoff spans about an hour: 1 + 2 + 4 + 8 + 16 minutes between attempts.
    assert sum((retry_delay(n) for n in range(1, MAX_ATTEMPTS)), timedelta()) == timedelta(
        minutes=31
    )


def test_a_timeout_is_an_attempt_that_failed(webhook, receiver, monkeypatch):
    monkeypatch.setattr(sending, "TIMEOUT_SECONDS", 0.3)
    receiver.delay = 1.0
    delivery = alert_test_send(destination=webhook)
    assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.FAILED
    delivery.refresh_from_db()
    assert delivery.last_status is None and "timed out" in delivery.last_answer


def test_the_window_holds_a_storm_to_one_alert(webhook, receiver):
    now = timezone.now()
    rule_to(webhook, window_minutes=60)
    spread(now, agents=5, each=200)  # a thousand failures of one pattern
    raised = [alerts_raise(now=now + timedelta(minutes=m)) for m in range(0, 60, 5)]
    assert raised == [1] + [0] * 11
    assert Alert.objects.count() == 1
    # Still spreading once the window has passed: one more, not one per failure.
    spread(now + timedelta(minutes=61), agents=3)
    assert alerts_raise(now=now + timedelta(minutes=61)) == 1
    assert Alert.objects.count() == 2


def test_a_pattern_below_the_thresholds_or_not_new_raises_nothing(webhook, receiver):
    now = timezone.now()
    rule_to(webhook, min_agents=3, min_failures=None)
    spread(now, agents=2, each=50)  # many failures, but two agents: the rule asks for three
    assert alerts_raise(now=now) == 0
    # An old pattern spreading is no new pattern.
    old = "Upstream ledger-api answered 502 Bad Gateway on GET /v2/balances"
    spread(now - timedelta(hours=30), agents=1, error=old)
    spread(now, agents=4, error=old)
    assert alerts_raise(now=now) == 0
    # Failures older than the rule's minutes do not count.
    spread(now + timedelta(minutes=30), agents=1)
    assert alerts_raise(now=now + timedelta(minutes=30)) == 0


def test_failures_alone_can_cross_the_threshold(webhook, receiver):
    now = timezone.now()
    rule_to(webhook, min_agents=None, min_failures=20)
    spread(now, agents=1, each=19)
    assert alerts_raise(now=now) == 0
    spread(now, agents=1, each=1, error=OUTAGE)
    assert alerts_raise(now=now) == 1


def test_a_paused_destination_holds_alerts_says_so_and_resumes_after_a_good_test(
    webhook, receiver
):
    receiver.statuses = [500]
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    alerts_raise(now=now)
    delivery = only_delivery()
    moment = now
    while delivery_attempt(delivery_id=delivery.pk, now=moment) == Delivery.Status.PENDING:
        delivery.refresh_from_db()
        moment = delivery.next_attempt_at
    webhook.refresh_from_db()
    assert webhook.paused and webhook.failed_in_a_row == PAUSE_AFTER
    assert "6 attempts in a row failed" in webhook.paused_reason
    assert "HTTP 500" in webhook.paused_reason
    # The dashboard says so.
    (shown,) = destinations_paused()
    assert shown["name"] == "on-call webhook" and "HTTP 500" in shown["reason"]
    assert dashboard_compose(now=now)["alerts_paused"] == [shown]

    # A new alert while paused is held: logged, not sent.
    sent = len(receiver.received)
    later = now + timedelta(hours=2)
    spread(later, error="Redis at cache-1:6379 timed out after 5000 ms reading a reply")
    assert alerts_raise(now=later) >= 1
    held = Delivery.objects.exclude(pk=delivery.pk).get()
    assert delivery_attempt(delivery_id=held.pk, now=later) == Delivery.Status.HELD
    held.refresh_from_db()
    assert held.last_answer == "held: on-call webhook is paused"
    assert len(receiver.received) == sent

    # A test alert that fails leaves it paused; one that gets through resumes it.
    test = alert_test_send(destination=webhook, now=later)
    assert delivery_attempt(delivery_id=test.pk, now=later) == Delivery.Status.FAILED
    webhook.refresh_from_db()
    assert webhook.paused
    receiver.statuses = [200]
    test = alert_test_send(destination=webhook, now=later)
    assert delivery_attempt(delivery_id=test.pk, now=later) == Delivery.Status.DELIVERED
    webhook.refresh_from_db()
    assert not webhook.paused and webhook.failed_in_a_row == 0 and webhook.paused_reason == ""
    assert destinations_paused() == []
    assert json.loads(receiver.received[-1].body)["type"] == "alert.test"


def test_a_disabled_destination_holds_its_alerts(webhook, receiver):
    now = timezone.now()
    rule_to(webhook)
    Destination.objects.filter(pk=webhook.pk).update(enabled=False)
    spread(now)
    alerts_raise(now=now)
    assert delivery_attempt(delivery_id=only_delivery().pk, now=now) == Delivery.Status.HELD
    assert receiver.received == []


@pytest.mark.parametrize(
    "url, why",
    [
        ("http://{host}:{port}/hook", "http is not https"),
        ("https://127.0.0.1:{port}/hook", "127.0.0.1, not a public address"),
        ("https://localhost:{port}/hook", "not a public address"),
        ("https://[::1]:{port}/hook", "::1, not a public address"),
        ("https://no-such-host.invalid/hook", "does not resolve"),
    ],
)
def test_a_private_address_is_refused_without_the_setting(settings, db, url, why):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = False
    receiver, server = receiver_start()
    try:
        port = receiver.url.split(":")[2].split("/")[0]
        destination = Destination.objects.create(
            name="inside", kind="webhook", url=url.format(host="127.0.0.1", port=port)
        )
        delivery = alert_test_send(destination=destination)
        assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.FAILED
        delivery.refresh_from_db()
        assert delivery.last_answer.startswith("refused: ") and why in delivery.last_answer
        assert receiver.received == []
    finally:
        server.shutdown()
        server.server_close()


def test_a_refused_destination_is_not_retried(settings, db):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = False
    destination = Destination.objects.create(
        name="metadata", kind="webhook", url="https://169.254.169.254/latest/meta-data"
    )
    moment = timezone.now()
    alert = Alert.objects.create(
        event="regression", subject="regression:1", title="t", text="x", link="/", raised_at=moment
    )
    delivery = Delivery.objects.create(
        alert=alert, destination=destination, next_attempt_at=moment
    )
    assert delivery_attempt(delivery_id=delivery.pk, now=moment) == Delivery.Status.FAILED
    delivery.refresh_from_db()
    assert delivery.attempts == 1 and "169.254.169.254" in delivery.last_answer


@pytest.mark.parametrize(
    "address, public",
    [
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("10.1.2.3", False),
        ("172.16.0.1", False),
        ("192.168.1.1", False),
        ("127.0.0.1", False),
        ("169.254.169.254", False),  # cloud metadata
        ("100.64.0.1", False),  # carrier-grade NAT
        ("0.0.0.0", False),
        ("::1", False),
        ("fc00::1", False),
        ("fe80::1%eth0", False),
        ("::ffff:127.0.0.1", False),  # loopback mapped into IPv6
        ("::ffff:10.0.0.1", False),
        ("224.0.0.1", False),
    ],
)
def test_which_addresses_are_public(address, public):
    assert sending.public(address) is public


def test_only_a_small_part_of_an_answer_is_read(webhook, receiver):
    receiver.body = b"x" * 1_000_000
    delivery = alert_test_send(destination=webhook)
    assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.DELIVERED
    delivery.refresh_from_db()
    assert delivery.last_answer == "x" * sending.ANSWER_KEPT


def test_an_answer_is_scrubbed_before_it_is_logged(webhook, receiver):
    receiver.statuses = [401]
    receiver.body = b'{"error": "bad token", "token": "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"}'
    delivery = alert_test_send(destination=webhook)
    delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.last_status == 401
    assert "ghp_1a2B3c4D" not in delivery.last_answer and "REDACTED" in delivery.last_answer


def test_a_redirect_is_not_followed(webhook, receiver):
    elsewhere, server = receiver_start()
    try:
        receiver.statuses = [307]
        receiver.headers = {"Location": elsewhere.url}
        delivery = alert_test_send(destination=webhook)
        assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.FAILED
        delivery.refresh_from_db()
        assert delivery.last_status == 307 and elsewhere.received == []
    finally:
        server.shutdown()
        server.server_close()


def test_a_delivery_handed_over_twice_is_sent_once(webhook, receiver):
    delivery = alert_test_send(destination=webhook)
    assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.DELIVERED
    assert delivery_attempt(delivery_id=delivery.pk) is None
    assert len(receiver.received) == 1


def test_slack_gets_its_message_format_and_no_mention_from_agent_text(receiver):
    slack = Destination.objects.create(name="#incidents", kind="slack", url=receiver.url)
    now = timezone.now()
    rule_to(slack)
    spread(now, error="Deploy hook said <!channel> <https://evil.example|click> & failed hard")
    alerts_raise(now=now)
    assert delivery_attempt(delivery_id=only_delivery().pk, now=now) == Delivery.Status.DELIVERED
    (request,) = receiver.received
    message = json.loads(request.body)
    assert "webhook-signature" not in request.headers
    (block,) = message["blocks"]
    assert block["type"] == "section" and block["text"]["type"] == "mrkdwn"
    text = block["text"]["text"]
    assert text.startswith("*<http://127.0.0.1:8000/admin/failures/failurepattern/")
    assert "&lt;!channel&gt;" in text and "<!channel>" not in text
    # The engine masked the link as a variable part; what is left of it stays escaped.
    assert "said &lt;!channel&gt; &lt;&lt;*&gt;&gt; &amp; failed hard" in text
    assert "<!channel>" not in message["text"]


def test_email_goes_through_django_mail_with_the_link(db):
    team = Destination.objects.create(
        name="team mail", kind="email", recipients="oncall@example.com,\nlead@example.com"
    )
    now = timezone.now()
    rule_to(team)
    spread(now)
    alerts_raise(now=now)
    assert delivery_attempt(delivery_id=only_delivery().pk, now=now) == Delivery.Status.DELIVERED
    (message,) = mail.outbox
    assert message.to == ["oncall@example.com", "lead@example.com"]
    assert message.subject.startswith("[Hindsight] New pattern spreading: ")
    assert "Connection to billing-db:<*> refused (ECONNREFUSED)" in message.body
    assert "http://127.0.0.1:8000/admin/failures/failurepattern/" in message.body


def test_alert_text_is_scrubbed(webhook, receiver):
    now = timezone.now()
    rule_to(webhook)
    key = "sk-proj-" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9n"
    spread(now, error=f"OpenAI rejected key {key}: 401 Unauthorized")
    alerts_raise(now=now)
    delivery_attempt(delivery_id=only_delivery().pk, now=now)
    (request,) = receiver.received
    assert key not in request.body and "sk-proj-Ab3" not in request.body
    assert "OpenAI rejected key" in json.loads(request.body)["data"]["text"]


def test_a_message_over_several_lines_makes_a_one_line_mail_subject(db):
    team = Destination.objects.create(name="team", kind="email", recipients="ops@example.com")
    now = timezone.now()
    rule_to(team)
    spread(now, error="Traceback (most recent call last):\n  KeyError: 'region'\nin deploy plan")
    alerts_raise(now=now)
    assert delivery_attempt(delivery_id=only_delivery().pk, now=now) == Delivery.Status.DELIVERED
    (message,) = mail.outbox
    assert "\n" not in message.subject and "KeyError" in message.subject


def test_a_defect_while_sending_fails_the_attempt_instead_of_leaving_it_due(
    webhook, receiver, monkeypatch
):
    def broken(*args):
        raise ValueError("a defect")

    monkeypatch.setattr(sending, "webhook_payload", broken)
    delivery = alert_test_send(destination=webhook)
    assert delivery_attempt(delivery_id=delivery.pk) == Delivery.Status.FAILED
    delivery.refresh_from_db()
    assert delivery.last_answer == "ValueError: a defect"


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_raise_one_alert(webhook):
    now = timezone.now()
    rule_to(webhook)
    spread(now, agents=4)
    raised = []

    def run():
        try:
            raised.append(alerts_raise(now=now))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(raised) == [0, 0, 0, 1]
    assert Alert.objects.count() == 1 and Delivery.objects.count() == 1


def test_the_command_runs_the_job(webhook, receiver):
    rule_to(webhook)
    spread(timezone.now())
    out = io.StringIO()
    call_command("send_alerts", stdout=out)
    assert out.getvalue() == "1 alert(s) raised, 1 due delivery(ies) handed over.\n"
    assert Alert.objects.get().deliveries.get().destination == webhook


def test_a_test_alert_links_to_its_destination(webhook, admin_client):
    alert = alert_test_send(destination=webhook).alert
    assert alert.link == f"/admin/alerts/destination/{webhook.pk}/change/"
    assert admin_client.get(alert.link).status_code == 200
