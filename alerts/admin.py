"""Alerts in the admin: destinations (with a "send a test alert" action), rules, and the delivery
log. Curators configure destinations and rules and read the log; only administrators delete (a
destination's log goes with it). A destination's signing secret and its URL (a Slack URL holds
its token) are shown whole to those who may change the destination, masked to readers."""

import ipaddress
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.validators import validate_email
from django.urls import reverse
from django.utils.html import format_html

from config.admin_tools import ReadOnlyAdmin
from config.formats import counted, moment_shown, shortened
from config.staff_admin import GuardedAdmin

from .models import Delivery, Destination, Rule
from .sending import public
from .services import alert_test_send


class DestinationForm(forms.ModelForm):
    url = forms.URLField(
        label="URL",
        max_length=500,
        required=False,
        assume_scheme="https",
        help_text=Destination._meta.get_field("url").help_text,
        widget=forms.URLInput(attrs={"style": "width: min(44em, 100%)"}),
    )

    class Meta:
        model = Destination
        fields = ["name", "kind", "url", "recipients", "enabled"]
        widgets = {"recipients": forms.Textarea(attrs={"rows": 2, "cols": 60})}

    def clean(self):
        super().clean()
        data = self.cleaned_data
        kind, url = data.get("kind"), data.get("url") or ""
        if kind in (Destination.Kind.WEBHOOK, Destination.Kind.SLACK):
            if not url:
                self.add_error("url", "A webhook or Slack destination needs its URL.")
            elif problem := url_problem(url):
                self.add_error("url", problem)
        if kind == Destination.Kind.EMAIL:
            addresses = Destination(recipients=data.get("recipients", "")).addresses()
            if not addresses:
                self.add_error("recipients", "An e-mail destination needs at least one address.")
            for address in addresses:
                try:
                    validate_email(address)
                except forms.ValidationError:
                    self.add_error("recipients", f"{address!r} is not an e-mail address.")
        return data


def url_problem(url: str) -> str | None:
    """What is wrong with a webhook URL as saved (delivery checks the resolved address again)."""
    parts = urlsplit(url)
    private = settings.HINDSIGHT_ALERT_PRIVATE_URLS
    if parts.scheme != "https" and not (private and parts.scheme == "http"):
        return "Use an https URL (HINDSIGHT_ALERT_PRIVATE_URLS allows http)."
    try:
        parts.port  # noqa: B018  (parsing it is the check)
    except ValueError:
        return "The URL's port is not a port number."
    try:
        address = ipaddress.ip_address(parts.hostname or "")
    except ValueError:
        return None  # a name: checked on the address it resolves to, at each delivery
    if not private and not public(str(address)):
        return f"{address} is not a public address (HINDSIGHT_ALERT_PRIVATE_URLS allows it)."
    return None


@admin.register(Destination)
class DestinationAdmin(GuardedAdmin):
    form = DestinationForm
    list_display = ["name", "kind", "where", "enabled", "state", "last_success"]
    list_filter = ["kind", "enabled"]
    actions = ["send_test"]

    def get_fields(self, request, obj=None):
        shown = ["name", "kind", "url", "recipients", "enabled"]
        if obj is None:
            return shown
        if not self.has_change_permission(request, obj):
            shown[2] = "where"
        secret = "secret" if self.has_change_permission(request, obj) else "secret_masked"
        return [*shown, secret, "state", "last_success", "last_test"]

    def get_readonly_fields(self, request, obj=None):
        return ["where", "secret", "secret_masked", "state", "last_success", "last_test"]

    @admin.display(description="where")
    def where(self, obj):
        """The URL's scheme and host only (a Slack URL's path is its token), or the addresses."""
        if obj.kind == Destination.Kind.EMAIL:
            return ", ".join(obj.addresses())
        parts = urlsplit(obj.url)
        return f"{parts.scheme}://{parts.netloc}/…" if parts.netloc else "–"

    @admin.display(description="signing secret")
    def secret_masked(self, obj):
        return obj.secret[:10] + "…" if obj.kind == Destination.Kind.WEBHOOK else "–"

    @admin.display(description="state")
    def state(self, obj):
        if obj.paused:
            return format_html(
                '<strong class="alert-paused">paused since {}</strong>: {}. Send a test alert'
                " to resume it.",
                moment_shown(obj.paused_at),
                obj.paused_reason,
            )
        if obj.failed_in_a_row:
            return f"failing: {counted(obj.failed_in_a_row, 'attempt')} in a row"
        return "ok"

    @admin.display(description="last delivered")
    def last_success(self, obj):
        return moment_shown(obj.last_success_at) if obj.last_success_at else "never"

    @admin.display(description="last test alert")
    def last_test(self, obj):
        return moment_shown(obj.tested_at) if obj.tested_at else "never"

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.action(description="Send a test alert", permissions=["test"])
    def send_test(self, request, queryset):
        for destination in queryset:
            alert_test_send(destination=destination)
        log = reverse("admin:alerts_delivery_changelist")
        self.message_user(
            request,
            format_html(
                "Test alert handed to the worker for {}: its answer is in the"
                ' <a href="{}">delivery log</a>.',
                counted(len(queryset), "destination"),
                log,
            ),
            messages.SUCCESS,
        )

    def has_test_permission(self, request):
        return request.user.has_perm("alerts.test_destination")


