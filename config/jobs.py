"""Publishing Celery jobs from the write path: never the reason a write fails or waits.

A job is handed over once the write commits, and a thread of the process sends it, so the write
answers without talking to the broker at all. The sender uses short broker timeouts and no
publish retries: if the broker is down or silent a send fails within a tenth of a second, is
logged and dropped, and for a few seconds later sends are not even tried; what was not sent is
picked up by the next periodic run of the same job (every job published from a write is also
periodic and recomputes from the database, never from the message). With jobs run inline (no
broker: the embedded default), a job runs in the write's request once it commits, as before.
"""

import logging
import os
import queue
import threading

from django.conf import settings
from django.db import transaction

from config.cache import Breaker

logger = logging.getLogger(__name__)
_broker = Breaker()  # the cache's breaker: skip a dead broker for a few seconds
# Jobs waiting for the sender; past this many (a broker silent for long under a busy process),
# a job is dropped and left to its periodic run rather than held in memory.
QUEUED_MAX = 10_000


def publish(task, **kwargs) -> None:
    """Send ``task(**kwargs)`` once the current transaction commits (at once outside one)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: publish_now(task, **kwargs))
    else:
        transaction.on_commit(lambda: _sender.put(task, kwargs))


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


class _Sender:
    """One daemon thread per process that sends the jobs writes hand over, in order. Started on
    the first job of each process (a forked worker does not inherit its parent's thread)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pid = 0
        self._queue: queue.Queue = queue.Queue(QUEUED_MAX)

    def put(self, task, kwargs: dict) -> None:
        self._started()
        try:
            self._queue.put_nowait((task, kwargs))
        except queue.Full:
            logger.warning(
                "%d jobs wait for the broker; %s left to its periodic run", QUEUED_MAX, task.name
            )

    def join(self) -> None:
        """Wait until every job handed over so far was sent or dropped."""
        self._queue.join()

    def _started(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
            self._queue = queue.Queue(QUEUED_MAX)  # a parent's unsent jobs are its own
            threading.Thread(
                target=self._run, args=(self._queue,), name="job-sender", daemon=True
            ).start()

    @staticmethod
    def _run(jobs: queue.Queue) -> None:
        while True:
            task, kwargs = jobs.get()
            try:
                publish_now(task, **kwargs)
            finally:
                jobs.task_done()


_sender = _Sender()


def sent_all() -> None:
    """Wait until the jobs this process handed over were sent (or dropped): for a process about
    to exit, and for tests."""
    _sender.join()
