"""Keys bound to agents: the one check every write path makes before writing in an agent's name.

Reads are not bound: any live key reads the whole fleet. Callers without a key (the admin, jobs,
management commands) pass ``api_key=None`` and act for any agent.
"""

from config.errors import Forbidden

from .models import ApiKey


def agent_refusal(api_key: ApiKey | None, agent: str, *, field: str = "agent") -> dict | None:
    """``{field: [why]}`` when ``api_key`` may not act for ``agent``, else None. Uses the key
    row authentication already loaded: no query."""
    if api_key is None or api_key.may_act_for(agent):
        return None
    patterns = ", ".join(api_key.agent_patterns)
    # The agent's name is not echoed: a name is agent-sent text, and errors are rendered
    # unscrubbed.
    return {field: [f"This API key may write only for agents matching {patterns}."]}


def agent_check(api_key: ApiKey | None, agent: str, *, field: str = "agent") -> None:
    """Raise Forbidden when ``api_key`` may not act for ``agent``."""
    refusal = agent_refusal(api_key, agent, field=field)
    if refusal is not None:
        raise Forbidden.from_fields(refusal)
