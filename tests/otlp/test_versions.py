"""The release, model and prompt version from OpenTelemetry: where each comes from (the mapping,
pure), and what the receiver stores, refuses and replays."""

import pytest

from failures.models import Failure
from outcomes.models import Outcome, SpanRejection
from outcomes.otlp.mapping import SOURCES

from .spans import ERROR, export, span
from .test_mapping import outcomes_of, problem_of
from .test_receiver import SECRET, answer_of, post

VERSIONS = ("release", "model", "prompt_version")


def versions_of(row) -> tuple:
    return tuple(getattr(row, name) for name in VERSIONS)


def test_the_model_asked_for_comes_before_the_one_that_answered():
    [failure] = outcomes_of(
        span(
            status=ERROR,
            attrs={"gen_ai.request.model": "gpt-4o", "gen_ai.response.model": "gpt-4o-2024-08-06"},
        )
    )
    assert failure["model"] == "gpt-4o"


def test_the_prompt_version_may_be_a_resource_attribute_and_the_spans_wins():
    resource = {"service.version": "2.0.1", "hindsight.prompt_version": "p-resource"}
    [from_resource] = outcomes_of(span(status=ERROR), resource=resource)
    assert (from_resource["release"], from_resource["prompt_version"]) == ("2.0.1", "p-resource")
    [from_span] = outcomes_of(
        span(status=ERROR, attrs={"hindsight.prompt_version": "p-span"}), resource=resource
    )
    assert from_span["prompt_version"] == "p-span"


def test_service_version_on_a_span_is_not_the_release():
    """The release is the resource's: a span attribute of that name is someone else's."""
    [failure] = outcomes_of(span(status=ERROR, attrs={"service.version": "9.9"}))
    assert "release" not in failure


def test_a_root_spans_success_carries_them_as_its_failures_do():
    root = span(
        "run",
        parent=b"",
        attrs={"gen_ai.response.model": "claude-sonnet-4-5", "hindsight.prompt_version": "p7"},
    )
    [success] = outcomes_of(root, resource={"service.version": "coder@1.4.2"})
    assert success["outcome"] == "success"
    assert (success["release"], success["model"], success["prompt_version"]) == (
        "coder@1.4.2",
        "claude-sonnet-4-5",
        "p7",
    )


@pytest.mark.parametrize(
    "attribute", ["gen_ai.request.model", "gen_ai.response.model", "hindsight.prompt_version"]
)
def test_a_span_attribute_that_is_not_text_refuses_the_span_and_names_it(attribute):
    assert attribute in problem_of(span(status=ERROR, attrs={attribute: ["a", "b"]}))


def test_a_number_is_taken_as_its_digits_as_for_any_text_attribute():
    [failure] = outcomes_of(
        span(status=ERROR, attrs={"hindsight.prompt_version": 7}),
        resource={"service.version": 3},
    )
    assert (failure["release"], failure["prompt_version"]) == ("3", "7")


def test_the_mapping_table_names_where_each_comes_from():
    assert SOURCES["release"] == "service.version"
    assert "gen_ai.request.model" in SOURCES["model"]
    assert "gen_ai.response.model" in SOURCES["model"]
    assert "hindsight.prompt_version" in SOURCES["prompt_version"]


@pytest.mark.django_db
def test_an_export_stores_them_on_the_failure_its_ledger_entry_and_the_runs_outcome(api):
    trace = b"\x09" * 16
    body = export(
        span(
            "chat",
            trace_id=trace,
            status=ERROR,
            attrs={"gen_ai.response.model": "gpt-4o-2024-08-06", "hindsight.task": "t-9"},
            exception={"exception.message": "context length exceeded"},
        ),
        span("run", trace_id=trace, span_id=b"\x01" * 8, parent=b""),
        resource={"service.version": "coder@1.4.2", "hindsight.prompt_version": "p7"},
    ).SerializeToString()
    answer = answer_of(post(api, body))
    assert answer.partial_success.rejected_spans == 0
    failure = Failure.objects.get()
    assert versions_of(failure) == ("coder@1.4.2", "gpt-4o-2024-08-06", "p7")
    assert versions_of(failure.outcomes.get()) == versions_of(failure)
    run = Outcome.objects.get(outcome="success")
    assert versions_of(run) == ("coder@1.4.2", "", "p7")  # the run span names no model
    # The exporter's retry of the same batch stores nothing new.
    answer_of(post(api, body))
    assert (Failure.objects.count(), Outcome.objects.count()) == (1, 2)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "where, attribute",
    [
        ("resource", "service.version"),
        ("span", "gen_ai.request.model"),
        ("span", "gen_ai.response.model"),
        ("span", "hindsight.prompt_version"),
        ("resource", "hindsight.prompt_version"),
    ],
)
def test_one_too_long_refuses_its_span_as_any_too_long_name_does(api, where, attribute):
    long = "x" * 101
    bad = span("bad", status=ERROR, attrs={attribute: long} if where == "span" else {}, parent=b"")
    resource = {attribute: long} if where == "resource" else {}
    answer = answer_of(post(api, export(bad, resource=resource).SerializeToString()))
    assert answer.partial_success.rejected_spans == 1
    assert "100 characters" in answer.partial_success.error_message
    [rejection] = SpanRejection.objects.all()
    assert rejection.reason.startswith("invalid ") and attribute.split(".")[0] in rejection.reason
    assert not Outcome.objects.exists() and not Failure.objects.exists()
    # The same span within the bound is stored.
    fine = span("fine", status=ERROR, attrs={attribute: "x" * 100} if where == "span" else {})
    resource = {attribute: "x" * 100} if where == "resource" else {}
    answer_of(post(api, export(fine, resource=resource).SerializeToString()))
    assert "x" * 100 in versions_of(Failure.objects.get())


@pytest.mark.django_db
def test_a_secret_in_the_release_and_model_is_scrubbed(api):
    body = export(
        span(
            "chat",
            status=ERROR,
            attrs={"gen_ai.request.model": f"ft:gpt-4o key={SECRET}"},
            exception={"exception.message": "boom"},
        ),
        resource={"service.version": f"1.0 token={SECRET}"},
    ).SerializeToString()
    answer_of(post(api, body))
    for row in (Failure.objects.get(), Outcome.objects.get()):
        assert SECRET not in row.release and row.release.startswith("1.0 token=")
        assert SECRET not in row.model and row.model.startswith("ft:gpt-4o key=")
