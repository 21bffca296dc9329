"""Remembered answers of event ids, and pruning them."""

import ast
import hashlib
import io
import json
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.api.idempotency import request_digest
from config.api.models import IdempotencyRecord
from config.api.services import idempotency_prune
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def remember(age_days: int) -> IdempotencyRecord:
    record = IdempotencyRecord.objects.create(
        event_id=uuid.uuid4(), operation="x", request_digest="d", status_code=201, response={}
    )
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        created_at=timezone.now() - timedelta(days=age_days)
    )
    return record


def test_prune_forgets_only_old_answers():
    old, recent = remember(40), remember(3)
    assert idempotency_prune(older_than_days=30) == 1
    assert list(IdempotencyRecord.objects.values_list("pk", flat=True)) == [recent.pk]
    assert not IdempotencyRecord.objects.filter(pk=old.pk).exists()


def test_prune_command():
    remember(100)
    out = io.StringIO()
    call_command("prune_idempotency", "--older-than", "30", stdout=out)
    assert "Forgot 1 answer(s)" in out.getvalue()


def test_digest_ignores_key_order_and_event_id():
    assert request_digest({"a": 1, "b": [1, 2], "event_id": "x"}) == request_digest(
        {"b": [1, 2], "a": 1}
    )
    assert request_digest({"a": 1}) != request_digest({"a": 2})


# An outcome as an agent sends it, and its digest as the ledger has stored it since digests were
# first kept: a change of the canonical form or of the hash would turn every stored event's replay
# into a 409.
SENT = {
    "event_id": "0b8f6a52-3d64-4bd0-a5a8-1f0a4f6c2d11",
    "task_id": "t-1",
    "agent": "coder",
    "task_type": "deploy",
    "outcome": "failure",
    "context": {"error_message": "Connection refused", "files": ["a.py", "é.py"]},
    "duration_ms": 1200,
}
SENT_DIGEST = "b9ab51724eae41b1fa8688f75f53e33b"


def test_the_digest_of_what_was_sent_is_the_one_the_ledger_stored():
    assert request_digest(SENT) == SENT_DIGEST


def test_the_request_digest_is_written_once():
    """One definition, used by the idempotency records and the outcome ledger alike."""
    defined = [
        f"{path.relative_to(ROOT)}:{node.name}"
        for package in ("config", "failures", "lessons", "outcomes", "answers", "alerts")
        for path in (ROOT / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef) and "digest" in node.name and "request" in node.name
    ]
    assert defined == ["config/api/idempotency.py:request_digest"]


def test_a_record_stored_with_the_earlier_digest_still_replays(api):
    """Records written before the digest was one hold a SHA-256 of the body: a replay of such an
    event answers as a replay, another body under its id is still a conflict."""
    body = {"error_pattern": "legacy_digest", "error_type": "timeout", "resolution": "wait"}
    event_id = str(uuid.uuid4())
    legacy = hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    IdempotencyRecord.objects.create(
        event_id=event_id,
        operation="lesson_record",
        request_digest=legacy,
        status_code=201,
        response={"first": "answer"},
    )
    replay = api.post("/api/v1/lessons", {**body, "event_id": event_id}, format="json")
    assert replay.status_code == 201 and replay.json() == {"first": "answer"}
    assert replay["Idempotent-Replayed"] == "true"
    other = api.post(
        "/api/v1/lessons", {**body, "resolution": "other", "event_id": event_id}, format="json"
    )
    assert other.status_code == 409
