"""Serializer fields for what agents send: text the database can store (never a 500), with
secrets scrubbed at the input boundary, so nothing downstream (storage, caches, logs, answers,
lookups by name) ever holds one; and the one rule of how far ahead an agent's timestamp may be."""

from datetime import datetime, timedelta

from django.utils import timezone
from rest_framework import serializers

from config.scrubbing import scrub_value, scrubbed

from .jsonlimits import json_problem, text_problem

# How far past the server's clock an agent's timestamp may be: a day takes clock drift and a local
# time sent as UTC (up to 14 hours ahead); later is a wrong clock or unit, and such a row would
# sort first by recency and weigh more than every real event in the decay of effectiveness.
MAX_AHEAD = timedelta(days=1)


def future_problem(moment: datetime, *, now: datetime) -> str | None:
    """Say why ``moment`` cannot be when an event happened, or None when it can."""
    if moment > now + MAX_AHEAD:
        return "Is more than a day in the future; send when it happened (UTC, or with its offset)."
    return None


class EventTimeField(serializers.DateTimeField):
    """When something happened, as the agent says: ISO 8601, at most MAX_AHEAD in the future."""

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", "When it happened (ISO 8601); at most a day in the future.")
        super().__init__(**kwargs)

    def to_internal_value(self, value):
        moment = super().to_internal_value(value)
        problem = future_problem(moment, now=timezone.now())
        if problem:
            raise serializers.ValidationError(problem)
        return moment


class SafeCharField(serializers.CharField):
    """A CharField that rejects NUL characters and unpaired surrogates. For values the server
    made (cursors); agent-sent text uses ScrubbedCharField."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            # CharField would stringify numbers and booleans; a wrong type is an error here.
            self.fail("invalid")
        value = super().to_internal_value(data)
        problem = text_problem(value)
        if problem:
            raise serializers.ValidationError(f"The text {problem}")
        return value


class ScrubbedCharField(SafeCharField):
    """Agent-sent text: checked as sent (length, storable characters), then scrubbed."""

    def run_validation(self, data=serializers.empty):
        # After the validators: the length limit judges what the agent sent.
        value = super().run_validation(data)
        return scrubbed(value, self.max_length) if isinstance(value, str) else value


class JSONObjectField(serializers.JSONField):
    """A JSON object (not a list or scalar) within the depth limit, with storable text only,
    its secrets scrubbed (config.scrubbing.scrub_value)."""

    default_error_messages = {"not_object": "Expected a JSON object."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_object")
        problem = json_problem(value)
        if problem:
            path, message = problem
            raise serializers.ValidationError(f"{path}: {message}")
        return scrub_value(value)
