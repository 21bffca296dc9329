"""One failure per fault of a trace (outcomes.otlp.faults), case by case. Pure: no database.

Spans: ``root`` → ``chat`` → ``tool`` (and ``tool2``, a sibling of ``tool``); X and Y are two
exceptions' digests, "" a span in ERROR without an exception event."""

import pytest

from outcomes.otlp.faults import Failed, Stored, chain_of, faults_decide

PARENTS = {"tool": "chat", "tool2": "chat", "chat": "root", "root": ""}


def failed(span, fault):
    return Failed(span, PARENTS.get(span, ""), fault)


@pytest.mark.parametrize(
    "name, spans, folded",
    [
        (
            "one exception through three spans: the tool's",
            [("tool", "X"), ("chat", "X"), ("root", "X")],
            {"chat", "root"},
        ),
        (
            "two tries failing alike are two faults; the run that let the last one out is none",
            [("tool", "X"), ("tool2", "X"), ("root", "X")],
            {"root"},
        ),
        (
            "the run's ERROR status without an exception is its descendant's fault",
            [("tool", "X"), ("root", "")],
            {"root"},
        ),
        ("an ERROR status alone, with no failed descendant, is a fault", [("root", "")], set()),
        (
            "an ancestor's other exception (caught and raised anew) is another fault",
            [("tool", "X"), ("chat", "Y"), ("root", "Y")],
            {"root"},
        ),
        ("a sibling's exception is not a descendant's", [("tool", "X"), ("tool2", "")], set()),
        (
            "an exception event is its own fault under a descendant's bare ERROR status",
            [("tool", ""), ("chat", "X")],
            set(),
        ),
    ],
)
def test_within_one_export(name, spans, folded):
    decision = faults_decide([failed(span, fault) for span, fault in spans], PARENTS, [])
    assert decision.folded == folded, name
    assert set(decision.lineages) == {span for span, _ in spans} - folded
    assert decision.extended == {}


def test_a_new_failure_carries_the_ancestors_the_export_shows():
    decision = faults_decide([failed("tool", "X")], PARENTS, [])
    assert decision.lineages == {"tool": ("chat", "root")}
    decision = faults_decide([failed("tool", "X")], {"tool": "chat"}, [])
    assert decision.lineages == {"tool": ("chat",)}


def test_ancestors_in_later_exports_fold_into_the_stored_failure_and_extend_its_lineage():
    stored = [Stored(7, "tool", "X", ("chat",))]
    # The chat span arrives alone: it folds, and the tool's lineage learns the run.
    decision = faults_decide([failed("chat", "X")], {"chat": "root"}, stored)
    assert (decision.folded, decision.extended) == ({"chat"}, {7: ("chat", "root")})
    stored = [Stored(7, "tool", "X", ("chat", "root"))]
    decision = faults_decide([failed("root", "")], {"root": ""}, stored)
    assert (decision.folded, decision.extended) == ({"root"}, {})


def test_a_plain_span_in_between_still_links_a_stored_failure_to_its_ancestors():
    stored = [Stored(7, "tool", "X", ("chat",))]
    decision = faults_decide([failed("root", "X")], {"chat": "root", "root": ""}, stored)
    assert decision.folded == {"root"}
    assert decision.extended == {7: ("chat", "root")}


def test_a_descendant_exported_after_its_ancestors_failure_folds_into_it():
    stored = [Stored(3, "root", "X", ())]
    assert faults_decide([failed("tool", "X")], PARENTS, stored).folded == {"tool"}
    # Another exception under it is its own fault.
    assert faults_decide([failed("tool", "Y")], PARENTS, stored).folded == set()


def test_a_span_sent_again_is_left_to_the_ledger_to_replay():
    stored = [Stored(7, "tool", "X", ("chat", "root")), Stored(8, "root", "X", ())]
    decision = faults_decide([failed("tool", "X")], PARENTS, stored)
    assert decision.folded == set() and decision.lineages == {"tool": ("chat", "root")}


def test_a_cycle_of_parent_links_ends():
    assert chain_of("a", {"a": "b", "b": "c", "c": "a"}) == ("b", "c")
    assert chain_of("a", {"a": "a"}) == ()


@pytest.mark.parametrize(
    "name, agent_span, lineage, parents, named, refiled",
    [
        (
            "a service-named failure goes to the named ancestor that arrives",
            "",
            ("chat",),
            {"chat": "root", "root": ""},
            {"root"},
            {7: "root"},
        ),
        (
            "of two named ancestors, the nearer",
            "",
            ("chat", "root"),
            {"chat": "root"},
            {"chat", "root"},
            {7: "chat"},
        ),
        (
            "a nearer one than the span that named it",
            "root",
            ("chat", "root"),
            {"chat": "root"},
            {"chat"},
            {7: "chat"},
        ),
        ("not a farther one", "chat", ("chat", "root"), {"root": ""}, {"root"}, {}),
        (
            "not the span that named it again (a replay)",
            "root",
            ("chat", "root"),
            {"root": ""},
            {"root"},
            {},
        ),
        (
            "never when its own span named it",
            "tool",
            ("chat", "root"),
            {"chat": "root"},
            {"chat", "root"},
            {},
        ),
        (
            "a named span off its lineage is someone else's",
            "",
            ("chat", "root"),
            {"tool2": "chat"},
            {"tool2"},
            {},
        ),
    ],
)
def test_a_stored_failure_is_refiled_under_its_nearest_named_ancestor(
    name, agent_span, lineage, parents, named, refiled
):
    stored = [Stored(7, "tool", "X", lineage, agent_span)]
    assert faults_decide([], parents, stored, frozenset(named)).refiled == refiled
