"""A real HTTP receiver on the loopback for alert deliveries, and destinations that point at it
(the loopback is reached only with HINDSIGHT_ALERT_PRIVATE_URLS, which these fixtures set)."""

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from alerts.models import Alert, Delivery, Destination, Rule


@dataclass
class Received:
    path: str
    headers: dict
    body: str


@dataclass
class Receiver:
    """Answers each POST with the next of ``statuses`` (the last one repeats), after ``delay``
    seconds, with ``body``; keeps what it received."""

    url: str
    statuses: list[int] = field(default_factory=lambda: [200])
    delay: float = 0.0
    body: bytes = b"ok"
    headers: dict = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def answer(self) -> int:
        return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


def receiver_start() -> tuple[Receiver, ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    receiver = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}/hooks/hindsight")
    server.receiver = receiver  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver, server


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        receiver = self.server.receiver
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length).decode()
        receiver.received.append(Received(self.path, dict(self.headers), body))
        time.sleep(receiver.delay)
        status = receiver.answer()
        try:
            self.send_response(status)
            for name, value in receiver.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(receiver.body)))
            self.end_headers()
            self.wfile.write(receiver.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the sender gave up waiting (a timeout test)

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver(settings):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = True
    started, server = receiver_start()
    yield started
    server.shutdown()
    server.server_close()


@pytest.fixture
def webhook(receiver, db) -> Destination:
    return Destination.objects.create(
        name="on-call webhook", kind=Destination.Kind.WEBHOOK, url=receiver.url
    )


def rule_to(destination: Destination, event: str = Rule.Event.NEW_PATTERN, **fields) -> Rule:
    values = {"min_agents": 3, "within_minutes": 15, "window_minutes": 60, **fields}
    rule = Rule.objects.create(name=f"{event} to {destination.name}", event=event, **values)
    rule.destinations.add(destination)
    return rule


def alert_rows():
    """A destination, a rule sending to it, and one delivery of an alert (the log)."""
    destination = Destination.objects.create(
        name="matrix hook", kind="webhook", url="https://hooks.example.com/matrix"
    )
    rule = Rule.objects.create(name="matrix rule", event="regression")
    rule.destinations.add(destination)
    alert = Alert.objects.create(
        rule=rule,
        event="regression",
        subject="regression:1",
        title="Regression",
        text="text",
        link="/admin/",
        raised_at=timezone.now(),
    )
    return destination, rule, Delivery.objects.create(alert=alert, destination=destination)
