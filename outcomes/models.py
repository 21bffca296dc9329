"""The outcome ledger (the seed's ``agent_outcomes``): one row per finished task attempt."""

from django.db import models
from django.db.models.functions import Now

from config.api.models import written_by_key
from failures.models import Failure, FailurePattern


class Outcome(models.Model):
    """How one attempt at a task ended, with what the agent knew (context) and did (result)."""

    class Result(models.TextChoices):
        SUCCESS = "success"
        FAILURE = "failure"

    # The client's id for this event: a replay with the same id changes nothing.
    event_id = models.UUIDField(null=True, blank=True, unique=True)
    # Digest of the request that carried event_id, so a reused id with another body is a 409.
    digest = models.CharField(max_length=32, blank=True)
    task_id = models.CharField(max_length=200)
    agent = models.CharField(max_length=100)  # the seed's agent_name
    task_type = models.CharField(max_length=100)
    outcome = models.CharField(max_length=7, choices=Result.choices)
    context = models.JSONField(default=dict, blank=True)  # the seed's context_json
    result = models.JSONField(default=dict, blank=True)  # the seed's result_json
    duration_ms = models.PositiveBigIntegerField(null=True, blank=True)
    occurred_at = models.DateTimeField()  # the seed's created_at: when it happened
    recorded_at = models.DateTimeField(db_default=Now())
    # Copied out of context so history and insights filter on an indexed column.
    error_type = models.CharField(max_length=100, blank=True)
    # A failed outcome with an error message: its failure record and that failure's pattern.
    # Indexed only where set (see Meta): a plain index on these would hold an entry for each of
    # the ~80% of outcomes that have none, and every insert would pay for it.
    failure = models.ForeignKey(
        Failure,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="outcomes",
        db_index=False,
    )
    pattern = models.ForeignKey(
        FailurePattern,
        null=True,
        blank=True,
        db_index=False,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A success closes the task's open failures: how many this one closed.
    resolved_failures = models.PositiveIntegerField(default=0)
    # What the agent ran when it happened: its own version (a semver, a git sha, a tag), the model
    # behind it and its prompts' version; blank when not sent. Releases are judged from these
    # (outcomes.releases); defaults in the database too, for rows written by SQL of its own.
    release = models.CharField(max_length=100, blank=True, default="", db_default="")
    model = models.CharField(max_length=100, blank=True, default="", db_default="")
    prompt_version = models.CharField(max_length=100, blank=True, default="", db_default="")
    api_key = written_by_key()

    class Meta:
        indexes = [
            # History: an agent's latest successes or failures, optionally of one task type.
            models.Index(
                fields=["agent", "outcome", "-occurred_at"], name="outcome_agent_recent_idx"
            ),
            models.Index(
                fields=["agent", "task_type", "outcome", "-occurred_at"],
                name="outcome_agent_type_recent_idx",
            ),
            # Insights per task type; related tasks by error type, pattern and task id.
            models.Index(fields=["task_type", "-occurred_at"], name="outcome_type_recent_idx"),
            models.Index(
                fields=["error_type", "-occurred_at"],
                name="outcome_error_recent_idx",
                condition=~models.Q(error_type=""),
            ),
            models.Index(
                fields=["pattern", "-occurred_at"],
                name="outcome_pattern_recent_idx",
                condition=models.Q(pattern__isnull=False),
            ),
            models.Index(fields=["task_id", "-occurred_at"], name="outcome_task_recent_idx"),
            # Stats over a window, and retention.
            models.Index(fields=["occurred_at"], name="outcome_occurred_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(outcome__in=["success", "failure"]),
                name="outcome_outcome_valid",
            ),
            # One outcome per failure record (the event they both came from).
            models.UniqueConstraint(
                fields=["failure"],
                condition=models.Q(failure__isnull=False),
                name="outcome_failure_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent}/{self.task_id}: {self.outcome}"


class OutcomeFile(models.Model):
    """A file an outcome touched or was about: related tasks are found through shared files."""

    outcome = models.ForeignKey(Outcome, on_delete=models.CASCADE, related_name="files")
    path = models.CharField(max_length=300)
    occurred_at = models.DateTimeField()  # the outcome's, so the lookup needs no join

    class Meta:
        indexes = [models.Index(fields=["path", "-occurred_at"], name="outcome_file_recent_idx")]

    def __str__(self) -> str:
        return self.path


class HistoryGeneration(models.Model):
    """An agent's history generation: a token replaced in the transaction of each new outcome of
    the agent, and part of the key of every cached history of it (see outcomes.cache)."""

    agent = models.CharField(max_length=100, primary_key=True)
    token = models.UUIDField()

    def __str__(self) -> str:
        return f"{self.agent}: {self.token}"


class SpanRejection(models.Model):
    """Spans of one OpenTelemetry export refused for one reason: how many, and one refusal in
    full. Exporters never show the answer's partial success to anyone, so staff see these on
    the dashboard (outcomes.otlp)."""

    at = models.DateTimeField()
    reason = models.CharField(max_length=200)  # a few words, no values: what groups refusals
    count = models.PositiveIntegerField()
    example = models.TextField()  # one span's refusal as the answer gave it (scrubbed)
    api_key = written_by_key()

    class Meta:
        # The dashboard's last day; retention deletes by age too.
        indexes = [models.Index(fields=["at"], name="span_rejection_at_idx")]

    def __str__(self) -> str:
        return f"{self.reason}: {self.count}"
