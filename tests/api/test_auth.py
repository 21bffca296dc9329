"""API keys: bearer authentication, scopes, revocation, and the command that creates them."""

import hashlib
import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from config.api.models import ApiKey
from config.api.services import api_key_create, api_key_revoke

LESSON = {"error_pattern": "p1", "error_type": "timeout", "resolution": "wait"}


def test_no_key_is_401_in_the_error_shape(anon_api):
    response = anon_api.get("/api/v1/lessons")
    assert response.status_code == 401
    assert response.json() == {
        "error": "Authentication credentials were not provided.",
        "fields": {},
    }
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header",
    [
        "Bearer hsk_not-a-real-key",
        "Bearer",
        "Bearer a b",
        "Bearer " + "x" * 5000,
    ],
)
def test_bad_keys_are_401(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/lessons")
    assert response.status_code == 401
    assert set(response.json()) == {"error", "fields"}


def test_other_schemes_are_anonymous(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert client.get("/api/v1/lessons").status_code == 401


def test_revoked_key_is_401(db):
    created = api_key_create(name="gone", scope="write")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {created.raw}")
    assert client.get("/api/v1/lessons").status_code == 200
    api_key_revoke(key=created.key)
    assert client.get("/api/v1/lessons").status_code == 401


def test_read_key_reads_but_cannot_write(read_api):
    assert read_api.get("/api/v1/lessons").status_code == 200
    assert read_api.get("/api/v1/lessons/check", {"error_type": "x"}).status_code == 200
    response = read_api.post("/api/v1/lessons", LESSON, format="json")
    assert response.status_code == 403
    assert "write scope" in response.json()["error"]


def test_write_key_reads_and_writes(api):
    assert api.post("/api/v1/lessons", LESSON, format="json").status_code == 201
    assert api.get("/api/v1/lessons").json()["total"] == 1


def test_key_is_stored_only_as_a_digest(db):
    created = api_key_create(name="agent", scope="read")
    row = ApiKey.objects.get(pk=created.key.pk)
    assert row.digest == hashlib.sha256(created.raw.encode()).hexdigest()
    assert created.raw not in {row.name, row.prefix, row.digest}
    assert created.raw.startswith(row.prefix) and len(row.prefix) < len(created.raw) // 2


def test_last_used_is_recorded(api):
    api.get("/api/v1/lessons")
    assert ApiKey.objects.get().last_used_at is not None


def test_apikey_command_prints_the_raw_key_alone_on_its_last_line(db):
    out, err = io.StringIO(), io.StringIO()
    call_command("apikey", "create", "ci-agent", "--scope", "write", stdout=out, stderr=err)
    raw = out.getvalue().strip().splitlines()[-1]
    assert raw.startswith("hsk_") and " " not in raw
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert client.post("/api/v1/lessons", LESSON, format="json").status_code == 201
    key = ApiKey.objects.get(name="ci-agent")
    assert key.scope == "write"

    call_command("apikey", "revoke", key.prefix, stdout=io.StringIO())
    assert client.get("/api/v1/lessons").status_code == 401


def test_admin_needs_a_staff_login(client, django_user_model):
    assert client.get("/admin/lessons/lesson/").status_code == 302
    django_user_model.objects.create_user("plain", password="pw-123456789")
    client.login(username="plain", password="pw-123456789")
    assert client.get("/admin/lessons/lesson/").status_code == 302
    django_user_model.objects.create_superuser("boss", password="pw-123456789")
    client.login(username="boss", password="pw-123456789")
    assert client.get("/admin/lessons/lesson/").status_code == 200


def test_admin_creates_a_key_and_shows_it_once(admin_client):
    response = admin_client.post(
        "/admin/api/apikey/add/", {"name": "from-admin", "scope": "read"}, follow=True
    )
    assert response.status_code == 200
    key = ApiKey.objects.get(name="from-admin")
    shown = [str(m) for m in response.context["messages"]]
    assert any(key.prefix in m for m in shown)
    raw = next(m for m in shown if key.prefix in m).split("<code>")[1].split("</code>")[0]
    assert hashlib.sha256(raw.encode()).hexdigest() == key.digest
    # Later pages never show it again.
    assert raw not in admin_client.get(f"/admin/api/apikey/{key.pk}/change/").content.decode()


def test_admin_revokes_keys(admin_client):
    created = api_key_create(name="to-revoke", scope="write")
    admin_client.post(
        "/admin/api/apikey/",
        {
            "action": "revoke",
            "_selected_action": [created.key.pk],
        },
    )
    assert ApiKey.objects.get(pk=created.key.pk).revoked_at is not None
