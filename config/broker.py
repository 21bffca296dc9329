"""The Celery broker's transport: kombu's Redis transport, with acknowledgements and restores
that a stalled or lost broker cannot turn into a stopped worker or a job held back for long.

kombu's Redis QoS removes a message from its unacked index in Redis before it releases the
message's place in the worker's prefetch window. When that Redis call fails (the broker stalled
or gone), the place is never released and Celery only logs the error: with a prefetch of one, the
worker keeps answering pings but never takes another message. Here the place is released whatever
Redis says.

When a worker's connection breaks, its channel puts the messages it had taken but not finished
back on their queues. With the broker silent, that fails too, and kombu leaves them in the
unacked index until the visibility timeout passes (15 minutes: longer than any task may run), so
a job taken just before a stall would wait that long. Here the process remembers which messages
it failed to put back and puts them back as soon as it has a broker again (its next channel).
Each is still in the unacked index, and restoring one that another worker restored meanwhile
does nothing; every job is idempotent, so one that ran before its acknowledgement was lost may
run again, which is safe.
"""

import logging

from kombu.transport import redis, virtual

logger = logging.getLogger(__name__)

# Delivery tags of messages this process had taken and could not put back when its connection
# broke (see the module's docstring).
_unrestored: set[str] = set()


class QoS(redis.QoS):
    def ack(self, delivery_tag):
        try:
            self._remove_from_indices(delivery_tag).execute()
        finally:
            virtual.QoS.ack(self, delivery_tag)

    def restore_unacked(self, client=None):
        tags = set(self._delivered)
        try:
            super().restore_unacked(client)
        except self.channel.connection_errors:
            _unrestored.update(tags)
            self._delivered.clear()
            raise

    def restore_unrestored(self) -> None:
        """Put back the messages an earlier connection could not; stop at a broker error (the
        rest wait for the next channel)."""
        for tag in list(_unrestored):
            try:
                self.restore_by_tag(tag)
            except self.channel.connection_errors:
                return
            _unrestored.discard(tag)
            logger.info("put back on its queue a message taken before the broker was lost")


class Channel(redis.Channel):
    QoS = QoS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if _unrestored:
            self.qos.restore_unrestored()


class Transport(redis.Transport):
    Channel = Channel
