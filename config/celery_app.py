"""The Celery application. Without ``REDIS_URL`` tasks run eagerly in process (embedded mode)."""

import os

from celery import Celery
from celery.signals import celeryd_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("hindsight")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def _worker_broker_options(conf, **kwargs) -> None:
    """A worker talks to the broker with patience; publishers keep the short timeouts."""
    from django.conf import settings

    conf.broker_transport_options = settings.HINDSIGHT_WORKER_BROKER_TRANSPORT_OPTIONS
