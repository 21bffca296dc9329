"""A secret an agent puts in any field it sends, through any write endpoint, is never stored,
cached under, or served back: not by the writes' answers, the reads (JSON and markdown), nor the
admin's pages. Names that serve as lookup keys still find their rows when sent again as written."""

import uuid

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from failures.models import Failure
from lessons.models import Lesson, LessonProposal

pytestmark = pytest.mark.django_db

# An OpenAI project key shape config.scrubbing catches; TRACE is what would show if any part of
# it leaked (its body repeats, so a cut copy would still show it).
TRACE = "A1b2C3d4E5f6G7h8"
SECRET = "sk-proj-" + TRACE * 3


def named(label: str) -> str:
    """A name an agent might send with a key pasted into it by mistake."""
    return f"{label} {SECRET}"


AGENT, TASK, TASK_TYPE, SKILL, ERROR_TYPE = (
    named(x) for x in ("agent", "task", "type", "skill", "error")
)
# What the agent runs, each with the secret too.
VERSIONS = {name: named(name) for name in ("release", "model", "prompt_version")}
MESSAGE = f"401 from the API with key {SECRET} after 3 attempts"

CONTEXT = {
    "error_type": ERROR_TYPE,
    "error_message": MESSAGE,
    "skill_name": SKILL,
    "file_path": f"src/{SECRET}.py",
    "files": [f"conf/{SECRET}.yml"],
    "side_effects": [f"wrote {SECRET} to the cache"],
    "recovery_hint": f"rotate {SECRET}",
    "checkpoint": {"cursor": 48, "last": SECRET},
    "retry_safe": True,
}
OUTCOME = {
    "task_id": TASK,
    "agent": AGENT,
    "task_type": TASK_TYPE,
    "outcome": "failure",
    "context": CONTEXT,
    "result": {"approach": f"used {SECRET}", "files_changed": [f"lib/{SECRET}.py"]},
    **VERSIONS,
}
FAILURE = {
    "agent": AGENT,
    "task": TASK,
    "error": MESSAGE,
    "error_type": ERROR_TYPE,
    "title": f"title {SECRET}",
    "task_description": f"desc {SECRET}",
    "task_type": TASK_TYPE,
    "skill_name": SKILL,
    "side_effects": [f"sent {SECRET}"],
    "recovery_hint": f"hint {SECRET}",
    "checkpoint": {"step": 2, "token": "plain", "note": SECRET},
    **VERSIONS,
}
LESSON = {
    "error_pattern": f"pattern {SECRET}",
    "error_type": ERROR_TYPE,
    "skill_name": SKILL,
    "resolution": f"retry with {SECRET}",
    "resolution_code": f"client(api_key='{SECRET}')",
    "context": {"url": f"https://bob:{SECRET}@db.internal/x"},
    "error_message": MESSAGE,
    "error_messages": [MESSAGE, f"Incorrect API key provided: {SECRET}"],
}
# Every write an agent can make, each carrying the secret in every field it has.
WRITES = [
    ("/api/v1/outcomes", lambda ids: {**OUTCOME, "event_id": str(uuid.uuid4())}),
    (
        "/api/v1/outcomes/bulk",
        lambda ids: {
            "outcomes": [
                {**OUTCOME, "agent": named("bulk")},
                {**OUTCOME, "outcome": "success", "agent": named("bulk")},
            ]
        },
    ),
    ("/api/v1/failures", lambda ids: {**FAILURE, "event_id": str(uuid.uuid4())}),
    ("/api/v1/lessons", lambda ids: {**LESSON, "event_id": str(uuid.uuid4())}),
    # Again, once approved: the new resolution becomes a proposal.
    ("/api/v1/lessons", lambda ids: {**LESSON, "resolution": f"other {SECRET}"}),
    (
        "/api/v1/lessons/{lesson}/applications",
        lambda ids: {
            "worked": False,
            "agent": AGENT,
            "task_id": TASK,
            "failure_id": ids["failure"],
            "event_id": str(uuid.uuid4()),
        },
    ),
    ("/api/v1/failures/resolve", lambda ids: {"agent": named("other"), "task": TASK}),
]
# Every read that shows what was stored, with the names sent as the agent wrote them.
READS = [
    ("/api/v1/failures", {}),
    ("/api/v1/failures", {"format": "markdown"}),
    ("/api/v1/failures", {"agent": AGENT, "task": TASK}),
    ("/api/v1/boot", {"agent": AGENT}),
    ("/api/v1/boot", {"agent": AGENT, "release": VERSIONS["release"]}),
    ("/api/v1/boot", {"agent": AGENT, "release": VERSIONS["release"], "format": "markdown"}),
    ("/api/v1/boot", {"agent": AGENT, "format": "markdown"}),
    (
        "/api/v1/boot",
        {"agent": AGENT, "task_type": TASK_TYPE, "scope": "fleet", "format": "markdown"},
    ),
    ("/api/v1/outcomes/history", {"agent": AGENT, "task_type": TASK_TYPE, "task_id": TASK}),
    (
        "/api/v1/outcomes/history",
        {
            "agent": AGENT,
            "task_type": TASK_TYPE,
            "format": "markdown",
            "files": f"src/{SECRET}.py",
        },
    ),
    ("/api/v1/outcomes/insights", {"agent": AGENT, "task_type": TASK_TYPE}),
    ("/api/v1/outcomes/stats", {}),
    ("/api/v1/lessons", {"skill_name": SKILL}),
    ("/api/v1/lessons/check", {"error_message": MESSAGE, "skill_name": SKILL}),
]
APPS = ("failures", "lessons", "outcomes", "api")


