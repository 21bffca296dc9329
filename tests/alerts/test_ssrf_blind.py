"""Blind cases for the address check of outgoing webhook alerts (server-side request forgery).

These cases were written blind: from known SSRF payload formats and address ranges (loopback,
private, link-local and cloud metadata, carrier-grade NAT, reserved and documentation ranges,
IPv4-mapped/compatible/NAT64/6to4 forms, decimal/hex/octal/short spellings, userinfo and
fragment tricks, IDN and percent-encoding, non-https schemes, DNS names that resolve to private
addresses, DNS rebinding), without reading the check's code. They rely only on the contract of
``alerts.sending``: ``post``, ``address_checked``, ``public`` and ``Refused``.

The machine has no internet access, so names are "resolved" by a fake system resolver
(``_socket.getaddrinfo`` patched, so both ``socket.getaddrinfo`` and a ``from socket import
getaddrinfo`` see it) for a few ``*.rebind.test`` names; every other name goes to the real
resolver. Connections are blocked and recorded by a guard, so a refused case proves that
nothing was sent, and a case the check wrongly lets through fails fast instead of hanging.
"""

import _socket
import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from alerts.sending import Refused, address_checked, post, public

BODY = b'{"type": "alert.test", "data": {}}'
HEADERS = {"Content-Type": "application/json"}

PUBLIC_V4 = "93.184.216.34"
PUBLIC_V6 = "2606:2800:220:1:248:1893:25c8:1946"

# What the fake resolver answers (lower-case name, no trailing dot -> addresses).
FAKE_DNS = {
    "public.rebind.test": [PUBLIC_V4],
    "public6.rebind.test": [PUBLIC_V6],
    "internal.rebind.test": ["10.0.0.5"],
    "metadata.rebind.test": ["169.254.169.254"],
    "mixed.rebind.test": [PUBLIC_V4, "127.0.0.1"],
    "mixed6.rebind.test": [PUBLIC_V4, "::1"],
    "v6loop.rebind.test": ["::1"],
    "mapped.rebind.test": ["::ffff:169.254.169.254"],
    "nat64.rebind.test": ["64:ff9b::a00:1"],
    "ula.rebind.test": ["fd00:ec2::254"],
    "cgnat.rebind.test": ["100.64.1.1"],
    "zero.rebind.test": ["0.0.0.0"],
}
# Answers a public address the first time it is asked, the loopback after (DNS rebinding).
FLIP = "flip.rebind.test"

# Connections the guard lets through: the test servers (PostgreSQL, Redis) only.
INFRASTRUCTURE_PORTS = {5432, 6379}


@pytest.fixture(autouse=True)
def fake_resolver(monkeypatch):
    real = _socket.getaddrinfo
    asked = {FLIP: 0}

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode("ascii", "replace") if isinstance(host, bytes) else host
        key = name.rstrip(".").lower() if isinstance(name, str) else name
        if key == FLIP:
            asked[FLIP] += 1
            addresses = [PUBLIC_V4] if asked[FLIP] == 1 else ["127.0.0.1"]
        elif key in FAKE_DNS:
            addresses = FAKE_DNS[key]
        else:
            return real(host, port, family, type, proto, flags)
        if port is None:
            number = 0
        elif isinstance(port, int):
            number = port
        else:
            port = port.decode() if isinstance(port, bytes) else port
            number = int(port) if port.isdigit() else socket.getservbyname(port, "tcp")
        results = []
        for address in addresses:
            v6 = ":" in address
            fam = socket.AF_INET6 if v6 else socket.AF_INET
            if family not in (0, socket.AF_UNSPEC, fam):
                continue
            sockaddr = (address, number, 0, 0) if v6 else (address, number)
            results.append((fam, type or socket.SOCK_STREAM, proto or 6, "", sockaddr))
        if not results:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return results

    monkeypatch.setattr(_socket, "getaddrinfo", getaddrinfo)
    return asked


