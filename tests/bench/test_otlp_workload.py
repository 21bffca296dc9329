"""The OTLP benchmark's exports: each outcome of the bulk Writer is one span that the receiver
maps back to an outcome of the same kind, agent, task and error, about one in five a failure."""

import random
from itertools import accumulate

import pytest
from django.db import connection
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from bench.messages import all_makers
from bench.otlp_bench import BATCH, errors_share, export_body
from bench.outcomes_bench import Writer
from outcomes.otlp.mapping import request_map

pytestmark = pytest.mark.django_db

ROWS = [{"agent": f"agent-{n}", "task_type": "sync", "files": [f"src/{n}.py"]} for n in range(5)]


def test_every_outcome_is_one_span_mapped_back_to_it():
    makers = all_makers()
    connection.ensure_connection()
    writer = Writer(
        connection.connection,
        ROWS,
        (makers, list(accumulate([1] * len(makers))), []),
        random.Random(5),
    )
    outcomes = writer.batch(BATCH)
    body = export_body(outcomes)
    mapped = request_map(ExportTraceServiceRequest.FromString(body)).spans
    assert len(mapped) == BATCH and not any(item.problem for item in mapped)
    for sent, [got] in zip(outcomes, (item.outcomes for item in mapped)):
        assert (got["agent"], got["task_id"], got["outcome"]) == (
            sent["agent"],
            sent["task_id"],
            sent["outcome"],
        )
        if sent["outcome"] == "failure":
            assert got["context"]["error_message"] == sent["context"]["error_message"]
    assert 0.12 < errors_share([("/v1/traces", body, "application/x-protobuf")]) < 0.3
