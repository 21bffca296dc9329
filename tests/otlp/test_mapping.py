"""The mapping table of docs/opentelemetry.md, case by case: which spans become failures and
outcomes, and where each field comes from. Pure: no database."""

import uuid
from datetime import datetime, timezone

from outcomes.otlp.mapping import request_map

from .spans import ERROR, OK, export, span

END = 1_767_225_600_123_456_789  # 2026-01-01T00:00:00.123456789Z
SERVICE = "billing-agent"


def mapped_of(item, service=SERVICE, resource=None):
    spans = request_map(export(item, service=service, resource=resource)).spans
    return spans[0] if spans else None


def outcomes_of(item, service=SERVICE, resource=None) -> list[dict]:
    mapped = mapped_of(item, service, resource)
    assert mapped is not None and not mapped.problem, mapped
    return list(mapped.outcomes)


def problem_of(item, service=SERVICE, resource=None) -> str:
    mapped = mapped_of(item, service, resource)
    assert mapped is not None and mapped.problem
    return mapped.problem


def test_an_error_span_becomes_a_failure_with_every_field_from_its_attributes():
    [failure] = outcomes_of(
        span(
            "send sms",
            status=ERROR,
            status_message="status says",
            end_ns=END,
            duration_ms=250,
            attrs={
                "gen_ai.agent.name": "notifier",
                "hindsight.task": "ticket-42",
                "hindsight.task_type": "notify",
                "error.type": "TwilioTimeout",
                "hindsight.retry_safe": True,
                "hindsight.retry_after": 30,
                "hindsight.side_effects": ["sms queued"],
                "hindsight.recovery_hint": "wait",
                "hindsight.checkpoint": '{"step": 3}',
            },
            exception={
                "exception.message": "Twilio API timeout after 30 seconds",
                "exception.type": "TimeoutError",
            },
        )
    )
    assert failure["outcome"] == "failure"
    assert failure["agent"] == "notifier"
    assert failure["task_id"] == "ticket-42"
    assert failure["task_type"] == "notify"
    assert failure["occurred_at"] == "2026-01-01T00:00:00.123456+00:00"
    assert failure["duration_ms"] == 250
    context = failure["context"]
    assert context["error_message"] == "Twilio API timeout after 30 seconds"
    assert context["error_type"] == "TwilioTimeout"
    assert (context["retry_safe"], context["retry_after"]) == (True, 30)
    assert context["side_effects"] == ["sms queued"]
    assert context["recovery_hint"] == "wait"
    assert context["checkpoint"] == {"step": 3}


def test_an_exception_event_alone_makes_a_failure():
    [failure] = outcomes_of(
        span(exception={"exception.message": "boom", "exception.type": "ValueError"})
    )
    assert failure["outcome"] == "failure"
    assert failure["context"]["error_message"] == "boom"
    assert failure["context"]["error_type"] == "ValueError"  # exception.type, no error.type


def test_the_status_message_is_the_error_without_an_exception_event():
    [failure] = outcomes_of(span(status=ERROR, status_message="quota exceeded"))
    assert failure["context"]["error_message"] == "quota exceeded"
    assert "error_type" not in failure["context"]


def test_the_agent_is_gen_ai_agent_name_then_the_service_name():
    [named] = outcomes_of(span(status=ERROR, attrs={"gen_ai.agent.name": "planner"}))
    [service] = outcomes_of(span(status=ERROR))
    assert (named["agent"], service["agent"]) == ("planner", "billing-agent")
    # gen_ai.agent.name on the resource names the agent of all its spans.
    [resource] = outcomes_of(span(status=ERROR), resource={"gen_ai.agent.name": "crew-lead"})
    assert resource["agent"] == "crew-lead"


