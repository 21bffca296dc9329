"""The Celery broker's transport: kombu's Redis transport, with an acknowledgement that cannot
stop a worker for good.

kombu's Redis QoS removes a message from its unacked index in Redis before it releases the
message's place in the worker's prefetch window. When that Redis call fails (the broker stalled
or gone), the place is never released and Celery only logs the error: with a prefetch of one, the
worker keeps answering pings but never takes another message. Here the place is released whatever
Redis says. A message whose acknowledgement was lost stays in the unacked index and is delivered
again once the visibility timeout passes; every job is idempotent, so running it twice is safe.
"""

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def ack(self, delivery_tag):
        try:
            self._remove_from_indices(delivery_tag).execute()
        finally:
            virtual.QoS.ack(self, delivery_tag)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
