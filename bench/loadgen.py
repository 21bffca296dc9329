"""A bounded HTTP load for one endpoint, from a few client processes, over loopback only.

Each client process sends its share of a fixed list of requests one after another (so the
concurrency is the number of processes), over ``http.client`` (it keeps the connection alive
when the server does, and reconnects when the server closes it, as gunicorn's sync workers do).
A request is timed on the client, and the server's own time is read from its
``Server-Timing: app;dur=<ms>`` header. Bounded twice: by the number of paths and by a deadline.
A request is a path (a GET) or a ``(path, body)`` pair: a POST of that JSON body (bytes); a
``(path, body, content type)`` triple posts another encoding.
"""

import http.client
import math
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

HOST = "127.0.0.1"  # loopback only, whatever the caller passes
_APP_DUR = re.compile(r"\bapp;dur=([0-9.]+)")


@dataclass
class Result:
    requests: int
    errors: int  # non-2xx answers and broken connections
    wall_s: float
    server_ms: list[float]
    client_ms: list[float]
    statuses: dict

    @property
    def rate(self) -> float:
        return self.requests / self.wall_s if self.wall_s else 0.0


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _send(conn: http.client.HTTPConnection, request, headers: dict) -> None:
    """A path is a GET; a (path, body) pair a POST of that JSON body, and a (path, body,
    content type) triple a POST of that body."""
    if isinstance(request, str):
        conn.request("GET", request, headers=headers)
    else:
        path, body, content_type = request if len(request) == 3 else (*request, "application/json")
        conn.request("POST", path, body=body, headers={**headers, "Content-Type": content_type})


def _client(args) -> tuple:
    port, token, paths, deadline = args
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    server, client, statuses, errors = [], [], {}, 0
    started = time.monotonic()
    for path in paths:
        if time.monotonic() > deadline:
            break
        t0 = time.perf_counter()
        try:
            _send(conn, path, headers)
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            errors += 1
            statuses["conn-error"] = statuses.get("conn-error", 0) + 1
            continue
        client.append((time.perf_counter() - t0) * 1000)
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if not 200 <= response.status < 300:
            errors += 1
        found = _APP_DUR.search(response.getheader("Server-Timing") or "")
        if found:
            server.append(float(found.group(1)))
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
    conn.close()
    return started, time.monotonic(), server, client, statuses, errors


class LoadRunner:
    """A pool of ``concurrency`` client processes, reused for every endpoint."""

    def __init__(self, *, port: int, token: str, concurrency: int):
        self.port, self.token, self.concurrency = port, token, concurrency
        self.pool = ProcessPoolExecutor(max_workers=concurrency)

    def run(self, paths: list, *, time_limit_s: float) -> Result:
        """Send every request (split round-robin over the clients) or stop at the time limit."""
        deadline = time.monotonic() + time_limit_s
        shares = [paths[i :: self.concurrency] for i in range(self.concurrency)]
        parts = list(
            self.pool.map(_client, [(self.port, self.token, s, deadline) for s in shares])
        )
        statuses: dict = {}
        for part in parts:
            for status, n in part[4].items():
                statuses[status] = statuses.get(status, 0) + n
        return Result(
            requests=sum(len(p[3]) for p in parts) + sum(p[4].get("conn-error", 0) for p in parts),
            errors=sum(p[5] for p in parts),
            wall_s=max(p[1] for p in parts) - min(p[0] for p in parts),
            server_ms=[v for p in parts for v in p[2]],
            client_ms=[v for p in parts for v in p[3]],
            statuses=statuses,
        )

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def load_options(
    parser, *, time_limit: float, redis_db: int, seed: int, writes: bool = False
) -> None:
    """The load options every HTTP bench takes, with its own defaults: how many requests (and,
    with ``writes``, single and bulk writes and their event ids), client processes, gunicorn
    workers, the time limit per endpoint, its Redis database and its random seed."""
    parser.add_argument("--requests", type=int, default=2_000, help="measured, per read endpoint")
    parser.add_argument("--warmup", type=int, default=200, help="per read endpoint, not measured")
    if writes:
        parser.add_argument("--single-requests", type=int, default=1_000)
        parser.add_argument("--bulk-requests", type=int, default=40)
        parser.add_argument(
            "--bulk-size", type=int, default=1_000, help="outcomes per bulk request"
        )
        parser.add_argument("--write-warmup", type=int, default=4, help="bulk (x25 for single)")
        parser.add_argument(
            "--event-ids",
            choices=("v7", "v4"),
            default="v7",
            help="the writes' event ids: time-ordered as the client makes them "
            "(v7), or random (v4, as an agent that draws its own may)",
        )
    parser.add_argument("--concurrency", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--time-limit", type=float, default=time_limit, help="seconds per endpoint"
    )
    parser.add_argument("--redis-url", default=f"redis://127.0.0.1:6379/{redis_db}")
    parser.add_argument("--seed", type=int, default=seed)
