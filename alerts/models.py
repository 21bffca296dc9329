"""Where alerts go (destinations), which events go where (rules), the alerts raised and each one's
delivery to each destination (the delivery log)."""

import base64
import secrets
import uuid

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models.functions import Now

from config.formats import moment_shown, shortened


def webhook_secret() -> str:
    """A new signing secret as the Standard Webhooks specification writes one: ``whsec_`` and
    base64 of random bytes (32 here; the specification asks for 24 to 64)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def message_id() -> str:
    """A delivery's ``webhook-id``: unique per message and the same on every retry of it, so a
    receiver can drop a message it already handled."""
    return f"msg_{uuid.uuid4().hex}"


class Destination(models.Model):
    """A place alerts are sent: a signed webhook, a Slack incoming webhook or e-mail."""

    class Kind(models.TextChoices):
        WEBHOOK = "webhook", "Webhook (Standard Webhooks signature)"
        SLACK = "slack", "Slack incoming webhook"
        EMAIL = "email", "E-mail"

    name = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=7, choices=Kind.choices)
    # Webhook and Slack: where to POST (alerts.sending checks it at every delivery).
    url = models.URLField(
        "URL",
        max_length=500,
        blank=True,
        help_text="Webhook and Slack: where alerts are posted (https). Slack gives this URL"
        " when you add an incoming webhook to a channel.",
    )
    # E-mail: the addresses, one per line or comma-separated.
    recipients = models.TextField(
        blank=True, help_text="E-mail: the addresses, separated by commas or one per line."
    )
    # Webhook: the signing secret (the receiver verifies with it); made when the destination is.
    secret = models.CharField(
        "signing secret",
        max_length=100,
        default=webhook_secret,
        editable=False,
        help_text="Webhook: the receiver verifies each alert's signature with it.",
    )
    enabled = models.BooleanField(default=True)
    # Kept by the deliveries: attempts failed since the last one that succeeded, and whether the
    # destination was paused for failing (alerts.services.PAUSE_AFTER); a test alert that gets
    # through resumes it.
    failed_in_a_row = models.PositiveIntegerField(default=0, editable=False)
    paused_at = models.DateTimeField(null=True, blank=True, editable=False)
    paused_reason = models.CharField(max_length=300, blank=True, editable=False)
    last_success_at = models.DateTimeField(null=True, blank=True, editable=False)
    tested_at = models.DateTimeField(null=True, blank=True, editable=False)  # the last test alert
    created_at = models.DateTimeField(db_default=Now(), editable=False)

    class Meta:
        ordering = ["name"]
        permissions = [("test_destination", "Can send a test alert to a destination")]

    def __str__(self) -> str:
        return self.name

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def addresses(self) -> list[str]:
        return [a.strip() for a in self.recipients.replace("\n", ",").split(",") if a.strip()]


class Rule(models.Model):
    """Which events go to which destinations, with the thresholds of a new pattern, and how long
    one subject stays quiet after an alert (the window)."""

    class Event(models.TextChoices):
        NEW_PATTERN = "new_pattern", "A new pattern spreads"
        REGRESSION = "regression", "A regression: a fix stopped working"
        ROOT_CAUSE = "root_cause", "A root-cause group opens"
        LESSON_FLAGGED = "lesson_flagged", "A lesson is flagged: it keeps failing"
        RELEASE_WORSE = "release_worse", "A release, model or prompt version does worse"

    name = models.CharField(max_length=100, unique=True)
    event = models.CharField(max_length=14, choices=Event.choices)
    destinations = models.ManyToManyField(Destination, related_name="rules")
    enabled = models.BooleanField(default=True)
    # A new pattern (first seen in the last NEW_PATTERN_HOURS) alerts once, within the last
    # ``within_minutes``, at least ``min_agents`` agents met it or it failed ``min_failures``
    # times; a blank threshold is not used, and at least one is set.
    min_agents = models.PositiveIntegerField(
        "at least this many agents", null=True, blank=True, validators=[MinValueValidator(1)]
    )
    min_failures = models.PositiveIntegerField(
        "or this many failures", null=True, blank=True, validators=[MinValueValidator(1)]
    )
    within_minutes = models.PositiveIntegerField(
        "within minutes", default=15, validators=[MinValueValidator(1)]
    )
    # One alert per subject (a pattern, a regression, a group, a lesson, a release) per window.
    window_minutes = models.PositiveIntegerField(
        "quiet window (minutes)",
        default=60,
        validators=[MinValueValidator(5)],
        help_text="One alert per subject (a pattern, a regression, a release…) within this many"
        " minutes; at least 5.",
    )
    created_at = models.DateTimeField(db_default=Now(), editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Alert(models.Model):
    """Something a human should know, raised by a rule (or a test alert, with no rule): its text
    is scrubbed and names only what the admin page it links to explains."""

    TEST = "test"

    rule = models.ForeignKey(Rule, null=True, blank=True, on_delete=models.SET_NULL)
    event = models.CharField(max_length=14)
    # What it is about, as ``kind:id`` (``pattern:12``, ``regression:4``): one alert per subject
    # and rule per window.
    subject = models.CharField(max_length=200)
    title = models.CharField(max_length=200)
    text = models.TextField()
    # The admin page that explains it, as a path (alerts.sending joins the service's address).
    link = models.CharField(max_length=300)
    raised_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["rule", "subject", "-raised_at"], name="alert_window_idx"),
            # The alerts job forgets alerts past KEPT_DAYS on every run: a range of this index.
            models.Index(fields=["raised_at"], name="alert_raised_idx"),
        ]

    def __str__(self) -> str:
        return shortened(self.title, 120)


class Delivery(models.Model):
    """One alert to one destination: sent by the worker, retried with backoff, logged."""

    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for its first attempt or its next one
        DELIVERED = "delivered"
        FAILED = "failed"  # every attempt failed
        HELD = "held"  # not sent: the destination was paused or disabled

    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="deliveries")
    destination = models.ForeignKey(
        Destination, on_delete=models.CASCADE, related_name="deliveries"
    )
    message_id = models.CharField(max_length=40, default=message_id, unique=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # The last answer: its HTTP status (None: no answer, see last_answer), and its body's start or
    # the error, scrubbed.
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_answer = models.TextField(blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="delivery_due_idx",
                condition=models.Q(status="pending"),
            ),
            models.Index(fields=["-created_at"], name="delivery_recent_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.alert} to {self.destination} ({self.status})"

    @property
    def last_attempt_shown(self) -> str:
        return moment_shown(self.last_attempt_at) if self.last_attempt_at else ""