@pytest.fixture
def attempts(monkeypatch):
    """Every connection tried (other than to the test servers), each blocked."""
    tried = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def infrastructure(address) -> bool:
        return not isinstance(address, tuple) or address[1] in INFRASTRUCTURE_PORTS

    def connect(sock, address):
        if infrastructure(address):
            return real_connect(sock, address)
        tried.append(address)
        raise ConnectionRefusedError(f"test guard: blocked a connection to {address!r}")

    def connect_ex(sock, address):
        if infrastructure(address):
            return real_connect_ex(sock, address)
        tried.append(address)
        return 111  # ECONNREFUSED

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    return tried


@pytest.fixture
def strict(settings):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = False


@pytest.fixture
def lenient(settings):
    settings.HINDSIGHT_ALERT_PRIVATE_URLS = True


REFUSED_URLS = [
    # Schemes other than https, and URLs with no host (to public literals, to isolate the rule).
    pytest.param("http://8.8.8.8/hook", id="http-scheme-public-ip"),
    pytest.param("HTTP://8.8.8.8/hook", id="http-scheme-uppercase"),
    pytest.param("http://127.0.0.1/hook", id="http-scheme-loopback"),
    pytest.param("ftp://8.8.8.8/hook", id="ftp-scheme"),
    pytest.param("file:///etc/passwd", id="file-scheme"),
    pytest.param("file://localhost/etc/passwd", id="file-scheme-localhost"),
    pytest.param("gopher://127.0.0.1:6379/_INFO%0d%0a", id="gopher-redis"),
    pytest.param("dict://127.0.0.1:11211/stat", id="dict-memcached"),
    pytest.param("ldap://127.0.0.1/", id="ldap-scheme"),
    pytest.param("javascript:alert(1)", id="javascript-scheme"),
    pytest.param("data:text/plain,hello", id="data-scheme"),
    pytest.param("wss://8.8.8.8/hook", id="wss-scheme"),
    pytest.param("//8.8.8.8/hook", id="scheme-relative"),
    pytest.param("8.8.8.8/hook", id="no-scheme"),
    pytest.param("https:/8.8.8.8/hook", id="single-slash-no-host"),
    pytest.param("https:8.8.8.8", id="no-slashes-no-host"),
    pytest.param("https://", id="empty-host"),
    pytest.param("https:///hook", id="empty-host-with-path"),
    pytest.param("", id="empty-url"),
    # The loopback, spelled every way.
    pytest.param("https://127.0.0.1/hook", id="loopback"),
    pytest.param("https://127.0.0.1:443/hook", id="loopback-port-443"),
    pytest.param("https://127.0.0.1:8443/admin", id="loopback-other-port"),
    pytest.param("https://127.0.0.2/hook", id="loopback-127-8-not-just-1"),
    pytest.param("https://127.255.255.254/hook", id="loopback-top-of-range"),
    pytest.param("https://localhost/hook", id="localhost"),
    pytest.param("https://LOCALHOST/hook", id="localhost-uppercase"),
    pytest.param("https://LocalHost:443/hook", id="localhost-mixed-case-port"),
    pytest.param("https://localhost./hook", id="localhost-trailing-dot"),
    pytest.param("https://127.0.0.1./hook", id="loopback-trailing-dot"),
    pytest.param("https://2130706433/hook", id="loopback-decimal"),
    pytest.param("https://0x7f000001/hook", id="loopback-hex"),
    pytest.param("https://0x7F.0x0.0x0.0x1/hook", id="loopback-hex-dotted"),
    pytest.param("https://0x7f.1/hook", id="loopback-hex-short"),
    pytest.param("https://0177.0.0.1/hook", id="loopback-octal"),
    pytest.param("https://0177.0000.0000.0001/hook", id="loopback-octal-padded"),
    pytest.param("https://017700000001/hook", id="loopback-octal-whole"),
    pytest.param("https://127.000.000.001/hook", id="loopback-zero-padded"),
    pytest.param("https://127.1/hook", id="loopback-short-two-parts"),
    pytest.param("https://127.0.1/hook", id="loopback-short-three-parts"),
    pytest.param("https://[::1]/hook", id="ipv6-loopback"),
    pytest.param("https://[::1]:443/hook", id="ipv6-loopback-port"),
    pytest.param("https://[0:0:0:0:0:0:0:1]/hook", id="ipv6-loopback-long"),
    pytest.param("https://[::ffff:127.0.0.1]/hook", id="ipv4-mapped-loopback-dotted"),
    pytest.param("https://[::ffff:7f00:1]/hook", id="ipv4-mapped-loopback-hex"),
    pytest.param("https://[0:0:0:0:0:ffff:127.0.0.1]:8443/", id="ipv4-mapped-loopback-long"),
    pytest.param("https://[::127.0.0.1]/hook", id="ipv4-compatible-loopback"),
    pytest.param("https://[64:ff9b::7f00:1]/hook", id="nat64-loopback"),
    # Unspecified / this network.
    pytest.param("https://0.0.0.0/hook", id="unspecified-v4"),
    pytest.param("https://0/hook", id="zero-short-form"),
    pytest.param("https://0.1.2.3/hook", id="this-network-0-8"),
    pytest.param("https://[::]/hook", id="unspecified-v6"),
    # Userinfo, fragment, query and backslash tricks that put the real host after a decoy.
    pytest.param("https://example.com@127.0.0.1/hook", id="userinfo-decoy"),
    pytest.param("https://user:pass@127.0.0.1:443/hook", id="userinfo-password"),
    pytest.param("https://8.8.8.8:443@127.0.0.1/hook", id="userinfo-looks-like-host-port"),
    pytest.param("https://8.8.8.8%40@127.0.0.1/hook", id="userinfo-encoded-at"),
    pytest.param("https://127.0.0.1#@8.8.8.8/hook", id="fragment-decoy"),
    pytest.param("https://127.0.0.1?@8.8.8.8/hook", id="query-decoy"),
    pytest.param("https://127.0.0.1\\@8.8.8.8/hook", id="backslash-parser-differential"),
    pytest.param(" https://127.0.0.1/hook", id="leading-space"),
    pytest.param("https://127.0.0.1:65536/hook", id="loopback-out-of-range-port"),
    # Percent-encoding and IDN spellings of the loopback.
    pytest.param("https://%31%32%37.0.0.1/hook", id="percent-encoded-host"),
    pytest.param("https://%6c%6f%63%61%6c%68%6f%73%74/hook", id="percent-encoded-localhost"),
    pytest.param(
        "https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/", id="fullwidth"
    ),
    pytest.param("https://127\u30020\u30020\u30021/hook", id="ideographic-full-stops"),
    pytest.param("https://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460/hook", id="enclosed-digits"),
    # Link-local and cloud metadata.
    pytest.param("https://169.254.169.254/latest/meta-data/", id="aws-metadata"),
    pytest.param("https://169.254.169.254:443/computeMetadata/v1/", id="gcp-metadata-ip"),
    pytest.param("https://[fd00:ec2::254]/latest/meta-data/", id="aws-metadata-ipv6"),
    pytest.param("https://2852039166/latest/meta-data/", id="metadata-decimal"),
    pytest.param("https://0xa9fea9fe/latest/meta-data/", id="metadata-hex"),
    pytest.param("https://0251.0376.0251.0376/latest/", id="metadata-octal"),
    pytest.param("https://169.254.43518/latest/meta-data/", id="metadata-short-form"),
    pytest.param("https://[::ffff:169.254.169.254]/latest/", id="metadata-ipv4-mapped"),
    pytest.param("https://[::ffff:a9fe:a9fe]/latest/", id="metadata-ipv4-mapped-hex"),
    pytest.param("https://169.254.0.1/hook", id="link-local-v4"),
    pytest.param("https://[fe80::1]/hook", id="link-local-v6"),
    pytest.param("https://[fe80::1%25eth0]/hook", id="link-local-v6-zone"),
    pytest.param("https://metadata.google.internal/computeMetadata/v1/", id="gcp-metadata-name"),
    # Private, shared and reserved IPv4 ranges.
    pytest.param("https://10.0.0.1/hook", id="rfc1918-10"),
    pytest.param("https://10.255.255.255/hook", id="rfc1918-10-top"),
    pytest.param("https://172.16.0.1/hook", id="rfc1918-172-16"),
    pytest.param("https://172.31.255.254/hook", id="rfc1918-172-31"),
    pytest.param("https://192.168.0.1/hook", id="rfc1918-192-168"),
    pytest.param("https://192.168.1.1:8443/hook", id="rfc1918-192-168-port"),
    pytest.param("https://167772161/hook", id="rfc1918-decimal-10-0-0-1"),
    pytest.param("https://100.64.0.1/hook", id="cgnat-bottom"),
    pytest.param("https://100.127.255.254/hook", id="cgnat-top"),
    pytest.param("https://198.18.0.1/hook", id="benchmark-198-18"),
    pytest.param("https://198.19.255.254/hook", id="benchmark-198-19"),
    pytest.param("https://192.0.0.1/hook", id="ietf-protocol-192-0-0"),
    pytest.param("https://192.0.2.10/hook", id="test-net-1"),
    pytest.param("https://198.51.100.7/hook", id="test-net-2"),
    pytest.param("https://203.0.113.9/hook", id="test-net-3"),
    pytest.param("https://224.0.0.1/hook", id="multicast-v4"),
    pytest.param("https://239.255.255.250/hook", id="multicast-ssdp"),
    pytest.param("https://240.0.0.1/hook", id="reserved-240-4"),
    pytest.param("https://255.255.255.255/hook", id="broadcast"),
    # Private and special IPv6 ranges.
    pytest.param("https://[fc00::1]/hook", id="ula-fc00"),
    pytest.param("https://[fd12:3456:789a::1]/hook", id="ula-fd"),
    pytest.param("https://[FD00:EC2::254]/hook", id="ula-uppercase"),
    pytest.param("https://[ff02::1]/hook", id="multicast-v6"),
    pytest.param("https://[2001:db8::1]/hook", id="documentation-v6"),
    pytest.param("https://[::ffff:10.0.0.1]/hook", id="ipv4-mapped-private"),
    pytest.param("https://[::ffff:a00:1]/hook", id="ipv4-mapped-private-hex"),
    pytest.param("https://[64:ff9b::a00:1]/hook", id="nat64-private"),
    pytest.param("https://[64:ff9b::a9fe:a9fe]/hook", id="nat64-metadata"),
    pytest.param("https://[2002:7f00:1::1]/hook", id="6to4-loopback"),
    # Names that resolve to non-public addresses (fake resolver), or not at all.
    pytest.param("https://internal.rebind.test/hook", id="name-to-private"),
    pytest.param("https://INTERNAL.rebind.TEST./hook", id="name-to-private-case-dot"),
    pytest.param("https://metadata.rebind.test/latest/", id="name-to-metadata"),
    pytest.param("https://mixed.rebind.test/hook", id="name-public-and-loopback"),
    pytest.param("https://mixed6.rebind.test/hook", id="name-public-v4-loopback-v6"),
    pytest.param("https://v6loop.rebind.test/hook", id="name-aaaa-loopback"),
    pytest.param("https://mapped.rebind.test/hook", id="name-to-mapped-metadata"),
    pytest.param("https://nat64.rebind.test/hook", id="name-to-nat64-private"),
    pytest.param("https://ula.rebind.test/hook", id="name-to-ula"),
    pytest.param("https://cgnat.rebind.test/hook", id="name-to-cgnat"),
    pytest.param("https://zero.rebind.test/hook", id="name-to-0-0-0-0"),
    pytest.param("https://example.com@internal.rebind.test/hook", id="userinfo-name-private"),
    pytest.param("https://127.0.0.1.nip.io/hook", id="wildcard-dns-nip-io"),
    pytest.param("https://localtest.me/hook", id="wildcard-dns-localtest"),
    pytest.param("https://does-not-exist.invalid/hook", id="unresolvable-name"),
]


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_post_refuses(url, strict, attempts):
    with pytest.raises(Refused) as refused:
        post(url, BODY, HEADERS)
    assert isinstance(refused.value, Exception)
    assert str(refused.value), "the refusal says why"
    assert attempts == [], "nothing is sent for a refused URL"


