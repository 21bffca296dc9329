"""How lessons look in API answers."""
from rest_framework import serializers

from .models import Lesson


class LessonOutputSerializer(serializers.ModelSerializer):
    """A lesson with every seed field, its review status and source, and what its applications
    measured (effectiveness, ranking score, how many, and whether it is flagged for review)."""

    class Meta:
        model = Lesson
        fields = [
            "id", "error_pattern", "error_type", "skill_name", "context", "resolution",
            "resolution_code", "occurrences", "last_occurred", "effectiveness", "created_at",
            "status", "source", "rank_score", "applications_count", "flagged",
        ]
        read_only_fields = fields


class CheckedLessonOutputSerializer(LessonOutputSerializer):
    """A lesson in a check answer, with why it is there (reads a selectors.CheckedLesson)."""

    match = serializers.ChoiceField(choices=["pattern", "message", "type", "any"], read_only=True)
    match_score = serializers.FloatField(source="score", read_only=True)

    class Meta(LessonOutputSerializer.Meta):
        fields = LessonOutputSerializer.Meta.fields + ["match", "match_score"]
        read_only_fields = fields
