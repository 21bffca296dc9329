"""Checking an outcome as sent: every problem named by its field, nothing coerced silently."""

import uuid
from datetime import timezone

import pytest

from config.api.idempotency import request_digest
from outcomes.validation import FIELDS, OutcomeInputSerializer, outcome_parse

GOOD = {"task_id": "42", "agent": "dev", "task_type": "fix_bug", "outcome": "success"}


def test_the_seeds_fields_are_taken():
    item, errors = outcome_parse(
        {
            **GOOD,
            "agent": "developer",
            "task_id": 42,
            "context": {
                "error_type": "null_pointer",
                "file_path": "./src/capture.js",
                "error_message": "Cannot read property context of null",
            },
            "result": {
                "approach": "Added null check",
                "files_changed": ["src/capture.js", "src/page.js"],
            },
            "duration_ms": 2500,
            "occurred_at": "2026-02-16T09:30:00Z",
        }
    )
    assert errors == {}
    assert (item.task_id, item.agent, item.task_type, item.outcome) == (
        "42",
        "developer",
        "fix_bug",
        "success",
    )
    assert item.error_type == "null_pointer"
    assert item.error == "Cannot read property context of null"
    assert item.files == ("src/capture.js", "src/page.js")  # normalised and unique
    assert item.occurred_at.isoformat() == "2026-02-16T09:30:00+00:00"
    assert item.event_id is None and item.digest == ""


def test_agent_name_is_the_seeds_spelling_of_agent():
    item, errors = outcome_parse(
        {**{k: v for k, v in GOOD.items() if k != "agent"}, "agent_name": "qa"}
    )
    assert errors == {} and item.agent == "qa"


@pytest.mark.parametrize(
    "agent, agent_name, stored",
    [
        ("qa", "qa", "qa"),
        ("qa", "  qa ", "qa"),  # the same name once trimmed, as each spelling is stored
        ("qa", "builder", None),
        ("", "qa", None),  # a blank agent is not "no agent": the two still disagree
        ("QA", "qa", None),  # agent names are case-sensitive, as a key's agent patterns are
    ],
)
def test_agent_and_agent_name_together_must_name_one_agent(agent, agent_name, stored):
    item, errors = outcome_parse({**GOOD, "agent": agent, "agent_name": agent_name})
    if stored is None:
        assert item is None and sorted(errors) == ["agent", "agent_name"]
        assert "agent_name" in errors["agent"][0] and "agent" in errors["agent_name"][0]
    else:
        assert errors == {} and item.agent == stored


def test_a_naive_timestamp_is_utc():
    item, _ = outcome_parse({**GOOD, "occurred_at": "2026-02-16T09:30:00"})
    assert item.occurred_at.tzinfo is not None
    assert item.occurred_at.astimezone(timezone.utc).hour == 9


