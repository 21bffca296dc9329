"""Lessons learned: known resolutions of error patterns, their proposals and curation history."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Now

from config.api.models import written_by_key
from config.formats import counted, moment_shown, shortened

from .scoring import EFFECTIVENESS_PRIOR, RANK_SCORE_PRIOR


class Lesson(models.Model):
    """One error pattern and what resolves it (the seed's ``lessons_learned`` row, plus review)."""

    class Status(models.TextChoices):
        UNVERIFIED = "unverified"
        APPROVED = "approved"
        REJECTED = "rejected"

    class Source(models.TextChoices):
        AGENT = "agent"
        HUMAN = "human"
        SEED = "seed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    error_pattern = models.CharField(max_length=200, unique=True)
    error_type = models.CharField(max_length=100, db_index=True)
    # NULL is the one "no skill" the code writes and asks for (skill_name__isnull, the API's
    # null); "" never reaches the column. Making it "" would change the API's answers.
    skill_name = models.CharField(max_length=100, null=True, blank=True, db_index=True)  # noqa: DJ001
    context = models.JSONField(default=dict, blank=True)
    resolution = models.TextField()
    resolution_code = models.TextField(null=True, blank=True)  # noqa: DJ001  # the API's null
    occurrences = models.PositiveIntegerField(default=1)
    last_occurred = models.DateTimeField(db_default=Now())
    effectiveness = models.FloatField(default=EFFECTIVENESS_PRIOR)
    # Measured by the effectiveness job from applications (never typed in): the value before its
    # latest change (for "effectiveness fell" in reports), the evidence-aware ranking score, the
    # decayed number of applications behind them, and a review flag for lessons that keep failing.
    effectiveness_previous = models.FloatField(null=True, blank=True, editable=False)
    rank_score = models.FloatField(default=RANK_SCORE_PRIOR, editable=False)
    evidence = models.FloatField(default=0.0, editable=False)
    applications_count = models.PositiveIntegerField(default=0, editable=False)
    scored_at = models.DateTimeField(null=True, blank=True, editable=False)
    flagged = models.BooleanField(default=False, editable=False)
    flagged_reason = models.CharField(max_length=200, blank=True, editable=False)
    # When the job flagged it (None while it is not flagged): alerts name a lesson flagged anew.
    flagged_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(db_default=Now(), editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UNVERIFIED)
    source = models.CharField(max_length=5, choices=Source.choices, default=Source.AGENT)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    reviewed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The failure patterns this lesson resolves; check finds lessons through a message's pattern.
    patterns = models.ManyToManyField(
        "failures.FailurePattern", blank=True, related_name="lessons"
    )
    # The key that first recorded it; later occurrences counted by other keys do not change it.
    api_key = written_by_key()

    class Meta:
        permissions = [
            ("review_lesson", "Can approve or reject lessons and decide on agents' proposals"),
            ("merge_lesson", "Can merge lessons"),
        ]
        indexes = [
            # The list endpoint pages by recency.
            models.Index(fields=["-last_occurred"], name="lesson_recent_idx"),
            # Check by type reads each (type, status, skill) part in rank order
            # (selectors._of_type).
            models.Index(
                fields=["error_type", "status", "-rank_score", "-occurrences", "-last_occurred"],
                name="lesson_type_rank_idx",
            ),
            models.Index(
                fields=[
                    "error_type",
                    "status",
                    "skill_name",
                    "-rank_score",
                    "-occurrences",
                    "-last_occurred",
                ],
                name="lesson_type_skill_rank_idx",
            ),
            models.Index(
                fields=["flagged"], name="lesson_flagged_idx", condition=models.Q(flagged=True)
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(effectiveness__gte=0) & models.Q(effectiveness__lte=1),
                name="lesson_effectiveness_0_1",
            ),
        ]

    def __str__(self) -> str:
        return self.error_pattern


class Application(models.Model):
    """An agent applied a lesson: did it work? Effectiveness is computed from these."""

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="applications")
    worked = models.BooleanField()
    agent = models.CharField(max_length=100, blank=True)
    task_id = models.CharField(max_length=200, blank=True)
    failure = models.ForeignKey(
        "failures.Failure",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="applications",
    )
    applied_at = models.DateTimeField()
    recorded_at = models.DateTimeField(db_default=Now())
    api_key = written_by_key()

    class Meta:
        indexes = [models.Index(fields=["lesson", "-applied_at"], name="application_lesson_idx")]

    def __str__(self) -> str:
        return f"{self.lesson_id}: {'worked' if self.worked else 'did not work'}"


