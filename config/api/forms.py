"""The API key's admin form: agent patterns typed as one comma-separated line."""

from django import forms

from .models import ApiKey, agent_patterns_validate


class AgentPatternsField(forms.Field):
    """A key's agent patterns as one line (``builder-*, ci-?``), stored as a list; empty: a
    fleet key. A plain Field (a text input, as a CharField's), since it cleans to a list, not
    to text; the validator refuses what is not printable, NUL included."""

    def __init__(self, **kwargs):
        super().__init__(**{**kwargs, "required": False, "validators": [agent_patterns_validate]})

    def prepare_value(self, value):
        return ", ".join(value) if isinstance(value, list) else value

    def to_python(self, value) -> list[str]:
        if isinstance(value, list):
            return value
        parts = [part.strip() for part in (value or "").split(",")]
        if parts and not parts[-1]:  # a trailing comma, or nothing at all
            parts.pop()
        return list(dict.fromkeys(parts))  # an empty part between commas fails validation

    def has_changed(self, initial, data) -> bool:
        return self.to_python(initial or []) != self.to_python(data)


class ApiKeyForm(forms.ModelForm):
    agent_patterns = AgentPatternsField(
        help_text=ApiKey._meta.get_field("agent_patterns").help_text
    )

    class Meta:
        model = ApiKey
        fields = ["name", "scope", "agent_patterns"]
