"""Writes of the API frame: creating and revoking keys."""
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .keys import SHOWN_CHARS, key_digest, key_generate
from .models import ApiKey


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    raw: str  # shown once to whoever created it, never stored


def api_key_create(*, name: str, scope: str, created_by=None) -> CreatedKey:
    """Create a key and return it with its raw value, which is not kept anywhere."""
    if scope not in ApiKey.Scope.values:
        raise ValueError(f"scope must be one of {', '.join(ApiKey.Scope.values)}")
    raw = key_generate()
    with transaction.atomic():
        key = ApiKey.objects.create(
            name=name, scope=scope, prefix=raw[:SHOWN_CHARS], digest=key_digest(raw),
            created_by=created_by,
        )
    return CreatedKey(key=key, raw=raw)


def api_key_revoke(*, key: ApiKey) -> ApiKey:
    """Revoke a key; from now on it answers 401. Revoking twice keeps the first time."""
    ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    key.refresh_from_db()
    return key
