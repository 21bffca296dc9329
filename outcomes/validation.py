"""What an outcome must look like, checked fast enough for a thousand in one request.

DRF serializers cost a few hundred microseconds per outcome, which alone would cap a bulk request
far below the ledger's target, so an outcome is checked here by plain functions over a table of
field specs. The same table builds the serializer that documents the request in the OpenAPI schema,
so the checks and the documentation cannot drift apart. What passes the checks is scrubbed of
secrets here, at the input boundary (names, context, result, and what is derived from them).
"""

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypedDict

from django.utils import timezone
from rest_framework import serializers

from config.api.fields import EventTimeField, JSONObjectField, future_problem
from config.api.idempotency import request_digest
from config.api.jsonlimits import json_problem, text_problem
from config.moments import OUT_OF_RANGE, moment_parsed
from config.scrubbing import scrub_value, scrubbed

# A file list longer than this describes a repository, not a task; paths beyond it are dropped.
MAX_FILES = 50
MAX_PATH = 300
# Same cap as a failure's error message: tracebacks fit, whole log dumps do not.
MAX_ERROR_CHARS = 20_000
# A week in milliseconds is a generous ceiling for one task attempt; more is a unit mistake.
MAX_DURATION_MS = 7 * 24 * 3600 * 1000
Errors = dict[str, list[str]]
NOT_A_MOMENT = "Not an ISO 8601 date and time, e.g. 2026-02-16T09:30:00Z."


class _Invalid(Exception):
    def __init__(self, message: str):
        self.message = message


@dataclass(frozen=True)
class Spec:
    """One top-level field: its kind, limits and how the schema describes it."""

    kind: str  # "text", "choice", "object", "int", "datetime", "uuid"
    required: bool = False
    max_length: int = 0
    choices: tuple = ()
    maximum: int = 0
    help: str = ""


FIELDS: dict[str, Spec] = {
    "task_id": Spec("text", True, 200, help="The task's id (a number is accepted as text)."),
    "agent": Spec(
        "text",
        False,
        100,
        help="Agent name (the seed's agent_name; either spelling; both only with the same name).",
    ),
    "agent_name": Spec(
        "text", False, 100, help="Same as agent; sent with agent, it must name the same agent."
    ),
    "task_type": Spec("text", True, 100),
    "release": Spec(
        "text",
        False,
        100,
        help="The agent's own version (a semver, a git sha, a tag; coder@1.4.2 names its "
        "line): releases are judged by what each brought.",
    ),
    "model": Spec(
        "text", False, 100, help="The model behind the agent (its id), judged as releases are."
    ),
    "prompt_version": Spec(
        "text", False, 100, help="The version of the agent's prompts, judged as releases are."
    ),
    "outcome": Spec("choice", True, choices=("success", "failure")),
    "context": Spec(
        "object",
        help="What the agent knew: error_type, error_message (or error), "
        "file_path, files, and for a failure retry_safe, retry_after, side_effects, "
        "recovery_hint, checkpoint, attempt_count, skill_name.",
    ),
    "result": Spec("object", help="What it did: approach, files_changed, ..."),
    "duration_ms": Spec("int", maximum=MAX_DURATION_MS),
    "occurred_at": Spec(
        "datetime", help="When it happened, at most a day in the future; defaults to now."
    ),
    "event_id": Spec("uuid", help="Client id of the event: a replay changes nothing."),
    "applied_lesson": Spec(
        "uuid",
        help="A lesson applied in this attempt: the outcome reports "
        "whether it worked (success: it did).",
    ),
}


@dataclass(frozen=True)
class OutcomeIn:
    """A checked outcome, with what the server derives from it."""

    task_id: str
    agent: str
    task_type: str
    outcome: str
    context: dict
    result: dict
    duration_ms: int | None
    occurred_at: datetime
    event_id: uuid.UUID | None = None
    applied_lesson: uuid.UUID | None = None
    digest: str = ""
    error_type: str = ""
    error: str = ""  # the error message of a failed outcome ("" when none was given)
    files: tuple[str, ...] = ()
    failure_extras: dict = field(default_factory=dict)
    release: str = ""
    model: str = ""
    prompt_version: str = ""


