"""Publishing Celery jobs from the write path: never the reason a write fails or waits.

A job is sent after the write commits, with short broker timeouts and no publish retries. If the
broker is down the send fails fast, is logged and dropped, and for a few seconds later sends are
not even tried; what was not sent is picked up by the next periodic run of the same job (every job
published from a write is also periodic and recomputes from the database, never from the message).
"""

import logging

from django.db import transaction

from config.cache import Breaker

logger = logging.getLogger(__name__)
_broker = Breaker()  # the cache's breaker: skip a dead broker for a few seconds


def publish(task, **kwargs) -> None:
    """Send ``task(**kwargs)`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish_now(task, **kwargs))


def publish_now(task, **kwargs) -> bool:
    """Send ``task(**kwargs)`` now; False when the broker could not take it."""
    if _broker.is_open():
        logger.info("broker marked down; %s left to its periodic run", task.name)
        return False
    try:
        task.apply_async(kwargs=kwargs)
    except Exception as exc:  # any broker or eager-run failure: the write has committed already
        _broker.trip()
        logger.warning("could not send %s (left to its periodic run): %s", task.name, exc)
        return False
    return True
