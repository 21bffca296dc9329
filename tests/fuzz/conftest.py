"""Fixtures of the schema fuzzing: the API called in process through the WSGI application."""

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections


@pytest.fixture
def in_process():
    """Requests run in the test's thread: keep its database connection open between them
    (Django closes it around each request, as a server would, which would end the test's own
    transaction)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
