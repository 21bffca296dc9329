"""Serializer bases shared by every API: strict input, the error shape for the schema."""

from rest_framework import serializers


class StrictInputSerializer(serializers.Serializer):
    """Input serializer that names unknown fields instead of silently dropping them."""

    def validate(self, attrs):
        if hasattr(self, "initial_data") and isinstance(self.initial_data, dict):
            unknown = sorted(set(self.initial_data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return attrs


class ErrorSerializer(serializers.Serializer):
    """The shape of every error answer."""

    error = serializers.CharField()
    fields = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))  # type: ignore[assignment]  # DRF's metaclass moves declared fields off the class, so the API's field name shadows nothing (djangorestframework-stubs#78)