PUBLIC_ANSWERS = [
    # Public unicast.
    pytest.param("8.8.8.8", True, id="google-dns"),
    pytest.param("1.1.1.1", True, id="cloudflare-dns"),
    pytest.param("93.184.216.34", True, id="example-com"),
    pytest.param("2606:4700:4700::1111", True, id="cloudflare-v6"),
    pytest.param("2001:4860:4860::8888", True, id="google-v6"),
    pytest.param("2a00:1450:4001:80b::200e", True, id="public-v6-2a00"),
    # Range boundaries: the address just outside a non-public range is public.
    pytest.param("9.255.255.255", True, id="below-10-8"),
    pytest.param("10.0.0.0", False, id="10-8-bottom"),
    pytest.param("10.255.255.255", False, id="10-8-top"),
    pytest.param("11.0.0.0", True, id="above-10-8"),
    pytest.param("100.63.255.255", True, id="below-cgnat"),
    pytest.param("100.64.0.0", False, id="cgnat-bottom"),
    pytest.param("100.127.255.255", False, id="cgnat-top"),
    pytest.param("100.128.0.0", True, id="above-cgnat"),
    pytest.param("126.255.255.255", True, id="below-loopback"),
    pytest.param("127.0.0.0", False, id="loopback-bottom"),
    pytest.param("127.0.0.1", False, id="loopback"),
    pytest.param("127.255.255.255", False, id="loopback-top"),
    pytest.param("128.0.0.0", True, id="above-loopback"),
    pytest.param("169.253.255.255", True, id="below-link-local"),
    pytest.param("169.254.0.0", False, id="link-local-bottom"),
    pytest.param("169.254.169.254", False, id="metadata"),
    pytest.param("169.254.255.255", False, id="link-local-top"),
    pytest.param("169.255.0.0", True, id="above-link-local"),
    pytest.param("172.15.255.255", True, id="below-172-16"),
    pytest.param("172.16.0.0", False, id="172-16-bottom"),
    pytest.param("172.31.255.255", False, id="172-16-top"),
    pytest.param("172.32.0.0", True, id="above-172-16"),
    pytest.param("192.167.255.255", True, id="below-192-168"),
    pytest.param("192.168.0.0", False, id="192-168-bottom"),
    pytest.param("192.168.255.255", False, id="192-168-top"),
    pytest.param("192.169.0.0", True, id="above-192-168"),
    pytest.param("198.17.255.255", True, id="below-benchmark"),
    pytest.param("198.18.0.0", False, id="benchmark-bottom"),
    pytest.param("198.19.255.255", False, id="benchmark-top"),
    pytest.param("198.20.0.0", True, id="above-benchmark"),
    pytest.param("223.255.255.1", True, id="below-multicast"),
    pytest.param("224.0.0.0", False, id="multicast-bottom"),
    pytest.param("239.255.255.255", False, id="multicast-top"),
    pytest.param("240.0.0.1", False, id="reserved-240-4"),
    pytest.param("255.255.255.255", False, id="broadcast"),
    # Other special IPv4.
    pytest.param("0.0.0.0", False, id="unspecified-v4"),
    pytest.param("0.255.255.255", False, id="this-network-top"),
    pytest.param("192.0.0.1", False, id="ietf-protocol-assignments"),
    pytest.param("192.0.2.1", False, id="test-net-1"),
    pytest.param("198.51.100.1", False, id="test-net-2"),
    pytest.param("203.0.113.1", False, id="test-net-3"),
    # IPv6 special ranges.
    pytest.param("::1", False, id="v6-loopback"),
    pytest.param("0:0:0:0:0:0:0:1", False, id="v6-loopback-long"),
    pytest.param("::", False, id="v6-unspecified"),
    pytest.param("fe80::1", False, id="v6-link-local"),
    pytest.param("fe80::1%eth0", False, id="v6-link-local-zone"),
    pytest.param("fe80::1%1", False, id="v6-link-local-numeric-zone"),
    pytest.param("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", False, id="v6-link-local-top"),
    pytest.param("fec0::1", False, id="v6-site-local-deprecated"),
    pytest.param("fc00::", False, id="ula-bottom"),
    pytest.param("fd00:ec2::254", False, id="aws-metadata-v6"),
    pytest.param("FD00:EC2::254", False, id="aws-metadata-v6-uppercase"),
    pytest.param("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", False, id="ula-top"),
    pytest.param("ff02::1", False, id="v6-multicast-link"),
    pytest.param("ff0e::1", False, id="v6-multicast-global-scope"),
    pytest.param("2001:db8::1", False, id="v6-documentation"),
    pytest.param("3fff::1", False, id="v6-documentation-3fff-rfc9637"),
    pytest.param("100::1", False, id="v6-discard-only"),
    pytest.param("2001:10::1", False, id="v6-orchid"),
    pytest.param("2001:0:4136:e378:8000:63bf:3fff:fdd2", False, id="teredo"),
    # IPv6 forms that embed a non-public IPv4.
    pytest.param("::ffff:127.0.0.1", False, id="mapped-loopback"),
    pytest.param("::ffff:7f00:1", False, id="mapped-loopback-hex"),
    pytest.param("0:0:0:0:0:ffff:7f00:0001", False, id="mapped-loopback-long"),
    pytest.param("::ffff:10.0.0.1", False, id="mapped-private"),
    pytest.param("::ffff:169.254.169.254", False, id="mapped-metadata"),
    pytest.param("::ffff:100.64.0.1", False, id="mapped-cgnat"),
    pytest.param("::ffff:0:7f00:1", False, id="siit-translated-loopback"),
    pytest.param("::127.0.0.1", False, id="compatible-loopback"),
    pytest.param("::10.0.0.1", False, id="compatible-private"),
    pytest.param("64:ff9b::a00:1", False, id="nat64-private"),
    pytest.param("64:ff9b::7f00:1", False, id="nat64-loopback"),
    pytest.param("64:ff9b::a9fe:a9fe", False, id="nat64-metadata"),
    pytest.param("64:ff9b:1::a00:1", False, id="nat64-local-use-prefix"),
    pytest.param("2002:7f00:1::1", False, id="6to4-loopback"),
    pytest.param("2002:a00:1::1", False, id="6to4-private"),
]


