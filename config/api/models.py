"""Tables of the API frame: agents' API keys and the answers kept for idempotent replays."""
from django.db import models


class ApiKey(models.Model):
    """A key an agent sends as ``Authorization: Bearer <key>``; only its digest is stored."""

    class Scope(models.TextChoices):
        READ = "read", "read"
        WRITE = "write", "write (implies read)"

    name = models.CharField(max_length=100)
    scope = models.CharField(max_length=5, choices=Scope.choices, default=Scope.READ)
    # The first characters of the key, shown in the admin so a human can tell keys apart.
    prefix = models.CharField(max_length=16, editable=False)
    # SHA-256 of the whole key. Keys carry 256 random bits, so a fast unsalted digest is enough:
    # there is nothing to brute-force, and the lookup stays one indexed read per request.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "API key"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.scope})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def can_write(self) -> bool:
        return self.scope == self.Scope.WRITE


class IdempotencyRecord(models.Model):
    """The first answer to a write that carried a client ``event_id``; replays get it back."""

    event_id = models.UUIDField(primary_key=True)
    # Which operation the id was used for, and a digest of its body: the same id with another
    # operation or body is a conflict, not a replay.
    operation = models.CharField(max_length=64)
    request_digest = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "idempotency record"
