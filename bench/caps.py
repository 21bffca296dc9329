"""How long one request at each write cap takes: an OTLP export of HINDSIGHT_OTLP_MAX_SPANS
spans and a POST /outcomes/bulk of HINDSIGHT_BULK_MAX_ITEMS outcomes, each with typical items
and with items large enough to fill the body limit; beside the baseline of the same endpoint
with one item, measured in the same run. The caps are meant to keep each request within 10 s.

Run from the project root:
    .venv/bin/python bench/caps.py [--database NAME] [--runs R] [--redis-url URL]

A gunicorn of one sync worker (bench.settings, 60 s timeout) on a database of its own
(``hindsight_bench_caps``, created and migrated when missing). Typical spans are agent runs of
three nested spans (``invoke_agent`` → ``chat`` → ``execute_tool``), one run in five failing
with an exception recorded on all three (the deduplication's work); typical outcomes are one
in five failed. Large ones are each a failure of its own, a pattern not seen before, with an
error message long enough that the request reaches the body limit: the most scrubbing,
failure rows and new patterns a request can bring.
Long messages are a message followed by traceback lines. Every request has new ids. Prints each request's wall time in seconds, the median and the
worst of R runs, and whether the worst is within 10 s. It asserts nothing.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (  # noqa: E402
    ExportTraceServiceRequest,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue  # noqa: E402
from opentelemetry.proto.resource.v1.resource_pb2 import Resource  # noqa: E402
from opentelemetry.proto.trace.v1.trace_pb2 import (  # noqa: E402
    ResourceSpans,
    ScopeSpans,
    Span,
    Status,
)

from bench import datagen, outcomes_bench  # noqa: E402
from bench.messages import all_makers  # noqa: E402
from bench.server import HOST, Server, machine_lines  # noqa: E402

SETTINGS = "bench.settings"
TARGET_S = 10.0
FAILED_SHARE = 0.2  # one run, or outcome, in five fails
AGENTS = [f"agent-{n}" for n in range(20)]


def _padded(message: str, size: int, rng: random.Random) -> str:
    """``message`` after a new word (so a new pattern, the costlier path) and followed by
    traceback lines (paths, line numbers, names: many tokens for the pattern engine and the
    scrubber) up to about ``size`` characters."""
    word = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=10))  # a pattern of its own
    lines = [f"{word}: {message}"]
    length = len(lines[0])
    while length < size:
        line = (
            f'  File "/app/src/pkg_{rng.randrange(99)}/module_{rng.randrange(999)}.py", '
            f"line {rng.randrange(9999)}, in handler_{rng.randrange(999)}"
        )
        lines.append(line)
        length += len(line) + 1
    return "\n".join(lines)[:size]


def _kv(key: str, value) -> KeyValue:
    if isinstance(value, bool):
        return KeyValue(key=key, value=AnyValue(bool_value=value))
    return KeyValue(key=key, value=AnyValue(string_value=str(value)))


def _span(
    trace: bytes,
    span_id: bytes,
    parent: bytes,
    name: str,
    attrs: dict,
    end: int,
    message: str | None,
) -> Span:
    span = Span(
        trace_id=trace,
        span_id=span_id,
        parent_span_id=parent,
        name=name,
        start_time_unix_nano=end - 2_000_000_000,
        end_time_unix_nano=end,
        attributes=[_kv(k, v) for k, v in attrs.items()],
        status=Status(code=Status.STATUS_CODE_ERROR if message else 0),
    )
    if message:
        span.events.add(
            name="exception",
            time_unix_nano=end,
            attributes=[_kv("exception.type", "ToolError"), _kv("exception.message", message)],
        )
    return span


def export_body(spans: int, rng: random.Random, *, pad: int = 0) -> bytes:
    """An export of ``spans`` spans in runs of three; one run in five fails, its exception
    recorded on all three spans; with ``pad``, every span fails with an exception of its own,
    a message of about that many characters."""
    makers, now, items = all_makers(), time.time_ns(), []
    for run in range(-(-spans // 3)):
        trace, ids = os.urandom(16), [os.urandom(8) for _ in range(3)]
        shared = rng.choice(makers).make(rng) if rng.random() < FAILED_SHARE else None
        messages = [
            _padded(rng.choice(makers).make(rng), pad, rng) if pad else shared for _ in range(3)
        ]
        agent, end = rng.choice(AGENTS), now - run * 1000
        items += [
            _span(
                trace,
                ids[2],
                ids[1],
                "execute_tool lookup",
                {"gen_ai.operation.name": "execute_tool", "hindsight.retry_safe": True},
                end,
                messages[0],
            ),
            _span(
                trace,
                ids[1],
                ids[0],
                "chat gpt-4o",
                {"gen_ai.operation.name": "chat"},
                end + 1,
                messages[1],
            ),
            _span(
                trace,
                ids[0],
                b"",
                f"invoke_agent {agent}",
                {
                    "gen_ai.operation.name": "invoke_agent",
                    "gen_ai.agent.name": agent,
                    "hindsight.files": "src/app.py",
                },
                end + 2,
                messages[2],
            ),
        ]
    return ExportTraceServiceRequest(
        resource_spans=[
            ResourceSpans(
                resource=Resource(attributes=[_kv("service.name", "bench-fleet")]),
                scope_spans=[ScopeSpans(spans=items[:spans])],
            )
        ]
    ).SerializeToString()


def bulk_body(count: int, rng: random.Random, *, pad: int = 0) -> bytes:
    """A bulk of ``count`` outcomes; ``pad``: every one failed with a message of about that
    many characters (else one in five failed, with a short one)."""
    makers, items = all_makers(), []
    for n in range(count):
        item = {
            "task_id": f"task-{uuid.uuid4().hex[:12]}",
            "agent": rng.choice(AGENTS),
            "task_type": "sync",
            "outcome": "success",
            "event_id": str(uuid.uuid4()),
            "occurred_at": datetime.now(timezone.utc).isoformat(),
            "duration_ms": 1200,
            "result": {"files_changed": ["src/app.py"]},
        }
        if pad or rng.random() < FAILED_SHARE:
            message = rng.choice(makers).make(rng)
            item.update(
                outcome="failure",
                context={
                    "error_type": "ToolError",
                    "retry_safe": True,
                    "error_message": _padded(message, pad, rng) if pad else message,
                },
            )
        items.append(item)
    return json.dumps({"outcomes": items}).encode()


def fitted(make, pad: int, limit: int) -> bytes:
    """The body ``make(pad)`` gives, its padding shrunk until it is within ``limit`` bytes."""
    while True:
        body = make(pad)
        if len(body) <= limit:
            return body
        pad = int(pad * limit * 0.99 / len(body))


def post(port: int, token: str, path: str, body: bytes, content_type: str) -> tuple[int, float]:
    """One POST: its status and wall time in seconds."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    started = time.perf_counter()
    try:
        conn.request(
            "POST",
            path,
            body=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
        )
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    return response.status, time.perf_counter() - started