@pytest.mark.parametrize(("address", "expected"), PUBLIC_ANSWERS)
def test_public(address, expected):
    assert public(address) is expected


ADDRESS_REFUSED = [
    pytest.param("127.0.0.1", id="loopback"),
    pytest.param("localhost", id="localhost"),
    pytest.param("LOCALHOST", id="localhost-uppercase"),
    pytest.param("::1", id="v6-loopback"),
    pytest.param("[::1]", id="bracketed-v6-loopback"),
    pytest.param("2130706433", id="decimal"),
    pytest.param("0x7f000001", id="hex"),
    pytest.param("0177.0.0.1", id="octal"),
    pytest.param("127.1", id="short"),
    pytest.param("0", id="zero"),
    pytest.param("0.0.0.0", id="unspecified"),
    pytest.param("::ffff:127.0.0.1", id="mapped-loopback"),
    pytest.param("169.254.169.254", id="metadata"),
    pytest.param("fd00:ec2::254", id="aws-metadata-v6"),
    pytest.param("fe80::1%1", id="link-local-zone"),
    pytest.param("10.1.2.3", id="private"),
    pytest.param("100.64.0.1", id="cgnat"),
    pytest.param("internal.rebind.test", id="name-to-private"),
    pytest.param("mixed.rebind.test", id="name-public-and-loopback"),
    pytest.param("mixed6.rebind.test", id="name-public-v4-loopback-v6"),
    pytest.param("nat64.rebind.test", id="name-to-nat64-private"),
    pytest.param("does-not-exist.invalid", id="unresolvable"),
    pytest.param("", id="empty-host"),
]


