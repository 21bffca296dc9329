"""Failure records (the seed's failure sublayer), the message templates and the patterns they form,
and what the scheduled jobs keep: their watermarks, root-cause groups, regressions and reports."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models.functions import Now

from config.api.models import written_by_key
from config.formats import moment_shown, shortened
from failures.analysis import recurrence
from failures.releases import rule as releases


class FailurePattern(models.Model):
    """One fault, possibly with many shapes: the merged template of the templates linked to it."""

    class Status(models.TextChoices):
        """A curator's triage (failures.store.triage): resolved reopens when the pattern fails
        again; ignored stays until a curator reopens it; snoozed lasts until ``snoozed_until``."""

        OPEN = "open"
        RESOLVED = "resolved"
        IGNORED = "ignored"
        SNOOZED = "snoozed"

    fingerprint = models.CharField(max_length=32, unique=True)
    template = models.TextField()
    error_type = models.CharField(max_length=100, blank=True)
    # Number of tokens and the first token of the template: candidates for a cover match (a
    # pattern whose variables cover a new template) must agree on both, so the write path
    # looks at a handful of rows instead of every pattern.
    token_count = models.PositiveIntegerField()
    head = models.CharField(max_length=200)
    first_seen = models.DateTimeField(db_default=Now())
    last_seen = models.DateTimeField(db_default=Now())
    event_count = models.PositiveBigIntegerField(default=0)
    agent_count = models.PositiveIntegerField(default=0)
    task_count = models.PositiveIntegerField(default=0)
    # Retry history, kept as counters so retry advice is one row read, not a scan of failures:
    # how many of its failures were later resolved by a success, how many were reported unsafe
    # to retry, and the latest retry_after an agent reported.
    resolved_count = models.PositiveBigIntegerField(default=0)
    unsafe_count = models.PositiveBigIntegerField(default=0)
    retry_after = models.PositiveIntegerField(null=True, blank=True)
    # A pattern merged into another stays as an alias, so ids and fingerprints handed out
    # before the merge still resolve.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="aliases"
    )
    # The open (suggested or confirmed) root-cause group it belongs to, kept by the root-cause
    # job and the decisions (failures.analysis.rootcauses): the failure answer and the boot
    # briefing read it with the pattern, and look further only when it is set.
    root_cause_group = models.ForeignKey(
        "RootCauseGroup",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="open_patterns",
    )
    status = models.CharField(
        "triage", max_length=8, choices=Status.choices, default=Status.OPEN, editable=False
    )
    snoozed_until = models.DateTimeField(null=True, blank=True, editable=False)
    triaged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    triaged_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        permissions = [
            ("merge_failurepattern", "Can merge and unmerge failure patterns"),
            ("triage_failurepattern", "Can resolve, ignore, snooze and reopen failure patterns"),
            # The dashboard reads every app; it hangs here, with the patterns it is built on.
            ("view_dashboard", "Can view the fleet dashboard"),
        ]
        indexes = [
            models.Index(
                fields=["token_count", "head"],
                name="pattern_cover_idx",
                condition=models.Q(merged_into__isnull=True),
            ),
            models.Index(fields=["-last_seen"], name="pattern_recent_idx"),
            # The dashboard's candidates for the top patterns and the curation queue: live
            # patterns, most failures first, read in order instead of sorting every pattern.
            models.Index(
                fields=["-event_count", "id"],
                name="pattern_frequent_idx",
                condition=models.Q(merged_into__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return shortened(self.template, 120)


# Ids are bigints: a larger number names no row (and PostgreSQL refuses to compare with it).
MAX_ID = 2**63 - 1


def pattern_ref(pattern) -> dict:
    """How an answer names a pattern (the API's PatternRef): id, fingerprint and template, of a
    FailurePattern or of a row read with those attributes (boot's)."""
    return {"id": pattern.pk, "fingerprint": pattern.fingerprint, "template": pattern.template}


class FailureTemplate(models.Model):
    """A normalised message shape (``template_of``) and the pattern it belongs to."""

    fingerprint = models.CharField(max_length=32, unique=True)
    template = models.TextField()
    pattern = models.ForeignKey(FailurePattern, on_delete=models.CASCADE, related_name="templates")
    created_at = models.DateTimeField(db_default=Now())

    def __str__(self) -> str:
        return shortened(self.template, 120)


# The error type of a failure recorded without one: it names no type.
UNKNOWN_ERROR_TYPE = "unknown"


class Failure(models.Model):
    """What an agent tried, why it failed, whether a retry is safe and what it left behind."""

    class Status(models.TextChoices):
        OPEN = "open"
        RESOLVED = "resolved"
        ABANDONED = "abandoned"

    occurred_at = models.DateTimeField()  # the seed's "timestamp"
    recorded_at = models.DateTimeField(db_default=Now())
    agent = models.CharField(max_length=100)
    task = models.CharField(max_length=200)
    task_description = models.TextField(blank=True)
    task_type = models.CharField(max_length=100, blank=True)
    skill_name = models.CharField(max_length=100, blank=True)
    title = models.CharField(max_length=200, blank=True)
    error = models.TextField()
    error_type = models.CharField(max_length=100)
    retry_safe = models.BooleanField(null=True)  # None: unknown
    retry_after = models.PositiveIntegerField(null=True, blank=True)  # seconds
    side_effects = models.JSONField(default=list, blank=True)
    recovery_hint = models.TextField(blank=True)
    attempt_count = models.PositiveIntegerField(default=1)
    checkpoint = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    resolved_at = models.DateTimeField(null=True, blank=True)
    pattern = models.ForeignKey(FailurePattern, on_delete=models.PROTECT, related_name="failures")
    api_key = written_by_key()
    # From OpenTelemetry: the span that recorded it, its exception's digest (type and message)
    # and its ancestors' span ids as far as they are known, nearest first, so that the same
    # exception on an ancestor, in this export or a later one, is not a second failure
    # (outcomes.otlp.faults). Blank (lineage null) for failures sent otherwise; defaults in the
    # database too, for rows written by SQL of its own (bulk loads).
    trace_id = models.CharField(
        max_length=32, blank=True, default="", db_default="", editable=False
    )
    span_id = models.CharField(
        max_length=16, blank=True, default="", db_default="", editable=False
    )
    fault = models.CharField(max_length=32, blank=True, default="", db_default="", editable=False)
    lineage = ArrayField(models.CharField(max_length=16), null=True, blank=True, editable=False)
    # The span whose gen_ai.agent.name gave the agent (blank: the resource's or service's name),
    # so that a nearer named ancestor arriving in a later export re-files the failure under its
    # agent, and a farther one does not.
    agent_span = models.CharField(
        max_length=16, blank=True, default="", db_default="", editable=False
    )
    # What the agent ran when it happened: its own version (a semver, a git sha, a tag), the model
    # behind it and its prompts' version; blank when not sent. Releases are judged from these
    # (outcomes.releases); defaults in the database too, for rows written by SQL of its own.
    release = models.CharField(max_length=100, blank=True, default="", db_default="")
    model = models.CharField(max_length=100, blank=True, default="", db_default="")
    prompt_version = models.CharField(max_length=100, blank=True, default="", db_default="")

    class Meta:
        indexes = [
            # OpenTelemetry: a trace's failures stored by earlier exports.
            models.Index(
                fields=["trace_id"], name="failure_trace_idx", condition=~models.Q(trace_id="")
            ),
            # Boot: one agent's recent failures, newest first; and its open ones.
            models.Index(fields=["agent", "-occurred_at"], name="failure_agent_recent_idx"),
            models.Index(
                fields=["agent", "task"],
                name="failure_agent_task_open_idx",
                condition=models.Q(status="open"),
            ),
            # Boot reads an agent's newest open failures: ordered by this index, PostgreSQL
            # stops after the cap instead of sorting every open row of a busy agent.
            models.Index(
                fields=["agent", "-occurred_at", "-id"],
                name="failure_agent_open_recent_idx",
                condition=models.Q(status="open"),
            ),
            # Boot with a task type: the agent's recent failures of the type, and its newest
            # open ones, each one range of an index in the order boot reads them.
            models.Index(
                fields=["agent", "task_type", "-occurred_at", "-id"],
                name="failure_agent_type_recent_idx",
            ),
            models.Index(
                fields=["agent", "task_type", "-occurred_at", "-id"],
                name="failure_agent_type_open_idx",
                condition=models.Q(status="open"),
            ),
            # Fleet scope and task-type filters.
            models.Index(fields=["task_type", "-occurred_at"], name="failure_type_recent_idx"),
            # Per-pattern counts (distinct agents and tasks) and retry history.
            models.Index(fields=["pattern", "agent"], name="failure_pattern_agent_idx"),
            models.Index(fields=["pattern", "task"], name="failure_pattern_task_idx"),
            # The list's keyset pagination.
            models.Index(fields=["-occurred_at", "-id"], name="failure_recent_idx"),
            # The dashboard's daily counts of a few patterns over a window: an index-only
            # range scan per pattern instead of visiting every row the pattern ever had.
            models.Index(fields=["pattern", "occurred_at"], name="failure_pattern_time_idx"),
            # The dashboard's fleet-wide loops: the last day's open failures read from the index
            # alone (a few percent of the rows, so a small index).
            models.Index(
                fields=["-occurred_at"],
                include=["agent", "task", "pattern"],
                name="failure_open_covering_idx",
                condition=models.Q(status="open"),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(attempt_count__gte=1), name="failure_attempt_count_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent}/{self.task}: {shortened(self.error, 80)}"


# --- scheduled jobs: where they got to, root causes, regressions, reports ------------------------


class JobState(models.Model):
    """Where a periodic job got to: the ids it has fully processed, and when it last ran."""

    name = models.CharField(max_length=50, unique=True)
    # Every FailureTemplate / Failure with an id at or below these was processed (see
    # failures.store.jobstate for why the mark trails the newest rows a little).
    template_watermark = models.PositiveBigIntegerField(default=0)
    failure_watermark = models.PositiveBigIntegerField(default=0)
    ran_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name

    @classmethod
    def locked(cls, name: str) -> "JobState":
        """The job's state row, created when missing and locked until the caller's transaction
        ends, so two runs of one job (an overlapping beat, a manual command) take turns."""
        cls.objects.get_or_create(name=name)
        return cls.objects.select_for_update().get(name=name)


class RootCauseGroup(models.Model):
    """Patterns that look like one root cause with different symptoms, and why (evidence)."""

    class Status(models.TextChoices):
        SUGGESTED = "suggested"
        CONFIRMED = "confirmed"
        SPLIT = "split"

    status = models.CharField(max_length=9, choices=Status.choices, default=Status.SUGGESTED)
    # SHA-1 of the sorted member pattern ids: a recompute that finds the same members finds
    # this row again, so the group keeps its id (see failures.analysis.rootcauses).
    members_key = models.CharField(max_length=40)
    evidence = models.JSONField(default=dict)
    created_at = models.DateTimeField(db_default=Now())
    detected_at = models.DateTimeField()  # the latest recompute that found it
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    patterns = models.ManyToManyField(
        FailurePattern, through="RootCauseMembership", related_name="root_cause_groups"
    )

    class Meta:
        permissions = [("decide_rootcausegroup", "Can confirm or split root-cause groups")]
        constraints = [
            # One live group per member set; split groups stay as history of a decision.
            models.UniqueConstraint(
                fields=["members_key"],
                name="root_cause_group_members_unique",
                condition=~models.Q(status="split"),
            ),
        ]

    def __str__(self) -> str:
        return f"root cause group {self.pk} ({self.status})"


class RootCauseMembership(models.Model):
    """A pattern belongs to a root-cause group."""

    group = models.ForeignKey(RootCauseGroup, on_delete=models.CASCADE, related_name="memberships")
    pattern = models.ForeignKey(
        FailurePattern, on_delete=models.CASCADE, related_name="root_cause_memberships"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["group", "pattern"], name="root_cause_membership_unique"
            )
        ]

    def __str__(self) -> str:
        return f"pattern {self.pattern_id} in root cause group {self.group_id}"


class RootCauseSplit(models.Model):
    """Two patterns a human said are not one root cause: never suggested together again."""

    pattern_low = models.ForeignKey(FailurePattern, on_delete=models.CASCADE, related_name="+")
    pattern_high = models.ForeignKey(FailurePattern, on_delete=models.CASCADE, related_name="+")
    group = models.ForeignKey(
        RootCauseGroup, null=True, blank=True, on_delete=models.SET_NULL, related_name="splits"
    )
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pattern_low", "pattern_high"], name="root_cause_split_pair_unique"
            ),
            # Stored low id first, so a pair has one spelling and the unique constraint holds.
            models.CheckConstraint(
                condition=models.Q(pattern_low__lt=models.F("pattern_high")),
                name="root_cause_split_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"patterns {self.pattern_low_id} and {self.pattern_high_id}: not one root cause"


class Regression(models.Model):
    """A pattern that counted as fixed came back: one row per episode (pattern, kind, fixed_at),
    and whether that is a regression (the fix stopped working) or a recurrence its lesson
    handles (the rule: failures.analysis.recurrence)."""

    class Kind(models.TextChoices):
        LESSON_APPROVED = "lesson_approved"  # failed again after a lesson for it was approved
        RESOLVED = "resolved"  # failed again after all of its failures had been resolved

    class Verdict(models.TextChoices):
        RECURRING = recurrence.RECURRING  # came back; too little evidence to judge yet
        HANDLED = recurrence.HANDLED  # keeps coming back, and its lesson keeps handling it
        FAILING = recurrence.FAILING  # regression: applications of its lesson fail
        RETURNED = recurrence.RETURNED  # regression: back at its pre-fix rate, none worked

    pattern = models.ForeignKey(
        FailurePattern, on_delete=models.CASCADE, related_name="regressions"
    )
    kind = models.CharField(max_length=15, choices=Kind.choices)
    fixed_at = models.DateTimeField()  # since when it counted as fixed
    since = models.DateTimeField()  # its first failure after that
    detected_at = models.DateTimeField()  # when the job first saw it come back
    verdict = models.CharField(max_length=9, choices=Verdict.choices, default=Verdict.RECURRING)
    regressed_at = models.DateTimeField(null=True, blank=True)  # when judged a regression
    evidence = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pattern", "kind", "fixed_at"], name="regression_episode_unique"
            )
        ]
        indexes = [models.Index(fields=["-detected_at"], name="regression_recent_idx")]

    def __str__(self) -> str:
        return f"{self.pattern_id} {self.verdict} ({self.kind}) since {moment_shown(self.since)}"


class PatternReport(models.Model):
    """One pattern-analysis report: its data as JSON and the same rendered as markdown."""

    since = models.DateTimeField()
    until = models.DateTimeField()
    created_at = models.DateTimeField(db_default=Now())
    data = models.JSONField(default=dict)
    markdown = models.TextField()

    class Meta:
        indexes = [models.Index(fields=["-until"], name="pattern_report_recent_idx")]
        # A report of the same window is rebuilt in place (a redelivered task), not added.
        constraints = [
            models.UniqueConstraint(fields=["since", "until"], name="pattern_report_window_unique")
        ]

    def __str__(self) -> str:
        return f"report {self.pk}: {moment_shown(self.since)} to {moment_shown(self.until)}"


class Version(models.Model):
    """A release, model or prompt version that agents ran, with its health as the release job
    last counted it (outcomes.releases; the rule: failures.releases.rule)."""

    class Kind(models.TextChoices):
        RELEASE = "release"
        MODEL = "model"
        PROMPT_VERSION = "prompt_version"

    kind = models.CharField(max_length=14, choices=Kind.choices)
    name = models.CharField(max_length=100)
    # The latest release of its line first seen before it (None: the first of its line).
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()
    tasks = models.PositiveIntegerField()  # outcomes recorded with it
    failed = models.PositiveIntegerField()  # of which failed
    failures = models.PositiveIntegerField()  # failure records
    # Its failed tasks over what the previous one's rates per task type predict, in standard
    # deviations (None: nothing to compare); worse above releases.WORSE_Z.
    worse_z = models.FloatField(null=True, blank=True)
    # Since when it has been worse (None while it is not): alerts name a version worse anew.
    worse_since = models.DateTimeField(null=True, blank=True)
    judged_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "name"], name="version_kind_name_unique")
        ]
        indexes = [models.Index(fields=["kind", "-first_seen"], name="version_recent_idx")]

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"

    @property
    def success_rate(self) -> float | None:
        return (self.tasks - self.failed) / self.tasks if self.tasks else None

    @property
    def failures_per_100(self) -> float | None:
        return 100 * self.failures / self.tasks if self.tasks else None

    @property
    def worse(self) -> bool:
        return releases.is_worse(self.worse_z)


