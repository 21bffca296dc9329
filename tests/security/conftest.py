"""Fixtures of the security tests: one client per kind of caller, and API request bodies."""

import uuid

import pytest
from rest_framework.test import APIClient

from config.api.services import api_key_create, api_key_revoke
from tests.conftest import bearer


@pytest.fixture
def principals(db, django_user_model) -> dict[str, APIClient]:
    """Every kind of caller: no credentials, a read / write / revoked key, a staff member and a
    signed-in user who is not staff (both with a session, and no key), and a write key bound
    to the agents ``builder-*``."""
    revoked = api_key_create(name="revoked", scope="write")
    api_key_revoke(key=revoked.key)
    # The staff member curates: staff with every permission, as the admins of a deployment are.
    staff = django_user_model.objects.create_user("curator", is_staff=True, is_superuser=True)
    plain = django_user_model.objects.create_user("plain")
    clients = {
        "anon": bearer(None),
        "read": bearer(api_key_create(name="reader", scope="read").raw),
        "write": bearer(api_key_create(name="writer", scope="write").raw),
        "revoked": bearer(revoked.raw),
        "staff": APIClient(),
        "user": APIClient(),
        "bound": bearer(
            api_key_create(name="builders", scope="write", agent_patterns=["builder-*"]).raw
        ),
    }
    clients["staff"].force_login(staff)
    clients["user"].force_login(plain)
    return clients


def lesson_body(**fields) -> dict:
    """A new lesson, unique on every call (error_pattern is unique)."""
    return {
        "error_pattern": f"p-{uuid.uuid4().hex[:12]}",
        "error_type": "timeout",
        "resolution": "wait and retry",
        **fields,
    }


def outcome_body(**fields) -> dict:
    return {
        "task_id": "t-1",
        "agent": "agent-1",
        "task_type": "sync",
        "outcome": "success",
        **fields,
    }


def failure_body(**fields) -> dict:
    return {
        "agent": "agent-1",
        "task": "t-1",
        "error": "Twilio API timeout after 30 seconds",
        "error_type": "timeout",
        **fields,
    }
