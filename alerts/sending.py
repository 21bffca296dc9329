"""Sending one alert to one destination: the message each kind takes, and an HTTP POST that goes
only where it may.

A webhook or Slack URL is checked at every delivery, on the address its name resolves to then
(not when it was saved: a name can be pointed elsewhere later): it must be https and every
address of its host public (no loopback, private, link-local, shared or reserved range), unless
``HINDSIGHT_ALERT_PRIVATE_URLS`` allows plain http and such addresses (a receiver inside your own
network). The connection goes to the address that was checked, so a second lookup cannot lead
elsewhere; redirects are not followed; connecting and each read time out after a few seconds;
and at most ANSWER_BYTES of an answer are read.
"""

import http.client
import ipaddress
import json
import logging
import socket
import ssl
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import send_mail
from standardwebhooks import Webhook

from config.scrubbing import scrub_text

from .models import Alert, Delivery, Destination

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 5
ANSWER_BYTES = 2048
# How much of an answer the delivery log keeps.
ANSWER_KEPT = 500


class Refused(Exception):
    """The destination may not be sent to (its URL or its address); the message says why."""


@dataclass(frozen=True)
class Answer:
    ok: bool
    status: int | None  # None: no HTTP answer (e-mail, or the error in ``text``)
    text: str


def send(delivery: Delivery, now: datetime) -> Answer:
    """Send ``delivery``'s alert to its destination once; never raises for the destination's
    failure (an error, a timeout, a refusal are answers too)."""
    alert, destination = delivery.alert, delivery.destination
    try:
        if destination.kind == Destination.Kind.EMAIL:
            return _email(alert, destination)
        if destination.kind == Destination.Kind.SLACK:
            body = json.dumps(slack_message(alert))
            return post(destination.url, body.encode(), {})
        body = json.dumps(webhook_payload(alert, now))
        return post(destination.url, body.encode(), signed(destination, delivery, body, now))
    except Refused as exc:
        return Answer(False, None, f"refused: {exc}")
    except (OSError, http.client.HTTPException) as exc:  # refused, reset, timed out, TLS, SMTP
        return Answer(False, None, _kept(f"{type(exc).__name__}: {exc}"))
    except Exception as exc:  # anything else is a defect here, but must not leave it due forever
        logger.exception("sending delivery %s failed", delivery.pk)
        return Answer(False, None, _kept(f"{type(exc).__name__}: {exc}"))


def alert_url(alert: Alert) -> str:
    return settings.HINDSIGHT_PUBLIC_URL.rstrip("/") + alert.link


def webhook_payload(alert: Alert, now: datetime) -> dict:
    """The webhook's JSON body, in the specification's envelope (type, timestamp, data)."""
    return {
        "type": f"alert.{alert.event}",
        "timestamp": now.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "data": {
            "alert_id": alert.pk,
            "event": alert.event,
            "subject": alert.subject,
            "rule": alert.rule.name if alert.rule else None,
            "title": alert.title,
            "text": alert.text,
            "url": alert_url(alert),
            "raised_at": alert.raised_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        },
    }


def signed(destination: Destination, delivery: Delivery, body: str, now: datetime) -> dict:
    """The Standard Webhooks headers: the message id (the same on every retry), the moment of
    this attempt and the HMAC-SHA256 signature over both and the body."""
    moment = now.astimezone(UTC)
    return {
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Webhook(destination.secret).sign(delivery.message_id, moment, body),
    }


def slack_message(alert: Alert) -> dict:
    """Slack's incoming-webhook message: the title linked to its page, then the text. ``&``,
    ``<`` and ``>`` are escaped as Slack asks, so no text from an agent can mention a channel
    (``<!channel>``) or make a link."""
    title, text = _slack_escaped(alert.title), _slack_escaped(alert.text)
    url = _slack_escaped(alert_url(alert))
    return {
        "text": f"{title}: {text}",
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": f"*<{url}|{title}>*\n{text}"}}
        ],
    }


