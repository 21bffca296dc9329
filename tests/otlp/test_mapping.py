"""The mapping table of docs/opentelemetry.md, case by case: which spans become failures and
outcomes, and where each field comes from. Pure: no database."""
import uuid
from datetime import datetime, timezone

from outcomes.otlp.mapping import request_map, resource_agent, span_map

from .spans import ERROR, OK, any_value, export, span

END = 1_767_225_600_123_456_789  # 2026-01-01T00:00:00.123456789Z
RESOURCE = {"service.name": any_value("billing-agent")}


def outcomes_of(item, resource=RESOURCE) -> list[dict]:
    mapped = span_map(item, resource_agent(resource))
    assert mapped is not None and not mapped.problem, mapped
    return list(mapped.outcomes)


def problem_of(item, resource=RESOURCE) -> str:
    mapped = span_map(item, resource_agent(resource))
    assert mapped is not None and mapped.problem
    return mapped.problem


def test_an_error_span_becomes_a_failure_with_every_field_from_its_attributes():
    [failure] = outcomes_of(span(
        "send sms", status=ERROR, status_message="status says", end_ns=END, duration_ms=250,
        attrs={"gen_ai.agent.name": "notifier", "hindsight.task": "ticket-42",
               "hindsight.task_type": "notify", "error.type": "TwilioTimeout",
               "hindsight.retry_safe": True, "hindsight.retry_after": 30,
               "hindsight.side_effects": ["sms queued"], "hindsight.recovery_hint": "wait",
               "hindsight.checkpoint": '{"step": 3}'},
        exception={"exception.message": "Twilio API timeout after 30 seconds",
                   "exception.type": "TimeoutError"}))
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
    [failure] = outcomes_of(span(exception={"exception.message": "boom",
                                            "exception.type": "ValueError"}))
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
    [resource] = outcomes_of(span(status=ERROR), {**RESOURCE,
                                                 "gen_ai.agent.name": any_value("crew-lead")})
    assert resource["agent"] == "crew-lead"


def test_a_span_without_an_agent_is_refused():
    unnamed = {"service.name": any_value("unknown_service:python")}
    assert "no agent" in problem_of(span(status=ERROR), unnamed)
    assert "no agent" in problem_of(span(status=ERROR), {})


def test_the_task_is_hindsight_task_then_the_operation_with_the_span_name():
    [operation] = outcomes_of(span("lookup_order", status=ERROR,
                                   attrs={"gen_ai.operation.name": "execute_tool"}))
    assert operation["task_id"] == "execute_tool lookup_order"
    assert operation["task_type"] == "execute_tool"
    # GenAI span names start with the operation: it is not said twice.
    [chat] = outcomes_of(span("chat gpt-4o", status=ERROR, attrs={"gen_ai.operation.name": "chat"}))
    assert chat["task_id"] == "chat gpt-4o"
    [plain] = outcomes_of(span("fetch", status=ERROR))
    assert (plain["task_id"], plain["task_type"]) == ("fetch", "fetch")


def test_a_root_span_is_an_outcome_with_duration_and_files():
    [outcome] = outcomes_of(span("run", parent=b"", duration_ms=4200,
                                 attrs={"hindsight.files": ["src/a.py", "src/b.py"]}))
    assert outcome["outcome"] == "success"
    assert outcome["duration_ms"] == 4200
    assert outcome["context"]["files"] == ["src/a.py", "src/b.py"]
    assert "error_message" not in outcome["context"]


def test_a_failed_root_span_is_one_failed_outcome():
    [outcome] = outcomes_of(span("run", parent=b"", status=ERROR, status_message="gave up"))
    assert outcome["outcome"] == "failure"


def test_a_root_span_that_recovered_from_an_exception_is_a_failure_then_a_success():
    failure, success = outcomes_of(span("run", parent=b"", status=OK,
                                        exception={"exception.message": "retrying"}))
    assert (failure["outcome"], success["outcome"]) == ("failure", "success")
    assert failure["event_id"] != success["event_id"]


def test_a_marked_child_span_is_an_outcome_and_a_plain_one_is_not_used():
    [marked] = outcomes_of(span("step", attrs={"hindsight.outcome": True}))
    assert marked["outcome"] == "success"
    assert span_map(span("step"), "billing-agent") is None
    assert span_map(span("step", status=OK), "billing-agent") is None


def test_the_event_id_comes_from_the_trace_and_span_ids():
    trace, span_id = bytes(range(16)), bytes(range(8))
    [first] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=span_id))
    [again] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=span_id))
    [other] = outcomes_of(span(status=ERROR, trace_id=trace, span_id=bytes(8)))
    assert first["event_id"] == again["event_id"] != other["event_id"]
    assert uuid.UUID(first["event_id"])


def test_values_the_ledger_cannot_read_refuse_the_span():
    assert "hindsight.checkpoint" in problem_of(span(status=ERROR,
                                                     attrs={"hindsight.checkpoint": "{not json"}))
    assert "expected a string" in problem_of(span(status=ERROR,
                                                  attrs={"hindsight.task": ["a", "b"]}))
    assert "finite" in problem_of(span(status=ERROR, attrs={"hindsight.retry_after": float("nan")}))
    no_end = span(status=ERROR)
    no_end.end_time_unix_nano = 0
    assert "end time" in problem_of(no_end)


def test_a_request_maps_every_resource_and_leaves_out_unused_spans():
    request = export(span("a", status=ERROR), span("b"), span("c", parent=b""), service="svc")
    mapped = request_map(request)
    assert [len(item.outcomes) for item in mapped] == [1, 1]
    assert datetime.fromisoformat(mapped[0].outcomes[0]["occurred_at"]) <= datetime.now(
        timezone.utc)
