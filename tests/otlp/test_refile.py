"""A failure exported before the span that names its agent is re-filed under that agent when
the span arrives: the failure, its failed outcome and its pattern's agent count; a nearer named
span wins over a farther one, whenever each arrives."""

import time

from config.api.services import api_key_create
from failures.models import Failure, FailurePattern
from outcomes.models import Outcome
from tests.conftest import bearer

from .spans import ERROR, export, span

TRACES = "/v1/traces"
PROTOBUF = "application/x-protobuf"
TRACE = b"\x09" * 16
ROOT, CHAT, TOOL = b"\x01" * 8, b"\x02" * 8, b"\x03" * 8
DECLINED = {"exception.type": "CardDeclined", "exception.message": "card declined"}


def send(api, *spans):
    """Export ``spans`` from a process hosting several agents (its service name names none)."""
    body = export(*spans, service="host-proc").SerializeToString()
    response = api.post(TRACES, data=body, content_type=PROTOBUF)
    assert response.status_code == 200


def tool(**attrs):
    return span(
        "execute_tool charge",
        trace_id=TRACE,
        span_id=TOOL,
        parent=CHAT,
        status=ERROR,
        exception=DECLINED,
        attrs=attrs,
    )


def chat(**attrs):
    return span(
        "chat",
        trace_id=TRACE,
        span_id=CHAT,
        parent=ROOT,
        status=ERROR,
        exception=DECLINED,
        attrs=attrs,
    )


def root(agent="billing"):
    return span(
        f"invoke_agent {agent}",
        trace_id=TRACE,
        span_id=ROOT,
        parent=b"",
        status=ERROR,
        exception=DECLINED,
        attrs={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent},
    )


def test_a_child_exported_before_its_agents_root_is_filed_under_that_agent(api):
    for item in (tool(), chat(), root()):  # children end, and are exported, first
        send(api, item)
    failure = Failure.objects.get()
    assert (failure.agent, failure.agent_span) == ("billing", ROOT.hex())
    assert Outcome.objects.get(failure=failure).agent == "billing"
    assert not Outcome.objects.filter(agent="host-proc").exists()
    assert FailurePattern.objects.get(pk=failure.pattern_id).agent_count == 1
    listed = api.get("/api/v1/failures", {"agent": "billing"}).json()["failures"]
    assert [(item["id"], item["pattern"]["id"]) for item in listed] == [
        (failure.pk, failure.pattern_id)
    ]
    assert api.get("/api/v1/failures", {"agent": "host-proc"}).json()["failures"] == []


def test_the_pattern_counts_each_agent_once_after_the_move(api):
    other = b"\x0a" * 16
    send(
        api,
        span(
            "execute_tool charge",
            trace_id=other,
            span_id=TOOL,
            parent=CHAT,
            status=ERROR,
            exception=DECLINED,
            attrs={"gen_ai.agent.name": "billing"},
        ),
    )
    send(api, tool())
    assert FailurePattern.objects.get().agent_count == 2  # billing and host-proc
    send(api, chat(), root())
    assert FailurePattern.objects.get().agent_count == 1
    assert set(Failure.objects.values_list("agent", flat=True)) == {"billing"}


def test_a_nearer_named_ancestor_wins_over_a_farther_one_arriving_later(api):
    send(api, tool())
    send(api, chat(**{"gen_ai.agent.name": "support"}))
    send(api, root("billing"))
    failure = Failure.objects.get()
    assert (failure.agent, failure.agent_span) == ("support", CHAT.hex())
    assert Outcome.objects.get(failure=failure).agent == "support"


def test_of_two_named_ancestors_in_one_export_the_nearer_names_the_agent(api):
    send(api, tool())
    send(api, chat(**{"gen_ai.agent.name": "support"}), root("billing"))
    assert Failure.objects.get().agent == "support"


def test_a_failure_whose_own_span_named_its_agent_is_never_refiled(api):
    send(api, tool(**{"gen_ai.agent.name": "payments"}))
    send(api, chat(), root("billing"))
    failure = Failure.objects.get()
    assert (failure.agent, failure.agent_span) == ("payments", TOOL.hex())
    assert Outcome.objects.get(failure=failure).agent == "payments"


def test_a_replayed_export_changes_nothing(api):
    for item in (tool(), chat(), root()):
        send(api, item)
    before = list(Failure.objects.values_list("agent", "agent_span", "lineage", "pattern_id"))
    outcomes = list(Outcome.objects.order_by("pk").values_list("agent", "failure_id"))
    for item in (tool(), chat(), root()):
        send(api, item)
    assert (
        list(Failure.objects.values_list("agent", "agent_span", "lineage", "pattern_id")) == before
    )
    assert list(Outcome.objects.order_by("pk").values_list("agent", "failure_id")) == outcomes
    assert FailurePattern.objects.get().agent_count == 1


def test_a_key_not_bound_to_the_named_agent_moves_nothing(db):
    api = bearer(api_key_create(name="host", scope="write", agent_patterns=["host-*"]).raw)
    send(api, tool())
    send(api, chat(), root())  # the root is refused for its agent; the chat is folded
    assert Failure.objects.get().agent == "host-proc"


def test_the_runs_success_closes_the_failure_it_now_owns_as_within_one_export(api):
    def ok():  # the run caught the tool's exception and ended well, after its children
        return span(
            "invoke_agent billing",
            trace_id=TRACE,
            span_id=ROOT,
            parent=b"",
            attrs={"gen_ai.agent.name": "billing"},
            end_ns=time.time_ns() + 10**9,
        )

    send(api, tool(), chat(), ok())
    assert Failure.objects.get().status == "resolved"
    Outcome.objects.all().delete()
    Failure.objects.all().delete()
    send(api, tool())
    send(api, chat(), ok())
    assert Failure.objects.get().status == "resolved"