def test_the_agent_is_the_nearest_named_on_the_span_or_its_ancestors_in_the_export():
    trace = bytes(range(16))
    root = span(
        "invoke_agent planner",
        trace_id=trace,
        span_id=b"\x01" * 8,
        parent=b"",
        attrs={"gen_ai.agent.name": "planner"},
    )
    helper = span(
        "invoke_agent helper",
        trace_id=trace,
        span_id=b"\x02" * 8,
        parent=b"\x01" * 8,
        attrs={"gen_ai.agent.name": "helper"},
    )
    tool = span(
        "execute_tool lookup",
        trace_id=trace,
        span_id=b"\x03" * 8,
        parent=b"\x02" * 8,
        status=ERROR,
    )
    chat = span("chat", trace_id=trace, span_id=b"\x04" * 8, parent=b"\x01" * 8, status=ERROR)
    agents = {
        item.span_id[:2]: item.failure["agent"]
        for item in request_map(export(tool, chat, helper, root, service="crew-app")).spans
        if item.failure
    }
    assert agents == {"03": "helper", "04": "planner"}
    # Its ancestors in another export: the service name.
    [alone] = outcomes_of(tool, service="crew-app")
    assert alone["agent"] == "crew-app"


def test_without_a_service_name_spans_are_stored_under_the_sdks_default():
    [failure] = outcomes_of(span(status=ERROR), service="unknown_service:python")
    assert failure["agent"] == "unknown_service:python"


def test_a_span_without_any_agent_is_refused():
    assert "no agent" in problem_of(span(status=ERROR), service="")


def test_the_task_is_hindsight_task_then_the_conversation_then_the_trace():
    trace = bytes.fromhex("5b8efff798038103d269b633813fc60c")
    [named] = outcomes_of(
        span(
            status=ERROR,
            trace_id=trace,
            attrs={"hindsight.task": "ticket-7", "gen_ai.conversation.id": "conv-1"},
        )
    )
    [conversation] = outcomes_of(
        span(status=ERROR, trace_id=trace, attrs={"gen_ai.conversation.id": "conv-1"})
    )
    [run] = outcomes_of(
        span(
            "invoke_agent billing",
            status=ERROR,
            trace_id=trace,
            attrs={"gen_ai.operation.name": "invoke_agent"},
        )
    )
    assert (named["task_id"], conversation["task_id"], run["task_id"]) == (
        "ticket-7",
        "conv-1",
        "5b8efff798038103d269b633813fc60c",
    )


def test_a_span_takes_the_task_named_on_its_nearest_ancestor_in_the_export():
    trace = bytes(range(16))
    root = span(
        "invoke_agent",
        trace_id=trace,
        span_id=b"\x01" * 8,
        parent=b"",
        attrs={"hindsight.task": "ticket-7", "gen_ai.conversation.id": "conv-1"},
    )
    tool = span(
        "execute_tool",
        trace_id=trace,
        span_id=b"\x02" * 8,
        parent=b"\x01" * 8,
        status=ERROR,
        attrs={"gen_ai.conversation.id": "conv-2"},
    )
    tasks = {
        item.span_id[:2]: [o["task_id"] for o in item.outcomes]
        for item in request_map(export(tool, root)).spans
    }
    assert tasks == {"02": ["ticket-7"], "01": ["ticket-7"]}


def test_the_task_type_is_the_operation_with_the_span_name():
    [operation] = outcomes_of(
        span("lookup_order", status=ERROR, attrs={"gen_ai.operation.name": "execute_tool"})
    )
    assert operation["task_type"] == "execute_tool lookup_order"
    # GenAI span names start with the operation: it is not said twice.
    [chat] = outcomes_of(
        span("chat gpt-4o", status=ERROR, attrs={"gen_ai.operation.name": "chat"})
    )
    assert chat["task_type"] == "chat gpt-4o"
    [plain] = outcomes_of(span("fetch", status=ERROR))
    assert plain["task_type"] == "fetch"
    [typed] = outcomes_of(span("fetch", status=ERROR, attrs={"hindsight.task_type": "sync"}))
    assert typed["task_type"] == "sync"
    [long] = outcomes_of(span("x" * 300, status=ERROR))
    assert long["task_type"] == "x" * 100


def test_a_root_span_is_an_outcome_with_duration_and_files():
    [outcome] = outcomes_of(
        span(
            "run",
            parent=b"",
            duration_ms=4200,
            attrs={"hindsight.files": ["src/a.py", "src/b.py"]},
        )
    )
    assert outcome["outcome"] == "success"
    assert outcome["duration_ms"] == 4200
    assert outcome["context"]["files"] == ["src/a.py", "src/b.py"]
    assert "error_message" not in outcome["context"]


