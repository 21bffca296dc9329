"""Who writes, in plain values, and the one check every write path makes before writing in an
agent's name. Services take a Writer, never the request's authentication object: the API makes
one of the request's key (config.api.agents.writer_of); the admin, jobs and management commands
write as ANYONE, for any agent.

Reads are not bound: any live key reads the whole fleet.
"""

from dataclasses import dataclass
from fnmatch import fnmatchcase

from config.errors import Forbidden


@dataclass(frozen=True)
class Writer:
    """The writing API key's id (None: no key) and the agents it may write for, as glob
    patterns (none: any agent)."""

    key_id: int | None = None
    agents: tuple[str, ...] = ()

    def may_act_for(self, agent: str) -> bool:
        """Whether this writer may write in ``agent``'s name."""
        return agent_matches(self.agents, agent)


def agent_matches(patterns, agent: str) -> bool:
    """Whether a key bound to these glob patterns may act for ``agent``; no patterns: any agent.

    Case-sensitive (``fnmatchcase``): agent names are stored as sent, so ``Builder-1`` is not
    ``builder-1``, and a key's reach must not depend on the server's operating system."""
    return not patterns or any(fnmatchcase(agent, pattern) for pattern in patterns)


ANYONE = Writer()


def agent_refusal(writer: Writer, agent: str, *, field: str = "agent") -> dict | None:
    """``{field: [why]}`` when ``writer`` may not act for ``agent``, else None."""
    if writer.may_act_for(agent):
        return None
    patterns = ", ".join(writer.agents)
    # The agent's name is not echoed: a name is agent-sent text, and errors are rendered
    # unscrubbed.
    return {field: [f"This API key may write only for agents matching {patterns}."]}


def agent_check(writer: Writer, agent: str, *, field: str = "agent") -> None:
    """Raise Forbidden when ``writer`` may not act for ``agent``."""
    refusal = agent_refusal(writer, agent, field=field)
    if refusal is not None:
        raise Forbidden.from_fields(refusal)
