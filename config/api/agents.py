"""Keys bound to agents: the one check every write path makes before writing in an agent's name.

Reads are not bound: any live key reads the whole fleet. Callers without a key (the admin, jobs,
management commands) pass ``api_key=None`` and act for any agent.
"""

from rest_framework import status
from rest_framework.exceptions import APIException

from .models import ApiKey


class AgentForbidden(APIException):
    """403 naming the field that names an agent this key is not bound to."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "forbidden"

    def __init__(self, message: str, fields: dict[str, list[str]]):
        super().__init__(message)
        self.fields = fields

    @classmethod
    def from_fields(cls, fields: dict[str, list[str]]) -> "AgentForbidden":
        """The 403 of a refusal (agent_refusal)."""
        return cls(refusal_message(fields), fields)


def refusal_message(fields: dict[str, list[str]]) -> str:
    """The error message of a refusal: the field it names, and why."""
    field, [why] = next(iter(fields.items()))
    return f"Forbidden {field}: {why}"


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
    """Raise AgentForbidden when ``api_key`` may not act for ``agent``."""
    refusal = agent_refusal(api_key, agent, field=field)
    if refusal is not None:
        raise AgentForbidden.from_fields(refusal)
