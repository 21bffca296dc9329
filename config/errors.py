"""What the domain refuses, in its own terms: one small hierarchy that services and selectors
raise, with no word of HTTP. The API alone turns each kind into its status and the one error
shape (config.api.exceptions); a management command or a job may catch them as they are.

Each error has a ``message`` for people and ``fields``: ``{field: [why, ...]}`` naming what in
the request is wrong (empty when no one field is).
"""


class DomainError(Exception):
    """A request the domain cannot carry out as asked."""

    def __init__(self, message: str, fields: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}

    @classmethod
    def from_fields(cls, fields: dict[str, list[str]]):
        """The error of these fields, its message naming them (see ``message_of``)."""
        return cls(cls.message_of(fields), fields)

    @staticmethod
    def message_of(fields: dict[str, list[str]]) -> str:
        return fields_message(fields)


class InvalidInput(DomainError):
    """The input cannot be acted on: a value out of range, a name of nothing, a bad cursor."""


class Forbidden(DomainError):
    """The caller may not do this, e.g. write for an agent its API key is not bound to."""

    @staticmethod
    def message_of(fields: dict[str, list[str]]) -> str:
        field, [why] = next(iter(fields.items()))
        return f"Forbidden {field}: {why}"


class NotFound(DomainError):
    """What the request names does not exist."""


class Conflict(DomainError):
    """The request contradicts what is stored (an event id reused with another body)."""


def fields_message(fields: dict[str, list[str]]) -> str:
    """``Invalid input in a, b: a: <first message>``; non-field errors as they are."""
    named = [name for name in fields if name != "non_field_errors"]
    if not named:
        return "; ".join(fields.get("non_field_errors", ["Invalid input."]))
    first = named[0]
    return f"Invalid input in {', '.join(named)}: {first}: {fields[first][0]}"
