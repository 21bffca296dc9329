"""The history cache's key: each agent's generation, a token kept in PostgreSQL and replaced in
the very transaction that stores a new outcome of the agent.

A cached history is filed under the generation it was read with. The commit of a new outcome
thus makes every cached history of its agent unreachable at that instant, without a word to
Redis: a Redis outage, stall or restart cannot lose an invalidation, and an entry written late
(a command Redis runs after a stall) lands under a generation no reader asks for any more.

Why a reader never files stale data under the current generation: it reads the generation
before the outcomes, so a generation it sees was committed together with every outcome it
names, and those outcomes are in what it reads next.
"""

import uuid

from .models import HistoryGeneration

# The generation of an agent that has recorded nothing since generations were introduced.
NO_GENERATION = "0"


def history_generation(agent: str) -> str:
    """The agent's current generation: one primary-key read."""
    tokens = list(HistoryGeneration.objects.filter(pk=agent).values_list("token", flat=True))
    return tokens[0].hex if tokens else NO_GENERATION


def history_generation_bump(agents) -> None:
    """Give these agents new generations. The caller owns the transaction and calls this last:
    the agents' rows stay locked until it commits, so concurrent writers of one agent queue
    only for that commit, and taking them in name order keeps them from deadlocking."""
    if agents:
        HistoryGeneration.objects.bulk_create(
            [HistoryGeneration(agent=agent, token=uuid.uuid4()) for agent in sorted(agents)],
            update_conflicts=True,
            unique_fields=["agent"],
            update_fields=["token"],
        )
