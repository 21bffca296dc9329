"""The request's API key as the domain's Writer (config.writers): its id and the agents it is
bound to, plain values a service can take."""

from config.writers import ANYONE, Writer

from .models import ApiKey


def writer_of(api_key: ApiKey | None) -> Writer:
    """The writer of a request authenticated with ``api_key`` (None: ANYONE)."""
    if api_key is None:
        return ANYONE
    return Writer(key_id=api_key.pk, agents=tuple(api_key.agent_patterns))