def _slack_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _email(alert: Alert, destination: Destination) -> Answer:
    sent = send_mail(
        subject=" ".join(f"[Hindsight] {alert.title}".split()),  # a header: one line
        message=f"{alert.text}\n\n{alert_url(alert)}\n",
        from_email=None,
        recipient_list=destination.addresses(),
    )
    return Answer(bool(sent), None, f"sent to {len(destination.addresses())} address(es)")


def post(url: str, body: bytes, headers: dict) -> Answer:
    """POST ``body`` as JSON to ``url``, connected to the address that passed the checks."""
    parts = urlsplit(url)
    tls = parts.scheme == "https"
    if not tls and not (parts.scheme == "http" and settings.HINDSIGHT_ALERT_PRIVATE_URLS):
        raise Refused(f"{parts.scheme or 'a URL without a scheme'} is not https")
    host = parts.hostname
    if not host:
        raise Refused("the URL names no host")
    if "\\" in parts.netloc:  # parsers disagree on where such a host starts
        raise Refused("the URL's host part holds a backslash")
    try:
        port = parts.port or (443 if tls else 80)
    except ValueError as exc:  # a port out of range or not a number
        raise Refused(f"the URL's port is not one ({exc})") from exc
    connection = _Pinned(host, port, address_checked(host, port), tls)
    try:
        connection.request(
            "POST",
            (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
            body=body,
            headers={
                "Content-Type": "application/json",
                "User-Agent": "Hindsight-Alerts",
                **headers,
            },
        )
        response = connection.getresponse()
        answer = response.read(ANSWER_BYTES).decode("utf-8", "replace")
    finally:
        connection.close()
    return Answer(200 <= response.status < 300, response.status, _kept(answer))


def address_checked(host: str, port: int) -> str:
    """The address to connect to for ``host``: every address it resolves to must be public
    (unless allowed otherwise), so a name that answers with one public and one private address
    is refused too."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise Refused(f"{host} does not resolve ({exc.strerror})") from exc
    addresses = [str(info[4][0]) for info in found]
    if not settings.HINDSIGHT_ALERT_PRIVATE_URLS:
        for address in addresses:
            if not public(address):
                raise Refused(
                    f"{host} resolves to {address}, not a public address"
                    " (HINDSIGHT_ALERT_PRIVATE_URLS allows it)"
                )
    return addresses[0]


def public(address: str) -> bool:
    """Whether ``address`` is globally reachable. An IPv6 address that carries an IPv4 address
    (mapped, compatible, SIIT-translated, NAT64's well-known prefix, 6to4) is judged as the IPv4
    address it leads to; the ranges ``ipaddress`` still counts as global but are not (local-use
    NAT64, deprecated site-local, the newer documentation prefix) are refused."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in network for network in _NOT_GLOBAL_V6):
            return False
        carried = _carried_ipv4(ip)
        if carried is not None:
            ip = carried
    return ip.is_global and not ip.is_multicast


# IPv6 ranges whose last 32 bits are an IPv4 address a packet is delivered to: IPv4-compatible
# (RFC 4291), SIIT (RFC 6052's ::ffff:0:0:0/96) and NAT64's well-known prefix (RFC 6052).
_CARRYING_V6 = [ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96")]
# Not global, though ipaddress (3.11) says they are: local-use NAT64 (RFC 8215), deprecated
# site-local (RFC 3879) and the documentation prefix of RFC 9637.
_NOT_GLOBAL_V6 = [ipaddress.ip_network(n) for n in ("64:ff9b:1::/48", "fec0::/10", "3fff::/20")]


def _carried_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in _CARRYING_V6):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _kept(text: str) -> str:
    return scrub_text(text)[:ANSWER_KEPT]


class _Pinned(http.client.HTTPConnection):
    """A connection to ``host`` (its Host header and, with TLS, the name its certificate must
    carry) made to ``address``, the one that was checked."""

    def __init__(self, host: str, port: int, address: str, tls: bool):
        super().__init__(host, port, timeout=TIMEOUT_SECONDS)
        self._address = address
        self._tls = tls

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        if self._tls:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=self.host)
        self.sock = sock
