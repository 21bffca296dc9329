"""Configuring alerts in the admin as a curator: destinations (checked as they are saved, the
secret shown only to who may change them), rules, the test action and the delivery log."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.utils import timezone

from alerts.models import Alert, Delivery, Destination, Rule

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator(django_user_model) -> Client:
    user = django_user_model.objects.create_user("cora", is_staff=True)
    user.groups.add(Group.objects.get(name="curators"))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def viewer(django_user_model) -> Client:
    user = django_user_model.objects.create_user("vic", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = Client()
    client.force_login(user)
    return client


def destination_form(**fields) -> dict:
    return {
        "name": "ops",
        "kind": "webhook",
        "url": "",
        "recipients": "",
        "enabled": "on",
        **fields,
    }


def test_a_curator_adds_a_webhook_and_reads_its_signing_secret(curator):
    response = curator.post(
        "/admin/alerts/destination/add/",
        destination_form(url="https://hooks.example.com/hindsight"),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    destination = Destination.objects.get()
    assert destination.secret.startswith("whsec_") and len(destination.secret) == 50
    page = curator.get(f"/admin/alerts/destination/{destination.pk}/change/").content.decode()
    assert destination.secret in page


def test_a_reader_sees_neither_the_secret_nor_a_slack_token(viewer):
    hook = Destination.objects.create(
        name="ops", kind="webhook", url="https://hooks.example.com/hindsight"
    )
    slack = Destination.objects.create(
        name="#incidents",
        kind="slack",
        url="https://hooks.slack.com/services/T0001/B0001/XXXXXXXXXXXXXXXXXXXXXXXX",
    )
    page = viewer.get(f"/admin/alerts/destination/{hook.pk}/change/").content.decode()
    assert hook.secret not in page and hook.secret[:10] + "…" in page
    page = viewer.get(f"/admin/alerts/destination/{slack.pk}/change/").content.decode()
    assert "XXXXXXXXXXXX" not in page and "https://hooks.slack.com/…" in page
    listing = viewer.get("/admin/alerts/destination/").content.decode()
    assert "XXXXXXXXXXXX" not in listing and hook.secret not in listing


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"url": "http://hooks.example.com/x"}, "url", "Use an https URL"),
        ({"url": "https://10.0.0.5/x"}, "url", "10.0.0.5 is not a public address"),
        ({"url": "https://[::1]/x"}, "url", "::1 is not a public address"),
        ({"url": "https://[64:ff9b::a9fe:a9fe]/x"}, "url", "is not a public address"),
        ({"url": "https://hooks.example.com:65536/x"}, "url", "not a port number"),
        ({"url": ""}, "url", "needs its URL"),
        ({"kind": "slack", "url": ""}, "url", "needs its URL"),
        ({"kind": "email", "recipients": ""}, "recipients", "at least one address"),
        ({"kind": "email", "recipients": "ops@example.com, nope"}, "recipients", "'nope'"),
    ],
)
def test_a_destination_that_cannot_work_is_refused_naming_its_field(
    curator, fields, field, message
):
    response = curator.post("/admin/alerts/destination/add/", destination_form(**fields))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors and message in " ".join(errors[field]), errors
    assert not Destination.objects.exists()


def test_the_setting_lets_a_private_receiver_be_saved(curator, settings):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = True
    response = curator.post(
        "/admin/alerts/destination/add/", destination_form(url="http://10.0.0.5:8080/hook")
    )
    assert response.status_code == 302
    assert Destination.objects.get().url == "http://10.0.0.5:8080/hook"


def test_a_new_pattern_rule_needs_a_threshold(curator):
    destination = Destination.objects.create(
        name="ops", kind="email", recipients="ops@example.com"
    )
    form = {
        "name": "spreading",
        "event": "new_pattern",
        "destinations": [destination.pk],
        "enabled": "on",
        "min_agents": "",
        "min_failures": "",
        "within_minutes": "15",
        "window_minutes": "60",
    }
    response = curator.post("/admin/alerts/rule/add/", form)
    assert response.status_code == 200
    assert "needs a number of agents" in response.content.decode()
    response = curator.post("/admin/alerts/rule/add/", {**form, "min_agents": "3"})
    assert response.status_code == 302
    rule = Rule.objects.get()
    assert list(rule.destinations.all()) == [destination]
    listing = curator.get("/admin/alerts/rule/").content.decode()
    assert "3 agents in 15 minutes" in listing
    # A window under five minutes would let a storm through.
    response = curator.post(
        f"/admin/alerts/rule/{rule.pk}/change/", {**form, "min_agents": "3", "window_minutes": "1"}
    )
    assert "window_minutes" in response.context["adminform"].form.errors


def test_the_test_action_hands_a_test_alert_to_the_worker(curator):
    destination = Destination.objects.create(
        name="ops", kind="webhook", url="https://hooks.example.com/hindsight"
    )
    response = curator.post(
        "/admin/alerts/destination/",
        {"action": "send_test", "_selected_action": [destination.pk]},
        follow=True,
    )
    assert "Test alert handed to the worker for 1 destination" in response.content.decode()
    delivery = Delivery.objects.select_related("alert").get()
    assert (delivery.alert.event, delivery.destination, delivery.status) == (
        "test",
        destination,
        Delivery.Status.PENDING,
    )
    destination.refresh_from_db()
    assert destination.tested_at is not None


def test_the_delivery_log_shows_status_attempts_and_the_last_answer(curator):
    destination = Destination.objects.create(
        name="ops", kind="webhook", url="https://hooks.example.com/hindsight"
    )
    alert = Alert.objects.create(
        event="regression",
        subject="regression:9",
        title="Regression: Stripe webhook signature mismatch",
        text="It failed again after it counted as fixed.",
        link="/admin/failures/regression/9/change/",
        raised_at=timezone.now(),
    )
    delivery = Delivery.objects.create(
        alert=alert,
        destination=destination,
        status=Delivery.Status.PENDING,
        attempts=2,
        last_status=503,
        last_answer="upstream unavailable",
        next_attempt_at=timezone.now(),
    )
    listing = curator.get("/admin/alerts/delivery/").content.decode()
    assert "Regression: Stripe webhook signature mismatch" in listing
    assert "503" in listing and "upstream unavailable" in listing
    page = curator.get(f"/admin/alerts/delivery/{delivery.pk}/change/").content.decode()
    assert delivery.message_id in page and "/admin/failures/regression/9/change/" in page
