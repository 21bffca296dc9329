"""How lessons look in API answers."""

from datetime import datetime
from enum import Enum

from django.db import models
from django.utils import timezone
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

from .models import Lesson


class LessonOutputSerializer(serializers.ModelSerializer):
    """A lesson with every seed field, its review status and source, and what its applications
    measured (effectiveness, ranking score, how many, and whether it is flagged for review)."""

    class Meta:
        model = Lesson
        fields = [
            "id",
            "error_pattern",
            "error_type",
            "skill_name",
            "context",
            "resolution",
            "resolution_code",
            "occurrences",
            "last_occurred",
            "effectiveness",
            "created_at",
            "status",
            "source",
            "rank_score",
            "applications_count",
            "flagged",
        ]
        read_only_fields = fields


class CheckedLessonOutputSerializer(LessonOutputSerializer):
    """A lesson in a check answer, with why it is there (reads a selectors.CheckedLesson)."""

    match = serializers.ChoiceField(
        choices=["pattern", "template", "words", "type"], read_only=True
    )
    match_score = serializers.FloatField(source="score", read_only=True)

    class Meta(LessonOutputSerializer.Meta):
        fields = [*LessonOutputSerializer.Meta.fields, "match", "match_score"]
        read_only_fields = fields


class LessonCreatedSerializer(serializers.Serializer):
    """A lesson recorded for the first time (reads a services.LessonRecorded)."""

    created = serializers.BooleanField()
    id = serializers.UUIDField(source="lesson.id")
    status = serializers.CharField(source="lesson.status")


class LessonUpdatedSerializer(serializers.Serializer):
    """One more occurrence of a known lesson, and the proposal a differing resolution became
    (reads a services.LessonRecorded)."""

    updated = serializers.BooleanField()
    id = serializers.UUIDField(source="lesson.id")
    occurrences = serializers.IntegerField(source="lesson.occurrences")
    status = serializers.CharField(source="lesson.status")
    # Not required: without a proposal the field is left out of the answer, not null.
    proposal_id = serializers.IntegerField(source="proposal.id", required=False)


class ApplicationRecordedSerializer(serializers.Serializer):
    """A recorded application of a lesson (reads an Application)."""

    id = serializers.IntegerField()
    lesson = serializers.UUIDField(source="lesson_id")
    worked = serializers.BooleanField()
    agent = serializers.CharField()
    task_id = serializers.CharField()
    failure_id = serializers.IntegerField(allow_null=True)
    applied_at = serializers.DateTimeField()


def check_answer_fields() -> dict:
    """The fields every answer that offers lessons carries (the check, a recorded failure), for
    its schema: matched lessons, related ones apart, and whether a resolution is known."""
    return {
        "lessons": CheckedLessonOutputSerializer(
            many=True,
            help_text=(
                "Lessons that match the error itself (its pattern, or their error_pattern fits "
                "the message), best first."
            ),
        ),
        "related": CheckedLessonOutputSerializer(
            many=True,
            help_text=("Lessons that share only the error type: not a known resolution."),
        ),
        "has_resolution": serializers.BooleanField(help_text="Some lesson matches the error."),
        "has_approved_resolution": serializers.BooleanField(
            help_text="Some approved lesson matches the error."
        ),
    }


def check_answer_json(answer) -> dict:
    """A check's answer (selectors.CheckAnswer) as the check endpoint sends it."""
    return {
        "lessons": checked_lessons_json(answer.lessons),
        "related": checked_lessons_json(answer.related),
        "has_resolution": answer.has_resolution,
        "has_approved_resolution": answer.has_approved_resolution,
    }


def checked_lessons_json(found) -> list[dict]:
    """What ``CheckedLessonOutputSerializer(found, many=True).data`` holds, for the check
    endpoint: the same keys in the same order and the same values, built by a fixed table of
    conversions instead of DRF fields (a ModelSerializer rebuilds its fields from the model's
    metadata on every use, a large share of a check's time)."""
    iso = api_settings.DATETIME_FORMAT
    zone = timezone.get_current_timezone() if iso and iso.lower() == ISO_8601 else None
    return [_checked_lesson_json(entry, zone) for entry in found]


def _checked_lesson_json(entry, zone) -> dict:
    lesson, answer = entry.lesson, {}
    for name, convert in _LESSON_JSON:
        value = getattr(lesson, name)
        answer[name] = None if value is None else convert(value, zone)
    answer["match"] = None if entry.match is None else _match_json(entry.match, zone)
    answer["match_score"] = None if entry.score is None else float(entry.score)
    return answer


def _text(value, _zone):
    return str(value)


def _number(kind):
    return lambda value, _zone: kind(value)


def _same(value, _zone):
    return value


def _datetime(value, zone):
    """DRF's ISO 8601 form of an aware datetime in the current time zone ("Z" for UTC);
    anything else (naive, text, another output format) as DRF's own field renders it."""
    if zone is None or not isinstance(value, datetime) or timezone.is_naive(value):
        return _DATETIME.to_representation(value)
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _choice(keys):
    """A choice as DRF renders it: the declared value its text names, else the value itself."""
    values = {str(key): key for key in keys}

    def convert(value, _zone):
        if value == "":
            return value
        if isinstance(value, Enum) and str(value) != str(value.value):
            value = value.value
        return values.get(str(value), value)

    return convert


def _boolean(value, _zone):
    return value if value is True or value is False else _BOOLEAN.to_representation(value)


_DATETIME = serializers.DateTimeField(read_only=True)
_BOOLEAN = serializers.BooleanField(read_only=True)
_MATCH = CheckedLessonOutputSerializer._declared_fields["match"]
assert isinstance(_MATCH, serializers.ChoiceField)  # declared so above
_match_json = _choice(_MATCH.choices)
_CONVERSIONS = {
    models.UUIDField: _text,
    models.CharField: _text,
    models.TextField: _text,
    models.JSONField: _same,
    models.PositiveIntegerField: _number(int),
    models.FloatField: _number(float),
    models.DateTimeField: _datetime,
    models.BooleanField: _boolean,
}


def _conversion(field):
    if field.choices:
        return _choice(key for key, _label in field.choices)
    return _CONVERSIONS[type(field)]


# (attribute, conversion) for each lesson field of CheckedLessonOutputSerializer, in its order.
_LESSON_JSON = tuple(
    (name, _conversion(Lesson._meta.get_field(name)))
    for name in LessonOutputSerializer.Meta.fields
)
