"""Writes of the API frame: creating and revoking keys, pruning remembered answers."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .keys import SHOWN_CHARS, key_digest, key_generate
from .models import ApiKey, IdempotencyRecord


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    raw: str  # shown once to whoever created it, never stored


def api_key_create(
    *, name: str, scope: str, created_by=None, agent_patterns: Sequence[str] = ()
) -> CreatedKey:
    """Create a key and return it with its raw value, which is not kept anywhere. With
    ``agent_patterns`` (globs) the key writes only for the agents they match; without, for any.
    Only a write key takes patterns (ApiKey.clean)."""
    if scope not in ApiKey.Scope.values:
        raise ValueError(f"scope must be one of {', '.join(ApiKey.Scope.values)}")
    raw = key_generate()
    key = ApiKey(
        name=name,
        scope=scope,
        prefix=raw[:SHOWN_CHARS],
        digest=key_digest(raw),
        created_by=created_by,
        agent_patterns=list(dict.fromkeys(agent_patterns)),
    )
    try:
        key.full_clean(exclude=["digest", "prefix", "created_by"], validate_unique=False)
    except ValidationError as exc:
        raise ValueError(
            "; ".join(f"{field}: {' '.join(errors)}" for field, errors in exc.message_dict.items())
        ) from None
    with transaction.atomic():
        key.save(force_insert=True)
    return CreatedKey(key=key, raw=raw)


def api_key_revoke(*, key: ApiKey) -> ApiKey:
    """Revoke a key; from now on it answers 401. Revoking twice keeps the first time."""
    ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    key.refresh_from_db()
    return key


# Rows deleted per statement when pruning: small enough that no statement holds locks for long.
PRUNE_BATCH = 5_000


def idempotency_prune(*, older_than_days: int) -> int:
    """Forget the answers of writes older than ``older_than_days``; return how many.

    A client retrying a write after that long would record it again, so keep this longer than
    any client's spool or retry horizon.
    """
    cutoff = timezone.now() - timedelta(days=older_than_days)
    deleted = 0
    while True:
        batch = list(
            IdempotencyRecord.objects.filter(created_at__lt=cutoff).values_list("pk", flat=True)[
                :PRUNE_BATCH
            ]
        )
        if not batch:
            return deleted
        deleted += IdempotencyRecord.objects.filter(pk__in=batch).delete()[0]
