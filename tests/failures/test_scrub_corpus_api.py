"""The scrubbing corpus through the REST write path: every format sent once in a failed outcome
(in the context's error message, as another value, as a key, in a list and in the checkpoint),
then read back from the database and from the failures list's JSON.  Prints what it catches in
each place and holds the same target as test_scrub_corpus.py."""

from __future__ import annotations

import json

from failures.models import Failure
from outcomes.models import Outcome
from tests.failures.test_scrub_corpus import FORMATS, KNOWN_MISSES, _caught

BULK = "/api/v1/outcomes/bulk"


def _outcome(name: str, text: str) -> dict:
    return {
        "agent": "corpus",
        "task_id": name,
        "task_type": "scrub",
        "outcome": "failure",
        "context": {
            "error_type": "leak",
            "error_message": text,
            "detail": text,
            text: "as a key",
            "lines": ["first", text],
            "checkpoint": {"state": text},
        },
    }


def _missed(shown: dict[str, str]) -> list[str]:
    return [
        name
        for name, before, secret, after in FORMATS
        if not _caught(before, secret, after, shown[name])
    ]


def test_corpus_is_scrubbed_on_the_rest_write_path(api, read_api):
    outcomes = [_outcome(name, before + secret + after) for name, before, secret, after in FORMATS]
    response = api.post(BULK, {"outcomes": outcomes}, format="json")
    assert response.status_code == 200 and response.json()["created"] == len(FORMATS)

    stored = {
        row.task_id: json.dumps(row.context, ensure_ascii=False)
        for row in Outcome.objects.filter(agent="corpus")
    }
    failures = {
        row.task: row.error + json.dumps(row.checkpoint, ensure_ascii=False)
        for row in Failure.objects.filter(agent="corpus")
    }
    listed = read_api.get("/api/v1/failures", {"agent": "corpus", "limit": 500}).json()["failures"]
    answered = {item["task"]: json.dumps(item, ensure_ascii=False) for item in listed}
    assert len(stored) == len(failures) == len(answered) == len(FORMATS)

    for place, shown in (
        ("outcome context (DB)", stored),
        ("failure record (DB)", failures),
        ("failures list (API JSON)", answered),
    ):
        missed = _missed(shown)
        caught = len(FORMATS) - len(missed)
        print(f"\n{place}: caught {caught}/{len(FORMATS)}; missed: {missed or 'none'}")
        assert 100 * caught / len(FORMATS) >= 95
        assert set(missed) <= KNOWN_MISSES