def test_a_failed_root_span_is_one_failed_outcome():
    [outcome] = outcomes_of(span("run", parent=b"", status=ERROR, status_message="gave up"))
    assert outcome["outcome"] == "failure"


def test_a_root_span_that_recovered_from_an_exception_is_a_failure_then_a_success():
    failure, success = outcomes_of(
        span("run", parent=b"", status=OK, exception={"exception.message": "retrying"})
    )
    assert (failure["outcome"], success["outcome"]) == ("failure", "success")
    assert failure["event_id"] != success["event_id"]


def test_a_marked_child_span_is_an_outcome_and_a_plain_one_is_not_used():
    [marked] = outcomes_of(span("step", attrs={"hindsight.outcome": True}))
    assert marked["outcome"] == "success"
    assert mapped_of(span("step")) is None
    assert mapped_of(span("step", status=OK)) is None


def test_the_event_id_comes_from_the_trace_and_span_ids():
    trace, span_id = bytes(range(16)), bytes(range(8))
    [first] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=span_id))
    [again] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=span_id))
    [other] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=bytes(range(1, 9))))
    assert first["event_id"] == again["event_id"] != other["event_id"]
    assert uuid.UUID(first["event_id"])


def test_values_the_ledger_cannot_read_refuse_the_span():
    assert "hindsight.checkpoint" in problem_of(
        span(status=ERROR, attrs={"hindsight.checkpoint": "{not json"})
    )
    assert "expected a string" in problem_of(
        span(status=ERROR, attrs={"hindsight.task": ["a", "b"]})
    )
    assert "finite" in problem_of(
        span(status=ERROR, attrs={"hindsight.retry_after": float("nan")})
    )
    for number in ("NaN", "Infinity", "-Infinity", "1e999"):
        checkpoint = '{"done": [1, %s]}' % number
        assert "finite" in problem_of(
            span(status=ERROR, attrs={"hindsight.checkpoint": checkpoint})
        )
    no_end = span(status=ERROR)
    no_end.end_time_unix_nano = 0
    assert "end time" in problem_of(no_end)


def test_a_request_maps_every_resource_and_leaves_out_unused_spans():
    request = export(span("a", status=ERROR), span("b"), span("c", parent=b""), service="svc")
    mapped = request_map(request)
    assert [len(item.outcomes) for item in mapped.spans] == [1, 1]
    assert len(mapped.parents) == 3  # every span's parent, used or not
    assert datetime.fromisoformat(mapped.spans[0].outcomes[0]["occurred_at"]) <= datetime.now(
        timezone.utc
    )


def test_a_span_without_ids_is_refused_with_its_reason():
    for trace_id, span_id in ((b"\x00" * 16, b"\x01" * 8), (b"\x01" * 16, b"\x00" * 8)):
        item = span(status=ERROR, trace_id=trace_id, span_id=span_id)
        mapped = mapped_of(item)
        assert mapped.reason == "no trace or span id" and "span id" in mapped.problem


def test_the_release_model_and_prompt_version_come_from_the_resource_and_the_span():
    resource = {"service.version": "1.4.2", "hindsight.prompt_version": "p7"}
    [failure] = outcomes_of(
        span(status=ERROR, attrs={"gen_ai.request.model": "gpt-4o"}), resource=resource
    )
    assert (failure["release"], failure["model"], failure["prompt_version"]) == (
        "1.4.2",
        "gpt-4o",
        "p7",
    )
    # The model that answered when the one asked for is not given; the span's prompt version
    # before the resource's.
    [answered] = outcomes_of(
        span(
            status=ERROR,
            attrs={"gen_ai.response.model": "gpt-4o-2024-08-06", "hindsight.prompt_version": "p8"},
        ),
        resource=resource,
    )
    assert (answered["model"], answered["prompt_version"]) == ("gpt-4o-2024-08-06", "p8")
    # None given: none sent (the ledger stores them blank).
    [bare] = outcomes_of(span(status=ERROR))
    assert not {"release", "model", "prompt_version"} & set(bare)


def test_a_release_that_is_not_text_refuses_the_span_and_names_the_attribute():
    assert "service.version" in problem_of(
        span(status=ERROR), resource={"service.version": ["1", "2"]}
    )
