"""How failures look in API answers, and what a recorded failure must carry."""

from rest_framework import serializers

from config.api.fields import EventTimeField, JSONObjectField, ScrubbedCharField
from config.api.serializers import StrictInputSerializer
from failures.models import UNKNOWN_ERROR_TYPE, Failure, FailurePattern

# An error message longer than this is cut at input: tracebacks fit, whole log dumps do not.
MAX_ERROR_CHARS = 20_000
# A day: retry_after beyond that is a schedule, not a back-off.
MAX_RETRY_AFTER = 86_400


class FailureInputSerializer(StrictInputSerializer):
    """The seed's JSON (timestamp, task, error_type, retry_safe, retry_after, side_effects,
    recovery_hint, attempt_count) plus the error message, who and what, and a checkpoint. An
    optional text sent blank reads as not sent, as it does for an outcome."""

    agent = ScrubbedCharField(max_length=100)
    task = ScrubbedCharField(max_length=200)
    error = ScrubbedCharField(max_length=MAX_ERROR_CHARS, trim_whitespace=False)
    error_type = ScrubbedCharField(max_length=100, required=False, default=UNKNOWN_ERROR_TYPE)
    timestamp = EventTimeField(required=False, source="occurred_at")
    title = ScrubbedCharField(max_length=200, required=False, allow_blank=True, default="")
    task_description = ScrubbedCharField(
        max_length=2000, required=False, allow_blank=True, default=""
    )
    task_type = ScrubbedCharField(max_length=100, required=False, allow_blank=True, default="")
    skill_name = ScrubbedCharField(max_length=100, required=False, allow_blank=True, default="")
    release = ScrubbedCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="The agent's own version (a semver, a git sha, a tag; coder@1.4.2 names "
        "its line): releases are judged by what each brought.",
    )
    model = ScrubbedCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="The model behind the agent (its id), judged as releases are.",
    )
    prompt_version = ScrubbedCharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="The version of the agent's prompts, judged as releases are.",
    )
    retry_safe = serializers.BooleanField(required=False, allow_null=True, default=None)
    retry_after = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_RETRY_AFTER, default=None
    )
    side_effects = serializers.ListField(
        child=ScrubbedCharField(max_length=1000), required=False, max_length=100, default=list
    )
    recovery_hint = ScrubbedCharField(
        max_length=2000, required=False, allow_blank=True, default=""
    )
    attempt_count = serializers.IntegerField(
        required=False, min_value=1, max_value=1_000_000, default=1
    )
    checkpoint = JSONObjectField(required=False, allow_null=True, default=None)
    event_id = serializers.UUIDField(required=False)
    applied_lesson = serializers.UUIDField(
        required=False, help_text="A lesson applied before this failure: it did not work."
    )

    def validate_retry_safe(self, value):
        # "true"/"yes"/1 would be coerced by BooleanField; agents must send a JSON boolean.
        raw = self.initial_data.get("retry_safe")
        if raw is not None and not isinstance(raw, bool):
            raise serializers.ValidationError("Must be true, false or null.")
        return value


class PatternRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = FailurePattern
        fields = ["id", "fingerprint", "template"]
        read_only_fields = fields


class FailureOutputSerializer(serializers.ModelSerializer):
    timestamp = serializers.DateTimeField(source="occurred_at", read_only=True)
    pattern = PatternRefSerializer(read_only=True)

    class Meta:
        model = Failure
        fields = [
            "id",
            "timestamp",
            "agent",
            "task",
            "task_description",
            "task_type",
            "skill_name",
            "release",
            "model",
            "prompt_version",
            "title",
            "error",
            "error_type",
            "retry_safe",
            "retry_after",
            "side_effects",
            "recovery_hint",
            "attempt_count",
            "checkpoint",
            "status",
            "resolved_at",
            "pattern",
            "recorded_at",
        ]
        read_only_fields = fields


def root_cause_fields() -> dict:
    """What every answer says of an open root-cause group (the failure answer's ``root_cause``,
    boot's ``root_causes``), beside the symptoms each lists its own way."""
    return {
        "group": serializers.IntegerField(),
        "status": serializers.ChoiceField(["suggested", "confirmed"]),
        "agents": serializers.IntegerField(help_text="Agents in its latest joint burst."),
        "since": serializers.DateTimeField(
            allow_null=True, help_text="When its latest joint burst began."
        ),
        "note": serializers.CharField(),
    }