@pytest.mark.parametrize("host", ADDRESS_REFUSED)
def test_address_checked_refuses(host, strict, attempts):
    with pytest.raises(Refused):
        address_checked(host, 443)
    assert attempts == []


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param("1.1.1.1", "1.1.1.1", id="public-v4-literal"),
        pytest.param("8.8.8.8", "8.8.8.8", id="public-v4-literal-google"),
        pytest.param("2606:4700:4700::1111", "2606:4700:4700::1111", id="public-v6-literal"),
        pytest.param("public.rebind.test", PUBLIC_V4, id="name-to-public-v4"),
        pytest.param("public6.rebind.test", PUBLIC_V6, id="name-to-public-v6"),
    ],
)
def test_address_checked_allows_public(host, expected, strict):
    assert address_checked(host, 443) == expected


def test_address_checked_rebinding_returns_the_checked_address(strict, fake_resolver):
    """A name that answers a public address, then the loopback: what is returned is the
    address that was checked (or the name is refused), never the loopback."""
    try:
        address = address_checked(FLIP, 443)
    except Refused:
        return
    assert address == PUBLIC_V4


def test_post_rebinding_connects_only_to_the_checked_address(strict, attempts):
    """DNS rebinding between the check and the connection: the name answers a public address
    to the first question and the loopback after. The connection must go to the checked
    address (the guard blocks it), never to the loopback."""
    with contextlib.suppress(Exception):  # the guard blocks the connection
        post(f"https://{FLIP}/hook", BODY, HEADERS)
    hosts = {attempt[0] for attempt in attempts}
    assert not hosts & {"127.0.0.1", "::1", "::ffff:127.0.0.1"}, attempts


