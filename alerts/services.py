"""Raising alerts and delivering them.

The alerts job (every minute) asks each enabled rule what its event names now
(alerts.events), raises an alert for each subject not alerted on by that rule within its window,
and hands every delivery that is due to the worker, one task each. A delivery is attempted by
``delivery_attempt`` alone: the row is locked for the attempt (a second task for it skips it),
and it is sent only when due, so a delivery handed over twice is still sent once per attempt.

A failed attempt (an error, a timeout, an answer other than 2xx) is tried again after
RETRY_FIRST_SECONDS, doubling each time, up to MAX_ATTEMPTS in all (about half an hour); the
job hands over the retries as they fall due. A destination whose last PAUSE_AFTER attempts all
failed is paused: its alerts are held (logged, not sent) until a test alert gets through. A
refused destination (its URL or address may not be reached) is not tried again.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from config.formats import counted, moment_shown
from config.jobs import publish
from failures.models import JobState
from failures.staff.dashboard import dashboard_invalidate

from . import sending
from .events import found_for
from .models import Alert, Delivery, Destination, Rule

MAX_ATTEMPTS = 6
RETRY_FIRST_SECONDS = 60
PAUSE_AFTER = MAX_ATTEMPTS
# The delivery log (alerts with their deliveries) keeps this many days.
KEPT_DAYS = 90


@dataclass(frozen=True)
class RunResult:
    raised: int
    handed_over: int
    pruned: int


def alerts_run(*, now: datetime | None = None) -> RunResult:
    """Raise what the rules name now, and hand every due delivery to the worker."""
    now = now or timezone.now()
    raised = alerts_raise(now=now)
    due = list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)
    )
    for delivery_id in due:
        _hand_over(delivery_id)
    pruned, _ = Alert.objects.filter(raised_at__lt=now - timedelta(days=KEPT_DAYS)).delete()
    return RunResult(raised=raised, handed_over=len(due), pruned=pruned)


def alerts_raise(*, now: datetime) -> int:
    """Raise an alert for each subject a rule names that it did not alert on within its window;
    return how many. Two runs at once take turns (the job's state row is locked)."""
    raised = 0
    with transaction.atomic():
        JobState.locked("alerts")
        rules = Rule.objects.filter(enabled=True).prefetch_related("destinations")
        for rule in rules:
            window_start = now - timedelta(minutes=rule.window_minutes)
            for found in found_for(rule, now):
                if Alert.objects.filter(
                    rule=rule, subject=found.subject, raised_at__gt=window_start
                ).exists():
                    continue
                alert = Alert.objects.create(
                    rule=rule,
                    event=rule.event,
                    subject=found.subject,
                    title=found.title,
                    text=found.text,
                    link=found.link,
                    raised_at=now,
                )
                Delivery.objects.bulk_create(
                    Delivery(alert=alert, destination=destination, next_attempt_at=now)
                    for destination in rule.destinations.all()
                )
                raised += 1
        JobState.objects.filter(name="alerts").update(ran_at=now)
    return raised


def alert_test_send(*, destination: Destination, now: datetime | None = None) -> Delivery:
    """A test alert to ``destination``, tried once, even when the destination is paused or
    disabled: one that gets through resumes a paused destination."""
    now = now or timezone.now()
    with transaction.atomic():
        alert = Alert.objects.create(
            event=Alert.TEST,
            subject=f"test:{destination.pk}",
            title=f"Test alert to {destination.name}",
            text=(
                "This is a test alert from Hindsight: alerts of the rules that name this"
                " destination arrive like this one."
            ),
            link=reverse("admin:alerts_destination_change", args=[destination.pk]),
            raised_at=now,
        )
        delivery = Delivery.objects.create(
            alert=alert, destination=destination, next_attempt_at=now
        )
        Destination.objects.filter(pk=destination.pk).update(tested_at=now)
        _hand_over(delivery.pk)
    return delivery


def delivery_attempt(*, delivery_id: int, now: datetime | None = None) -> str | None:
    """Attempt ``delivery_id`` if it is due and no other worker holds it; return its status
    after the attempt (None: not due, or taken)."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("alert__rule", "destination")
            .filter(pk=delivery_id, status=Delivery.Status.PENDING, next_attempt_at__lte=now)
            .first()
        )
        if delivery is None:
            return None
        destination = delivery.destination
        test = delivery.alert.event == Alert.TEST
        if not test and (destination.paused or not destination.enabled):
            delivery.status = Delivery.Status.HELD
            delivery.next_attempt_at = None
            delivery.last_answer = (
                f"held: {destination.name} is paused"
                if destination.paused
                else f"held: {destination.name} is disabled"
            )
            delivery.save(update_fields=["status", "next_attempt_at", "last_answer"])
            return delivery.status
        answer = sending.send(delivery, now)
        _record(delivery, answer, now, last_attempt=test or answer.text.startswith("refused:"))
        _destination_health(destination.pk, answer, now)
        return delivery.status


def _record(delivery: Delivery, answer: sending.Answer, now: datetime, *, last_attempt: bool):
    delivery.attempts += 1
    delivery.last_attempt_at = now
    delivery.last_status = answer.status
    delivery.last_answer = answer.text
    if answer.ok:
        delivery.status = Delivery.Status.DELIVERED
        delivery.delivered_at = now
        delivery.next_attempt_at = None
    elif last_attempt or delivery.attempts >= MAX_ATTEMPTS:
        delivery.status = Delivery.Status.FAILED
        delivery.next_attempt_at = None
    else:
        delivery.next_attempt_at = now + retry_delay(delivery.attempts)
    delivery.save()


def retry_delay(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failed attempt a delivery is tried again."""
    return timedelta(seconds=RETRY_FIRST_SECONDS * 2 ** (attempts - 1))


def _destination_health(destination_id: int, answer: sending.Answer, now: datetime) -> None:
    destination = Destination.objects.select_for_update().get(pk=destination_id)
    was_paused = destination.paused
    if answer.ok:
        destination.failed_in_a_row = 0
        destination.last_success_at = now
        destination.paused_at = None
        destination.paused_reason = ""
    else:
        destination.failed_in_a_row += 1
        if destination.failed_in_a_row >= PAUSE_AFTER and not destination.paused:
            destination.paused_at = now
            since = destination.last_success_at
            destination.paused_reason = (
                f"{counted(destination.failed_in_a_row, 'attempt')} in a row failed"
                + (f" since the last success at {moment_shown(since)}" if since else "")
                + f"; the last: {_answer_shown(answer)}"
            )[:300]
    destination.save()
    if destination.paused != was_paused:  # the dashboard says which destinations are paused
        transaction.on_commit(dashboard_invalidate)


def _answer_shown(answer: sending.Answer) -> str:
    return f"HTTP {answer.status}" if answer.status is not None else answer.text[:150]


def _hand_over(delivery_id: int) -> None:
    from .tasks import alert_deliver_task  # the task module imports this one

    publish(alert_deliver_task, delivery_id=delivery_id)
