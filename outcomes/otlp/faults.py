"""One failure per fault of a trace: which failed spans record a failure. No Django.

With the SDK's defaults, an exception that propagates out of nested spans (``invoke_agent`` →
``chat`` → ``execute_tool``) is recorded on every span it leaves, as an ``exception`` event
with the same type and message, and each of those spans ends in ERROR. It is one fault:

- A failed span records no failure of its own when a descendant failed with the same exception
  (type and message): the failure is the innermost span's.
- A span in ERROR with no exception event of its own records none when any descendant failed:
  its status is that fault reaching it.
- A span whose ancestor's failure, with the same exception, was stored before the span arrived
  (a descendant exported after its ancestor) records none either: the fault stays where it was
  first stored.

Such a span still gives its outcome when it is one (a root, or marked ``hindsight.outcome``):
the task's failed outcome, without a second failure record.

A stored failure whose agent came from no span (the resource's service name), or from an
ancestor farther up than a span of this export that names an agent (``gen_ai.agent.name`` on
itself), is re-filed under that span's agent: a span's agent is the nearest one named on it or
its ancestors, and with the SDK's batching a run's children are exported before the run's root
that names its agent. Nearest is by position in the failure's lineage; a failure whose own span
named its agent keeps it.

Descendants are known through parent links: those of the export's spans, and each stored
failure's lineage (its ancestors' span ids, nearest first, as far as they were known), which
grows as its ancestors arrive in later exports. A chain breaks at a span that was never in the
same export as its child and recorded nothing itself.
"""

from dataclasses import dataclass, field

# Ancestors followed up a chain: deeper than any agent's nesting, and a bound on the walk when a
# hostile export links its spans in a cycle.
MAX_DEPTH = 64


@dataclass(frozen=True)
class Failed:
    """A failed span of the export: its id, its parent's, and its exception's digest ("" for
    a span in ERROR without an exception event)."""

    span: str
    parent: str
    fault: str


@dataclass(frozen=True)
class Stored:
    """A failure of the trace stored by an earlier export."""

    pk: int
    span: str
    fault: str
    lineage: tuple[str, ...]
    agent_span: str = ""  # the span that named its agent ("" for the resource's)


@dataclass
class Decision:
    """Which failed spans fold into a failure already known (no record of their own), the
    lineage of each span that records one, the longer lineage of stored failures whose
    ancestors arrived, and the span of this export that now names the agent of stored
    failures ({failure: span})."""

    folded: set[str] = field(default_factory=set)
    lineages: dict[str, tuple[str, ...]] = field(default_factory=dict)
    extended: dict[int, tuple[str, ...]] = field(default_factory=dict)
    refiled: dict[int, str] = field(default_factory=dict)


def chain_of(span: str, parents: dict[str, str]) -> tuple[str, ...]:
    """The ancestors of ``span`` that ``parents`` ({span: parent}) shows, nearest first."""
    chain: list[str] = []
    current = span
    for _ in range(MAX_DEPTH):
        parent = parents.get(current)
        if not parent or parent in chain or parent == span:
            break
        chain.append(parent)
        current = parent
    return tuple(chain)


def faults_decide(
    failed: list[Failed],
    parents: dict[str, str],
    stored: list[Stored],
    named: frozenset[str] = frozenset(),
) -> Decision:
    """The decision for one trace: its failed spans in this export, the parent of every span of
    the trace in this export, its failures stored earlier, and the spans of this export that
    name an agent on themselves."""
    decision = Decision()
    chains = {item.span: chain_of(item.span, parents) for item in failed}
    lineages = {}
    for known in stored:
        lineage = _extended(known, parents)
        lineages[known.pk] = lineage
        if lineage != known.lineage:
            decision.extended[known.pk] = lineage
        namer = _nearer_namer(known, lineage, named)
        if namer is not None:
            decision.refiled[known.pk] = namer
    below: dict[str, set[str]] = {}  # span id: the faults of failures under it
    for item in failed:
        for ancestor in chains[item.span]:
            below.setdefault(ancestor, set()).add(item.fault)
    own_spans = {known.span for known in stored}
    for known in stored:
        for ancestor in lineages[known.pk]:
            below.setdefault(ancestor, set()).add(known.fault)
    for item in failed:
        under = below.get(item.span, set())
        if item.span in own_spans:  # sent again: the ledger answers it as a replay
            folded = False
        elif item.fault:
            folded = item.fault in under or any(
                known.fault == item.fault and known.span in chains[item.span] for known in stored
            )
        else:
            folded = bool(under)
        if folded:
            decision.folded.add(item.span)
        else:
            decision.lineages[item.span] = chains[item.span]
    return decision


def _extended(known: Stored, parents: dict[str, str]) -> tuple[str, ...]:
    """A stored failure's lineage, continued through the ancestors this export shows."""
    lineage = known.lineage
    here = chain_of(known.span, parents)
    if len(here) > len(lineage):
        lineage = here
    if lineage:
        lineage = lineage + tuple(
            span
            for span in chain_of(lineage[-1], parents)
            if span not in lineage and span != known.span
        )
    return lineage[:MAX_DEPTH]


def _nearer_namer(known: Stored, lineage: tuple[str, ...], named: frozenset[str]) -> str | None:
    """The nearest span of ``named`` in a stored failure's lineage, when it is nearer than the
    span its agent came from; None when there is none, or the failure's own span named it."""
    if known.agent_span == known.span:
        return None
    if not known.agent_span:
        nearer = lineage
    elif known.agent_span in lineage:
        nearer = lineage[: lineage.index(known.agent_span)]
    else:  # named by a span the lineage no longer shows: nothing to measure against
        return None
    return next((span for span in nearer if span in named), None)
