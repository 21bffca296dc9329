"""Replays of a write with the same client ``event_id`` return the first answer and change nothing.

A view wraps its whole answer, the service call and the shaping of its result, in
``idempotent_response``: the service and the record of its answer commit together, and a replay
answers the stored status and body without calling the service.
"""

import hashlib
import json
from collections.abc import Callable
from uuid import UUID

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from rest_framework.response import Response

from config.errors import Conflict

from .models import IdempotencyRecord

Answer = tuple[int, dict]
# Set on an answer that is a replay of an earlier one, so a client can tell without comparing.
REPLAY_HEADER = "Idempotent-Replayed"


def replay_headers(replayed: bool) -> dict | None:
    """Response headers for an answer that may be a replay."""
    return {REPLAY_HEADER: "true"} if replayed else None


def idempotent_response(
    *, operation: str, event_id: UUID | None, payload: dict, answer: Callable[[], Answer]
) -> Response:
    """The response of ``answer`` (a view's ``(status, body)``), computed once per event id:
    a replay answers the first status and body, with the replay header."""
    status, body, replayed = run_idempotent(
        operation=operation, event_id=event_id, payload=payload, action=answer
    )
    return Response(body, status=status, headers=replay_headers(replayed))


def _canonical(value) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, separators=(",", ":"))


def request_digest(payload: dict) -> str:
    """Digest of what was sent (a request's body, or one outcome of a bulk write) without its
    event_id, independent of key order: 128 bits of BLAKE2b in hex. The service's one digest of
    a request: idempotency records and the outcome ledger's events both keep it."""
    body = {k: v for k, v in payload.items() if k != "event_id"}
    return hashlib.blake2b(_canonical(body).encode("utf-8"), digest_size=16).hexdigest()


# The length of a digest stored before the request digest was one (SHA-256 in hex).
LEGACY_DIGEST_LENGTH = 64


def _same_request(stored: str, payload: dict) -> bool:
    """Whether a stored digest is ``payload``'s. A record written before the digest was one
    (SHA-256, 64 hex digits) is compared as it was made, so its replay is still a replay; such
    records are pruned after 30 days (prune-idempotency), and this comparison with them."""
    if len(stored) == LEGACY_DIGEST_LENGTH:
        body = {k: v for k, v in payload.items() if k != "event_id"}
        return stored == hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()
    return stored == request_digest(payload)


def run_idempotent(
    *, operation: str, event_id: UUID | None, payload: dict, action: Callable[[], Answer]
) -> tuple[int, dict, bool]:
    """Run ``action`` once per event id, in one transaction with the record of its answer.

    Returns ``(status, body, replayed)``. A concurrent duplicate waits on the primary key of the
    first one's uncommitted record, then reads its committed answer: exactly one of them writes.
    """
    if event_id is None:
        with transaction.atomic():
            status, body = action()
        return status, body, False
    digest = request_digest(payload)
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    event_id=event_id,
                    operation=operation,
                    request_digest=digest,
                    status_code=0,
                    response={},
                )
        except IntegrityError:
            return _replay(event_id=event_id, operation=operation, payload=payload)
        status, body = action()
        # Store and return the JSON form, so the first answer and every replay are identical.
        body = json.loads(_canonical(body))
        record.status_code, record.response = status, body
        record.save(update_fields=["status_code", "response"])
    return status, body, False


def _replay(*, event_id: UUID, operation: str, payload: dict) -> tuple[int, dict, bool]:
    record = IdempotencyRecord.objects.get(event_id=event_id)
    if record.operation != operation or not _same_request(record.request_digest, payload):
        raise Conflict(
            f"event_id {event_id} was already used for a different request; "
            "send a new event_id for a new event."
        )
    return record.status_code, record.response, True
