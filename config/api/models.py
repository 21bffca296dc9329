"""Tables of the API frame: agents' API keys and the answers kept for idempotent replays."""

from django.core.exceptions import ValidationError
from django.db import models

# As long as the longest agent name an agent may send.
MAX_AGENT_PATTERN = 100


def agent_patterns_validate(value) -> None:
    """A list of printable globs: a blank or control character, or a pattern longer than any
    agent name, would bind the key to names no agent sends."""
    if not isinstance(value, list) or not all(isinstance(pattern, str) for pattern in value):
        raise ValidationError("Agent patterns must be a list of glob strings.")
    for pattern in value:
        if not pattern.strip() or not pattern.isprintable() or len(pattern) > MAX_AGENT_PATTERN:
            raise ValidationError(
                f"An agent pattern must be printable text of 1 to {MAX_AGENT_PATTERN} "
                f"characters, not blank: {pattern[:MAX_AGENT_PATTERN]!r}."
            )


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
    # Glob patterns (``builder-*``) of the agents this key may write for; empty: a fleet key,
    # which may write for any agent. Read on every write from the row authentication loaded.
    agent_patterns = models.JSONField(
        default=list,
        blank=True,
        validators=[agent_patterns_validate],
        help_text="Glob patterns, comma-separated (builder-*, ci-?); empty: a fleet key.",
    )
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "API key"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.scope})"

    def clean(self):
        # Reads are never bound: agent patterns on a read key would promise a limit it lacks.
        if self.scope == self.Scope.READ and self.agent_patterns:
            raise ValidationError(
                {
                    "agent_patterns": (
                        "A read key cannot be bound to agents: every key reads the whole fleet. "
                        "Leave the agents out, or bind a write key."
                    )
                }
            )

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

    def __str__(self) -> str:
        return f"{self.operation} {self.event_id}"


def written_by_key() -> models.ForeignKey:
    """The column of an agent-written row that names the API key which wrote it.

    Keys are revoked, never deleted (the admin forbids it), so PROTECT: deleting a key that
    wrote rows is refused rather than leaving them unattributed. Django enforces it, not the
    database: a database foreign key would check every inserted row against the one key row,
    and take a share lock on it, that every concurrent writer with that key contends for. No
    index either: every write would pay for it, and the only reader is the admin's filter.
    Null: rows written before keys were recorded, and by the admin, jobs and commands."""
    return models.ForeignKey(
        ApiKey,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        db_constraint=False,
        db_index=False,
        related_name="+",
        verbose_name="written by key",
    )