@pytest.fixture
def written(api):
    """Make every write; answer the write answers' bodies."""
    ids, bodies = {}, []
    for url, body in WRITES:
        if url == "/api/v1/lessons" and "lesson" in ids:
            Lesson.objects.filter(pk=ids["lesson"]).update(status="approved")
        response = api.post(url.format(**ids), body(ids), format="json")
        assert response.status_code in (200, 201), (url, response.content)
        bodies.append(response.content.decode())
        answer = response.json()
        if url == "/api/v1/failures":
            ids["failure"] = answer["id"]
        if url == "/api/v1/lessons":
            ids["lesson"] = answer["id"]
    return bodies


def test_no_stored_row_holds_the_secret(written):
    assert LessonProposal.objects.exists()  # the proposal path ran
    # Only the secret goes: the rest of each value stays, to debug with.
    assert Failure.objects.filter(
        checkpoint__step=2, checkpoint__token="[REDACTED:token]"
    ).exists()
    assert Lesson.objects.get().context["url"].endswith("@db.internal/x")
    for model in apps.get_models():
        if model._meta.app_label in APPS:
            for row in model.objects.values():
                assert TRACE not in str(row), (model.__name__, row)


def test_no_answer_holds_the_secret(written, api):
    answers = list(written)
    for url, params in READS:
        response = api.get(url, params)
        assert response.status_code == 200, (url, response.content)
        answers.append(response.content.decode())
    posted = api.post("/api/v1/lessons/check", {"error_message": MESSAGE}, format="json")
    answers.append(posted.content.decode())
    for url_params, answer in zip(["writes"] * len(written) + READS, answers):
        assert TRACE not in answer, url_params


def test_names_sent_again_as_written_find_their_rows(written, api):
    """Stored names are scrubbed; the same names in a read or a write are scrubbed alike."""
    boot = api.get("/api/v1/boot", {"agent": AGENT}).json()
    assert boot["recent_failures"] and "REDACTED" in boot["agent"]
    # The release boot is asked about is the release its failures were stored under.
    released = api.get("/api/v1/boot", {"agent": AGENT, "release": VERSIONS["release"]}).json()
    assert released["release"] in set(Failure.objects.values_list("release", flat=True))
    listed = api.get("/api/v1/failures", {"agent": AGENT, "task": TASK}).json()["failures"]
    assert {f["agent"] for f in listed} == {boot["agent"]}
    history = api.get("/api/v1/outcomes/history", {"agent": AGENT, "task_type": TASK_TYPE})
    assert history.json()["metadata"]["historyStats"]["recentFailures"] >= 1
    assert api.get("/api/v1/lessons", {"skill_name": SKILL}).json()["total"] == 1
    # A success of the task, as the agent names it, closes its open failures.
    success = {**OUTCOME, "outcome": "success", "context": {}, "result": {}}
    assert api.post("/api/v1/outcomes", success, format="json").json()["resolved_failures"] >= 1


def test_no_admin_page_shows_the_secret(written, admin_client):
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in APPS:
            continue
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        pages = [reverse(f"{name}_changelist")]
        try:
            pages += [
                reverse(f"{name}_change", args=[pk])
                for pk in model.objects.values_list("pk", flat=True)
            ]
        except NoReverseMatch:
            pass
        for page in pages:
            response = admin_client.get(page)
            assert TRACE not in response.content.decode(), page
