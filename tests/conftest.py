"""Fixtures shared by every test folder: API keys and clients that use them."""
import pytest
from rest_framework.test import APIClient

from config.api.services import api_key_create


@pytest.fixture
def make_key(db):
    """Create a key and return its raw value."""

    def make(scope: str = "write", name: str = "test-agent") -> str:
        return api_key_create(name=name, scope=scope).raw

    return make


def _client(raw: str | None) -> APIClient:
    client = APIClient()
    if raw:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


@pytest.fixture
def api(make_key) -> APIClient:
    """A client holding a write key."""
    return _client(make_key("write"))


@pytest.fixture
def read_api(make_key) -> APIClient:
    """A client holding a read key."""
    return _client(make_key("read", name="reader"))


@pytest.fixture
def anon_api(db) -> APIClient:
    """A client with no key."""
    return _client(None)