def test_post_public_name_is_not_refused(strict, attempts):
    """A name resolving to a public address passes the check: the connection is tried (to
    that address; the guard blocks it), and the failure is not a refusal."""
    try:
        post("https://public.rebind.test/hook", BODY, HEADERS)
    except Refused as refused:
        pytest.fail(f"a public address was refused: {refused}")
    except Exception:  # the guard blocks the connection
        pass
    assert attempts, "the connection was tried"
    assert {attempt[0] for attempt in attempts} == {PUBLIC_V4}


# With HINDSIGHT_ALERT_PRIVATE_URLS, private addresses and http are allowed.


@pytest.mark.parametrize(
    ("host", "port", "expected"),
    [
        pytest.param("127.0.0.1", 8080, {"127.0.0.1"}, id="loopback"),
        pytest.param("10.0.0.1", 443, {"10.0.0.1"}, id="private"),
        pytest.param("169.254.169.254", 80, {"169.254.169.254"}, id="link-local"),
        pytest.param("::1", 443, {"::1"}, id="v6-loopback"),
        pytest.param("localhost", 8080, {"127.0.0.1", "::1"}, id="localhost"),
        pytest.param("internal.rebind.test", 443, {"10.0.0.5"}, id="name-to-private"),
    ],
)
def test_address_checked_allows_private_when_set(host, port, expected, lenient):
    assert address_checked(host, port) in expected


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.server.received.append((self.path, self.rfile.read(length)))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def loopback_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_post_http_loopback_allowed_when_set(host, lenient, loopback_server):
    port = loopback_server.server_address[1]
    post(f"http://{host}:{port}/hooks/blind", BODY, HEADERS)
    assert loopback_server.received == [("/hooks/blind", BODY)]