@pytest.mark.parametrize(
    "name, change, field",
    [
        ("missing task id", {"task_id": None}, "task_id"),
        ("blank task type", {"task_type": "  "}, "task_type"),
        ("no agent at all", {"agent": None}, "agent"),
        ("unknown outcome", {"outcome": "partial"}, "outcome"),
        ("outcome as bool", {"outcome": True}, "outcome"),
        ("unknown field", {"colour": "red"}, "colour"),
        ("task id too long", {"task_id": "x" * 201}, "task_id"),
        ("NUL in agent", {"agent": "a\x00b"}, "agent"),
        ("lone surrogate", {"task_type": "\ud800"}, "task_type"),
        ("context not an object", {"context": ["a"]}, "context"),
        ("result not an object", {"result": "done"}, "result"),
        ("NUL deep in context", {"context": {"a": {"b": "x\x00"}}}, "context"),
        ("negative duration", {"duration_ms": -1}, "duration_ms"),
        ("duration as text", {"duration_ms": "2500"}, "duration_ms"),
        ("duration as bool", {"duration_ms": True}, "duration_ms"),
        ("absurd duration", {"duration_ms": 10**15}, "duration_ms"),
        ("bad timestamp", {"occurred_at": "yesterday"}, "occurred_at"),
        ("impossible date", {"occurred_at": "2026-13-45T00:00:00Z"}, "occurred_at"),
        ("timestamp as number", {"occurred_at": 1760000000}, "occurred_at"),
        ("bad event id", {"event_id": "not-a-uuid"}, "event_id"),
        ("event id as number", {"event_id": 7}, "event_id"),
        ("error type not text", {"context": {"error_type": 5}}, "context.error_type"),
        ("error message not text", {"context": {"error_message": ["a"]}}, "context.error_message"),
        ("files not paths", {"context": {"files": [1, 2]}}, "context.files"),
        ("retry_safe as text", {"context": {"retry_safe": "yes"}}, "context.retry_safe"),
        ("retry_after negative", {"context": {"retry_after": -5}}, "context.retry_after"),
        ("checkpoint not object", {"context": {"checkpoint": [48]}}, "context.checkpoint"),
        ("attempt count zero", {"context": {"attempt_count": 0}}, "context.attempt_count"),
        ("side effects not texts", {"context": {"side_effects": "wrote"}}, "context.side_effects"),
    ],
)
def test_bad_input_is_named_by_field(name, change, field):
    raw = {**GOOD, **change}
    raw = {key: value for key, value in raw.items() if value is not None}
    item, errors = outcome_parse(raw)
    assert item is None
    assert field in errors, errors


def test_not_an_object():
    assert outcome_parse(["x"]) == (None, {"non_field_errors": ["Expected a JSON object."]})


def test_failure_extras_come_from_context():
    item, errors = outcome_parse(
        {
            **GOOD,
            "outcome": "failure",
            "context": {
                "error_message": "boom",
                "retry_safe": False,
                "retry_after": 60,
                "side_effects": ["wrote 47 rows"],
                "checkpoint": {"resume_from": 48},
                "attempt_count": 3,
                "skill_name": "sync",
                "recovery_hint": "resume",
            },
        }
    )
    assert errors == {}
    assert item.failure_extras == {
        "retry_safe": False,
        "retry_after": 60,
        "side_effects": ["wrote 47 rows"],
        "checkpoint": {"resume_from": 48},
        "attempt_count": 3,
        "skill_name": "sync",
        "recovery_hint": "resume",
    }


def test_digest_ignores_event_id_and_key_order():
    one = {**GOOD, "event_id": str(uuid.uuid4()), "context": {"a": 1, "b": 2}}
    two = {"context": {"b": 2, "a": 1}, **GOOD}
    assert request_digest(one) == request_digest(two)
    assert request_digest(one) != request_digest({**two, "task_id": "43"})
    item, _ = outcome_parse(one)
    assert item.digest == request_digest(one)


def test_the_schema_documents_exactly_the_checked_fields():
    assert set(OutcomeInputSerializer().fields) == set(FIELDS)
    required = {name for name, field in OutcomeInputSerializer().fields.items() if field.required}
    assert required == {"task_id", "task_type", "outcome"}


# "pwd=x1" grows into "pwd=[REDACTED:password]": a marker longer than the secret it hides.
GROWS = "pwd=x1"


@pytest.mark.parametrize(
    "where, limit, read",
    [
        ("task_id", 200, lambda item: item.task_id),
        ("agent", 100, lambda item: item.agent),
        ("context.skill_name", 100, lambda item: item.failure_extras["skill_name"]),
        ("context.error_type", 100, lambda item: item.error_type),
    ],
)
def test_the_limit_judges_what_was_sent_and_the_scrubbed_text_is_cut_to_it(where, limit, read):
    value = "n" * (limit - len(GROWS) - 1) + " " + GROWS  # exactly at the limit as sent
    raw = {**GOOD, "outcome": "failure", "context": {"error_message": "boom"}}
    if where.startswith("context."):
        raw["context"][where.split(".")[1]] = value
    else:
        raw[where] = value
    item, errors = outcome_parse(raw)
    assert errors == {}
    assert read(item).startswith("n" * 10) and "x1" not in read(item)
    assert len(read(item)) == limit