def _text(value, spec: Spec, name: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and name == "task_id":
        value = str(value)
    if not isinstance(value, str):
        raise _Invalid("Not a valid string.")
    value = value.strip()
    if spec.required and not value:
        raise _Invalid("This field may not be blank.")
    if len(value) > spec.max_length:
        raise _Invalid(f"Ensure this field has no more than {spec.max_length} characters.")
    problem = text_problem(value)
    if problem:
        raise _Invalid(f"The text {problem}")
    return scrubbed(value, spec.max_length)


def agent_clean(value: str) -> str | None:
    """An agent's name as the ledger stores it (checked and scrubbed as the ``agent`` field),
    or None when the ledger would refuse it."""
    try:
        return _text(value, FIELDS["agent"], "agent")
    except _Invalid:
        return None


def _int(value, spec: Spec, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid("A valid integer is required.")
    if not 0 <= value <= spec.maximum:
        raise _Invalid(f"Must be between 0 and {spec.maximum}.")
    return value


def _object(value, spec: Spec, name: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Invalid("Expected a JSON object.")
    # Level 2: under the outcome, as under the body of a single POST.
    problem = json_problem(value, depth=2)
    if problem:
        raise _Invalid(f"{problem[0]}: {problem[1]}")
    return value


def _choice(value, spec: Spec, name: str) -> str:
    if value not in spec.choices:
        raise _Invalid(f"Must be one of: {', '.join(spec.choices)}.")
    return value


def _datetime(value, spec: Spec, name: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise _Invalid(NOT_A_MOMENT)
    try:
        moment = moment_parsed(value)
    except ValueError:  # not ISO 8601, or well formed but impossible (month 13)
        raise _Invalid(NOT_A_MOMENT) from None
    except OverflowError:
        raise _Invalid(OUT_OF_RANGE) from None
    problem = future_problem(moment, now=timezone.now())
    if problem:
        raise _Invalid(problem)
    return moment


def _uuid(value, spec: Spec, name: str) -> uuid.UUID | None:
    if value is None:
        return None
    try:
        return uuid.UUID(value) if isinstance(value, str) else _fail_uuid()
    except ValueError:
        return _fail_uuid()


def _fail_uuid():
    raise _Invalid("Must be a valid UUID.")


_CHECKS = {
    "text": _text,
    "int": _int,
    "object": _object,
    "choice": _choice,
    "datetime": _datetime,
    "uuid": _uuid,
}


def _context_text(value, limit: int) -> str:
    if not isinstance(value, str):
        raise _Invalid("Not a valid string.")
    if len(value) > limit:
        raise _Invalid(f"Ensure this field has no more than {limit} characters.")
    return value


def _paths(value) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(path, str) for path in value):
        raise _Invalid("Expected a file path or a list of file paths.")
    return value


def _bounded_int(low: int, high: int):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _Invalid(f"Must be a whole number between {low} and {high}.")
        return value

    return check


def _retry_safe(value):
    if value is not None and not isinstance(value, bool):
        raise _Invalid("Must be true, false or null.")
    return value


def _side_effects(value):
    if (
        not isinstance(value, list)
        or len(value) > 100
        or not all(isinstance(item, str) and len(item) <= 1000 for item in value)
    ):
        raise _Invalid("Expected a list of at most 100 texts of at most 1000 characters.")
    return value


def _checkpoint(value):
    if value is not None and not isinstance(value, dict):
        raise _Invalid("Expected a JSON object.")
    return value


# The longest text a failure record keeps of each context key it takes over (the same limits
# as POST /failures; for side_effects, of each item).
TEXT_LIMITS = {
    "error_type": 100,
    "error_message": MAX_ERROR_CHARS,
    "error": MAX_ERROR_CHARS,
    "skill_name": 100,
    "recovery_hint": 2000,
    "side_effects": 1000,
}
# Context keys a failure record takes over, and how each is checked. Other context keys are free.
FAILURE_KEYS = {
    "skill_name": lambda v: _context_text(v, TEXT_LIMITS["skill_name"]),
    "retry_safe": _retry_safe,
    "retry_after": _bounded_int(0, 86_400),
    "side_effects": _side_effects,
    "recovery_hint": lambda v: _context_text(v, TEXT_LIMITS["recovery_hint"]),
    "checkpoint": _checkpoint,
    "attempt_count": _bounded_int(1, 1_000_000),
}


def normalise_path(path: str) -> str:
    """A file path as stored for matching: trimmed, no leading ``./``, capped."""
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path[:MAX_PATH]


def files_of(context, result, *, strict: bool = True) -> tuple[str, ...]:
    """The files an outcome names (context file_path, file, files; result files_changed),
    normalised, unique, in order. ``strict``: a malformed list is an error, else skipped."""
    found: dict[str, None] = {}  # ordered and unique
    for source, key in (
        (context, "file_path"),
        (context, "file"),
        (context, "files"),
        (result, "files_changed"),
    ):
        value = source.get(key) if isinstance(source, dict) else None
        if value is None:
            continue
        try:
            paths = _paths(value)
        except _Invalid:
            if strict:
                raise
            paths = (
                [path for path in value if isinstance(path, str)]
                if isinstance(value, list)
                else []
            )
        for path in paths:
            path = normalise_path(path)
            if path:
                found.setdefault(path)
    return tuple(found)[:MAX_FILES]


def _fit(key: str, value):
    """A scrubbed value cut to its key's limit: a marker may be longer than what it hides."""
    limit = TEXT_LIMITS.get(key)
    if limit is None:
        return value
    return [item[:limit] for item in value] if isinstance(value, list) else value[:limit]


class _Derived(TypedDict):
    """What the server derives from an outcome's context and result (OutcomeIn's fields)."""

    error_type: str
    error: str
    files: tuple[str, ...]
    failure_extras: dict[str, Any]


def _derived(sent: tuple[dict, dict], clean: tuple[dict, dict], errors: Errors) -> _Derived:
    """error_type, the error message, files and failure extras: each checked as sent (context
    and result), and taken from their scrubbed copies (clean)."""
    (context, _), (clean_context, clean_result) = sent, clean
    derived: _Derived = {"error_type": "", "error": "", "files": (), "failure_extras": {}}
    for key in ("error_type", "error_message", "error"):
        if context.get(key) is not None:
            try:
                _context_text(context[key], TEXT_LIMITS[key])
            except _Invalid as exc:
                errors[f"context.{key}"] = [exc.message]
                continue
            value = _fit(
                key, clean_context[key].strip() if key == "error_type" else clean_context[key]
            )
            target: Literal["error_type", "error"] = (
                "error_type" if key == "error_type" else "error"
            )
            derived[target] = derived[target] or value
    for key, check in FAILURE_KEYS.items():
        if key in context:
            try:
                check(context[key])
            except _Invalid as exc:
                errors[f"context.{key}"] = [exc.message]
                continue
            derived["failure_extras"][key] = _fit(key, clean_context[key])
    try:  # scrubbing keeps every value's type, so the scrubbed copies show the same errors
        derived["files"] = files_of(clean_context, clean_result)
    except _Invalid as exc:
        errors["context.files"] = [exc.message]
    return derived


def _printable(name: str) -> str:
    """A field name as an error may quote it: NUL and lone surrogates escaped."""
    if text_problem(name) is None:
        return name
    return name.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def _agent(values: dict, errors: Errors) -> str:
    """The agent, sent as ``agent`` or as the seed's ``agent_name``; both only if they agree.
    "" when it is missing or refused (``errors`` then say why)."""
    spellings = {name: values.pop(name) for name in ("agent", "agent_name") if name in values}
    if "agent" in errors or "agent_name" in errors:
        return ""
    if len(set(spellings.values())) > 1:
        for name, other in (("agent", "agent_name"), ("agent_name", "agent")):
            errors[name] = [
                f"Names another agent than {other}: send one of the two, or the same name in both."
            ]
        return ""
    agent = next(iter(spellings.values()), "")
    if not agent:
        errors["agent"] = ["This field is required."]
    return agent


def outcome_parse(raw, *, now: datetime | None = None) -> tuple[OutcomeIn | None, Errors]:
    """Check one outcome as sent; answer ``(outcome, {})`` or ``(None, errors by field)``."""
    if not isinstance(raw, dict):
        return None, {"non_field_errors": ["Expected a JSON object."]}
    errors: Errors = {_printable(name): ["Unknown field."] for name in raw if name not in FIELDS}
    # Each field's value as its kind's check answered it: the table, not the code, says which
    # type a field has.
    values: dict[str, Any] = {}
    for name, spec in FIELDS.items():
        if name not in raw:
            if spec.required:
                errors[name] = ["This field is required."]
            continue
        try:
            values[name] = _CHECKS[spec.kind](raw[name], spec, name)
        except _Invalid as exc:
            errors[name] = [exc.message]
    agent = _agent(values, errors)
    sent = values.get("context") or {}, values.get("result") or {}
    context, result = clean = scrub_value(sent[0]), scrub_value(sent[1])
    derived = _derived(sent, clean, errors)
    if errors:
        return None, errors
    event_id = values.get("event_id")
    return OutcomeIn(
        task_id=values["task_id"],
        agent=agent,
        task_type=values["task_type"],
        outcome=values["outcome"],
        context=context,
        result=result,
        duration_ms=values.get("duration_ms"),
        occurred_at=values.get("occurred_at") or now or timezone.now(),
        event_id=event_id,
        applied_lesson=values.get("applied_lesson"),
        release=values.get("release", ""),
        model=values.get("model", ""),
        prompt_version=values.get("prompt_version", ""),
        digest=request_digest(raw) if event_id else "",
        **derived,
    ), {}


class _SchemaCommon(TypedDict):
    """The arguments every field of the schema is given."""

    required: bool
    help_text: str | None


def _schema_field(spec: Spec) -> serializers.Field:
    common: _SchemaCommon = {"required": spec.required, "help_text": spec.help or None}
    if spec.kind == "text":
        # An optional text may be sent blank (it reads as not sent); a required one may not.
        return serializers.CharField(
            max_length=spec.max_length, allow_blank=not spec.required, **common
        )
    if spec.kind == "choice":
        return serializers.ChoiceField(spec.choices, **common)
    if spec.kind == "object":
        return JSONObjectField(**common)
    if spec.kind == "int":
        return serializers.IntegerField(
            min_value=0, max_value=spec.maximum, allow_null=True, **common
        )
    if spec.kind == "datetime":
        return EventTimeField(**common)
    return serializers.UUIDField(**common)


OutcomeInputSerializer = type(
    "OutcomeInput",
    (serializers.Serializer,),
    {
        "__doc__": (
            "One outcome: the seed's fields plus event_id (documentation of outcome_parse)."
        ),
        **{name: _schema_field(spec) for name, spec in FIELDS.items()},
    },
)