class RuleForm(forms.ModelForm):
    class Meta:
        model = Rule
        fields = [
            "name",
            "event",
            "destinations",
            "enabled",
            "min_agents",
            "min_failures",
            "within_minutes",
            "window_minutes",
        ]
        widgets = {"destinations": forms.CheckboxSelectMultiple}

    def clean(self):
        super().clean()
        data = self.cleaned_data
        new_pattern = data.get("event") == Rule.Event.NEW_PATTERN
        if new_pattern and not (data.get("min_agents") or data.get("min_failures")):
            self.add_error(
                "min_agents", "A new-pattern rule needs a number of agents, of failures, or both."
            )
        return data


@admin.register(Rule)
class RuleAdmin(GuardedAdmin):
    form = RuleForm
    list_display = ["name", "event", "to", "threshold", "window_minutes", "enabled"]
    list_filter = ["event", "enabled"]
    fieldsets = [
        (None, {"fields": ["name", "event", "destinations", "enabled"]}),
        (
            "Only for a new pattern: first seen in the last 24 hours, and within the minutes below"
            " met by at least this many agents or failing this many times",
            {"fields": ["min_agents", "min_failures", "within_minutes"]},
        ),
        (None, {"fields": ["window_minutes"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("destinations")

    @admin.display(description="to")
    def to(self, obj):
        return ", ".join(destination.name for destination in obj.destinations.all()) or "–"

    @admin.display(description="threshold")
    def threshold(self, obj):
        if obj.event != Rule.Event.NEW_PATTERN:
            return "–"
        parts = []
        if obj.min_agents:
            parts.append(counted(obj.min_agents, "agent"))
        if obj.min_failures:
            parts.append(counted(obj.min_failures, "failure"))
        return f"{' or '.join(parts)} in {counted(obj.within_minutes, 'minute')}"

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


# The delivery log's page: the alert, where it went and what came back.
_LOG_FIELDS = [
    "alert_title",
    "alert_text",
    "alert_link",
    "destination",
    "message_id",
    "status",
    "attempts",
    "last_attempt_at",
    "last_status",
    "last_answer",
    "next_attempt_at",
    "delivered_at",
    "created_at",
]


@admin.register(Delivery)
class DeliveryAdmin(ReadOnlyAdmin):
    """The delivery log: every alert to every destination, newest first."""

    list_display = [
        "created_at",
        "alert_title",
        "destination",
        "status",
        "attempts",
        "last_status",
        "answer_short",
        "next_attempt_at",
    ]
    list_filter = ["status", "destination", "alert__event"]
    list_select_related = ["alert", "destination"]
    ordering = ["-created_at", "-id"]
    fields = tuple(_LOG_FIELDS)
    readonly_fields = _LOG_FIELDS

    def has_delete_permission(self, request, obj=None):
        # An administrator deleting a destination deletes its log with it.
        return request.user.is_superuser

    @admin.display(description="alert", ordering="alert__title")
    def alert_title(self, obj):
        return shortened(obj.alert.title, 90)

    @admin.display(description="text")
    def alert_text(self, obj):
        return obj.alert.text

    @admin.display(description="explained at")
    def alert_link(self, obj):
        return format_html('<a href="{}">{}</a>', obj.alert.link, obj.alert.link)

    @admin.display(description="last answer")
    def answer_short(self, obj):
        return shortened(obj.last_answer, 60) or "–"
