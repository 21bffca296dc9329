"""Remembered answers of event ids, and pruning them."""

import io
import uuid
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.api.idempotency import request_digest
from config.api.models import IdempotencyRecord
from config.api.services import idempotency_prune

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
