"""POST /v1/traces: what is refused and how a user finds out (the answer's partial success, a
WARNING, the dashboard's table), bad numbers, and the limits on an export."""

from datetime import timedelta

from django.utils import timezone

from failures.models import Failure
from outcomes.models import Outcome, SpanRejection
from outcomes.tasks import outcomes_prune_task

from .spans import ERROR, export, span
from .test_receiver import PROTOBUF, answer_of, post, run, status_of


def test_a_bad_number_in_an_attribute_refuses_that_span_and_stores_the_rest(api):
    bad = [
        span(f"s{n}", status=ERROR, attrs=attrs)
        for n, attrs in enumerate(
            [
                {"hindsight.checkpoint": '{"done": NaN}'},
                {"hindsight.checkpoint": '{"done": 1e999}'},
                {"hindsight.checkpoint": "[Infinity]"},
                {"hindsight.retry_after": float("inf")},
                {"hindsight.side_effects": ["ok", float("nan")]},
            ]
        )
    ]
    good = span("fine", status=ERROR, attrs={"hindsight.checkpoint": '{"done": 1.5}'})
    answer = answer_of(post(api, export(*bad, good).SerializeToString()))
    assert answer.partial_success.rejected_spans == 5
    assert "not a finite number" in answer.partial_success.error_message
    assert Failure.objects.get().checkpoint == {"done": 1.5}


def test_every_refused_span_is_logged_and_kept_by_reason(api, caplog):
    spans = [span(f"s{n}", status=ERROR) for n in range(3)]
    spans.append(span("odd", status=ERROR, attrs={"hindsight.retry_safe": "yes"}))
    with caplog.at_level("WARNING", logger="outcomes.otlp.services"):
        answer = answer_of(post(api, export(*spans, service="").SerializeToString()))
    assert answer.partial_success.rejected_spans == 4
    kept = {row.reason: (row.count, row.example) for row in SpanRejection.objects.all()}
    assert kept.keys() == {"no agent"}  # a span without an agent is refused for that first
    assert kept["no agent"][0] == 4 and "OTEL_SERVICE_NAME" in kept["no agent"][1]
    [line] = [r for r in caplog.records if r.levelname == "WARNING"]
    assert "4 span(s) refused (no agent)" in line.getMessage()
    answer_of(
        post(
            api,
            export(
                span("odd", status=ERROR, attrs={"hindsight.retry_safe": "yes"})
            ).SerializeToString(),
        )
    )
    assert SpanRejection.objects.get(reason="invalid hindsight.retry_safe").count == 1


def test_refused_spans_are_forgotten_after_a_week_by_the_daily_retention(api, settings):
    settings.HINDSIGHT_OUTCOME_RETENTION_DAYS = 0  # keeping outcomes forever keeps no refusal
    now = timezone.now()
    for days in (8, 6):
        SpanRejection.objects.create(
            at=now - timedelta(days=days),
            reason="no agent",
            count=1,
            example="span s of trace t: no agent",
        )
    outcomes_prune_task()
    assert list(SpanRejection.objects.values_list("at", flat=True)) == [now - timedelta(days=6)]


def test_more_spans_than_the_cap_is_a_413_naming_it_and_stores_nothing(api, settings):
    settings.HINDSIGHT_OTLP_MAX_SPANS = 3
    at_cap = export(*[span(f"s{n}", status=ERROR) for n in range(3)]).SerializeToString()
    over = export(*[span(f"s{n}", status=ERROR) for n in range(4)]).SerializeToString()
    response = post(api, over)
    assert response.status_code == 413
    assert status_of(response).code == 8  # RESOURCE_EXHAUSTED
    assert status_of(response).message.startswith("4 spans in one export; at most 3 are taken")
    assert not Outcome.objects.exists()
    answer_of(post(api, at_cap))
    assert Failure.objects.count() == 3


def test_a_body_over_the_limit_is_refused_before_reading_in_the_otlp_shape(api, settings):
    settings.HINDSIGHT_MAX_BULK_BODY_BYTES = 2000
    response = post(api, b"\x00" * 2001)
    assert (response.status_code, response["Content-Type"]) == (413, PROTOBUF)
    assert status_of(response).message == "Request body is larger than 2000 bytes."


def test_a_chunked_body_the_server_cannot_read_is_a_411_never_an_empty_success(api):
    # runserver does not decode chunks (no wsgi.input_terminated): the body cannot be read.
    response = post(api, run(), HTTP_TRANSFER_ENCODING="chunked")
    assert response.status_code == 411
    assert "Content-Length" in status_of(response).message
    assert not Outcome.objects.exists()