def cases(args, rng: random.Random) -> list[tuple[str, str, str, object]]:
    """(label, path, content type, body maker) of each measured request."""
    spans, items, limit = args.spans, args.items, args.body_limit
    # Characters per message that bring the request to about 97% of the body limit.
    span_pad = int(limit * 0.97 / spans) - 260
    item_pad = int(limit * 0.97 / items) - 330
    otlp, bulk = (
        ("/v1/traces", "application/x-protobuf"),
        ("/api/v1/outcomes/bulk", "application/json"),
    )
    return [
        ("OTLP, 1 span (baseline)", *otlp, lambda: export_body(1, rng)),
        (f"OTLP, {spans:,} spans", *otlp, lambda: export_body(spans, rng)),
        (
            f"OTLP, {spans:,} failing spans at the body limit",
            *otlp,
            lambda: fitted(lambda pad: export_body(spans, rng, pad=pad), span_pad, limit),
        ),
        ("bulk, 1 outcome (baseline)", *bulk, lambda: bulk_body(1, rng)),
        (f"bulk, {items:,} outcomes", *bulk, lambda: bulk_body(items, rng)),
        (
            f"bulk, {items:,} failed outcomes at the body limit",
            *bulk,
            lambda: fitted(lambda pad: bulk_body(items, rng, pad=pad), item_pad, limit),
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="hindsight_bench_caps")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    url = datagen.database_prepare(args.database)
    token = outcomes_bench.api_key_make(url, args.redis_url, SETTINGS)
    from django.conf import settings  # set up by api_key_make

    args.spans, args.items = settings.HINDSIGHT_OTLP_MAX_SPANS, settings.HINDSIGHT_BULK_MAX_ITEMS
    args.body_limit = settings.HINDSIGHT_MAX_BULK_BODY_BYTES
    rng = random.Random(11)
    print("\n".join(machine_lines(url)))
    print(
        f"Caps: {args.spans:,} spans per export, {args.items:,} outcomes per bulk, bodies of "
        f"at most {args.body_limit:,} bytes; {args.runs} runs, each on new ids"
    )
    with Server(
        database_url=url, redis_url=args.redis_url, workers=1, settings=SETTINGS
    ) as server:
        print(server.describe())
        post(
            server.port, token, "/v1/traces", export_body(1, rng), "application/x-protobuf"
        )  # warm up
        print(f"{'request':<52} {'MB':>6} {'median s':>9} {'worst s':>8}  within {TARGET_S:.0f} s")
        for label, path, content_type, make in cases(args, rng):
            bodies = [make() for _ in range(args.runs)]
            timed = [post(server.port, token, path, body, content_type) for body in bodies]
            statuses = {status for status, _ in timed}
            seconds = [elapsed for _, elapsed in timed]
            verdict = (
                ("yes" if max(seconds) <= TARGET_S else "NO")
                if statuses == {200}
                else (f"status {sorted(statuses)}")
            )
            print(
                f"{label:<52} {len(bodies[0]) / 1e6:>6.2f} {statistics.median(seconds):>9.2f} "
                f"{max(seconds):>8.2f}  {verdict}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