class LessonProposal(models.Model):
    """A resolution an agent sent for a lesson a human already reviewed; kept until curated."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DISMISSED = "dismissed"

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="proposals")
    resolution = models.TextField()
    resolution_code = models.TextField(null=True, blank=True)  # noqa: DJ001  # as the lesson's
    # SHA-256 of resolution and code: resolutions can exceed what a B-tree index entry may hold,
    # so uniqueness of a pending proposal's text is enforced on this digest.
    digest = models.CharField(max_length=64)
    proposed_by = models.CharField(max_length=100, blank=True)
    # How many times agents sent this same text; a repeated proposal is counted, not duplicated.
    times_proposed = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    # The key that first proposed this text; repeats by other keys are counted, not recorded.
    api_key = written_by_key()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["lesson", "digest"],
                condition=models.Q(status="pending"),
                name="one_pending_proposal_per_text",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.status} proposal: {shortened(self.resolution, 60)}"


class LessonCuration(models.Model):
    """Who changed a lesson's review state or text, when, and what it was before."""

    class Action(models.TextChoices):
        APPROVE = "approve"
        REJECT = "reject"
        EDIT = "edit"
        ACCEPT_PROPOSAL = "accept_proposal"
        DISMISS_PROPOSAL = "dismiss_proposal"
        MERGE = "merge"  # duplicates folded into this lesson (lessons_merge)
        WRITE = "write"  # written by a curator (lesson_create)

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="curations")
    action = models.CharField(max_length=16, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.action} by {self.user} at {moment_shown(self.at)}"


class MatchIndexVersion(models.Model):
    """The version of the lessons the match index holds (lessons.match_index): one row, given a
    new token in the transaction of every write that changes what the index holds. A check
    reads it in the same statement as its candidates, so it knows whether its process's index
    was current without asking anything else."""

    ROW = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=ROW)
    token = models.CharField(max_length=32)

    def __str__(self) -> str:
        return self.token


class PatternLink(models.Model):
    """A failure pattern a lesson may answer besides those it is linked to: the evidence that it
    worked there (and the keys that sent it as a wording of the lesson's error), and the
    decision. Confirmed and sampled links are also in ``Lesson.patterns`` (what the check reads);
    a sampled one rests on its writer's wording alone, so it ranks after approved lessons while
    the lesson is unverified; a candidate waits for more evidence or a curator; a removed one
    stays removed, whatever the fleet reports later, until a curator links it again
    (lessons.links)."""

    class State(models.TextChoices):
        CANDIDATE = "candidate"
        SAMPLED = "sampled"
        CONFIRMED = "confirmed"
        REMOVED = "removed"

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="pattern_links")
    pattern = models.ForeignKey(
        "failures.FailurePattern", on_delete=models.CASCADE, related_name="lesson_links"
    )
    state = models.CharField(max_length=9, choices=State.choices, default=State.CANDIDATE)
    # Counted from the evidence rows (never incremented blindly), so they are exact.
    successes = models.PositiveIntegerField(default=0, editable=False)
    agents = models.PositiveIntegerField(default=0, editable=False)
    # The distinct API keys behind the evidence, reports and wordings alike: one key is one
    # source, whatever agent names it sends; and how many keys sent it as a wording.
    keys = models.PositiveIntegerField(default=0, editable=False)
    wordings = models.PositiveIntegerField(default=0, editable=False)
    first_seen = models.DateTimeField(null=True, blank=True, editable=False)
    last_seen = models.DateTimeField(null=True, blank=True, editable=False)
    # Who confirmed or removed it by hand (none when the evidence confirmed it), and when.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    decided_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["state", "-successes", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["lesson", "pattern"], name="one_link_per_pattern"),
        ]

    def __str__(self) -> str:
        return f"{self.state} link to pattern #{self.pattern_id}"

    def evidence_text(self) -> str:
        """The evidence in words: "worked 2 times for 2 agents; sent as a wording by 1 key;
        from 1 key in all"."""
        parts = []
        if self.successes:
            parts.append(
                f"worked {counted(self.successes, 'time')} for {counted(self.agents, 'agent')}"
            )
        if self.wordings:
            parts.append(f"sent as a wording of its error by {counted(self.wordings, 'key')}")
        parts.append(f"from {counted(self.keys, 'key')} in all")
        return "; ".join(parts)


class PatternLinkEvidence(models.Model):
    """One report that the lesson worked for a failure of the link's pattern (``application``:
    counted once per pattern, however often its request is replayed), or one key's wording of
    the lesson's error of that pattern (no application: counted once per key)."""

    link = models.ForeignKey(PatternLink, on_delete=models.CASCADE, related_name="evidence")
    application = models.ForeignKey(
        Application, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    agent = models.CharField(max_length=100, blank=True)
    seen_at = models.DateTimeField()
    api_key = written_by_key()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["link", "application"], name="one_evidence_per_application"
            ),
            models.UniqueConstraint(
                fields=["link", "api_key"],
                condition=models.Q(application__isnull=True),
                name="one_wording_per_key",
            ),
        ]

    def __str__(self) -> str:
        if self.application_id is None:
            return f"wording by key {self.api_key_id} for link {self.link_id}"
        return f"application {self.application_id} for link {self.link_id}"
