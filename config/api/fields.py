"""Serializer fields that refuse what the database cannot store, so it never becomes a 500."""
from rest_framework import serializers

from .jsonlimits import json_problem, text_problem


class SafeCharField(serializers.CharField):
    """A CharField that rejects NUL characters and unpaired surrogates."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            # CharField would stringify numbers and booleans; a wrong type is an error here.
            self.fail("invalid")
        value = super().to_internal_value(data)
        problem = text_problem(value)
        if problem:
            raise serializers.ValidationError(f"The text {problem}")
        return value


class JSONObjectField(serializers.JSONField):
    """A JSON object (not a list or scalar) within the depth limit, with storable text only."""

    default_error_messages = {"not_object": "Expected a JSON object."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            self.fail("not_object")
        problem = json_problem(value)
        if problem:
            path, message = problem
            raise serializers.ValidationError(f"{path}: {message}")
        return value