class VersionPattern(models.Model):
    """A pattern in a release (or model, or prompt version): how often it was seen there, and
    the verdict against the previous one (failures.releases.rule)."""

    class Verdict(models.TextChoices):
        NEW = releases.NEW  # in no earlier release; the previous one would have met it
        UNDECIDED = releases.UNDECIDED  # in no earlier release; too few tasks before to tell
        KNOWN = releases.KNOWN  # seen in an earlier release of the line
        GONE = releases.GONE  # in the previous release, not in this one after enough tasks

    version = models.ForeignKey(Version, on_delete=models.CASCADE, related_name="patterns")
    pattern = models.ForeignKey(FailurePattern, on_delete=models.CASCADE, related_name="versions")
    verdict = models.CharField(max_length=9, choices=Verdict.choices)
    failures = models.PositiveIntegerField()  # 0 for a pattern gone
    first_seen = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(null=True, blank=True)
    # The tasks of the pattern's task types that the other release ran: the previous one for a
    # pattern seen here, this one for a pattern gone.
    tasks_compared = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "pattern"], name="version_pattern_unique")
        ]
        indexes = [models.Index(fields=["pattern", "version"], name="version_pattern_idx")]

    def __str__(self) -> str:
        return f"{self.pattern_id} {self.verdict} in {self.version}"

    @property
    def verdict_text(self) -> str:
        """The verdict in words, with its evidence (``version__previous`` loaded)."""
        previous = self.version.previous.name if self.version.previous else ""
        if self.verdict == self.Verdict.NEW:
            return f"new here: none in {previous} over {self.tasks_compared} tasks of its types"
        if self.verdict == self.Verdict.GONE:
            return f"gone: none here over {self.tasks_compared} tasks of its types"
        if self.verdict == self.Verdict.KNOWN:
            return "seen in an earlier one"
        if not previous:
            return "first seen here; nothing earlier to compare with"
        return f"first seen here; {previous} ran too few tasks of its types to tell"
