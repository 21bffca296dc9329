"""Keys bound to agents: the glob match, the apikey command and the admin form."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from config.api.agents import writer_of
from config.api.models import ApiKey
from config.api.services import api_key_create
from config.writers import agent_matches
from failures.records.services import failure_record
from lessons.models import Application, LessonProposal
from outcomes.models import Outcome
from tests.lessons.factories import LessonFactory

# (name, patterns, agent, may act): fnmatch globs, case-sensitive, anchored at both ends.
MATCHES = [
    ("fleet key: any agent", [], "anyone", True),
    ("exact name", ["builder-1"], "builder-1", True),
    ("exact name, other agent", ["builder-1"], "builder-2", False),
    ("star", ["builder-*"], "builder-17", True),
    ("star is anchored at the start", ["builder-*"], "xbuilder-1", False),
    ("pattern is anchored at the end", ["builder"], "builder-1", False),
    ("case matters", ["builder-*"], "Builder-1", False),
    ("question mark is one character", ["ci-?"], "ci-7", True),
    ("question mark is not two", ["ci-?"], "ci-17", False),
    ("character class", ["ci-[0-3]"], "ci-2", True),
    ("any of several patterns", ["builder-*", "ci-?"], "ci-3", True),
    ("none of several patterns", ["builder-*", "ci-?"], "deployer", False),
]


@pytest.mark.parametrize(
    ("patterns", "agent", "allowed"), [m[1:] for m in MATCHES], ids=[m[0] for m in MATCHES]
)
def test_agent_matches(patterns, agent, allowed):
    assert agent_matches(patterns, agent) is allowed


def test_apikey_create_binds_the_key_to_each_agent_pattern(db):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "apikey",
        "create",
        "builders",
        "--scope",
        "write",
        "--agent",
        "builder-*",
        "--agent",
        "ci-?",
        stdout=out,
        stderr=err,
    )
    key = ApiKey.objects.get(name="builders")
    assert key.agent_patterns == ["builder-*", "ci-?"]
    writer = writer_of(key)
    assert writer.may_act_for("builder-3") and not writer.may_act_for("deployer")
    assert "builder-*, ci-?" in err.getvalue()
    assert out.getvalue().strip().startswith("hsk_")  # the raw key alone, as before


def test_apikey_create_without_agent_makes_a_fleet_key(db):
    call_command(
        "apikey", "create", "fleet", "--scope", "write", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert ApiKey.objects.get(name="fleet").agent_patterns == []


def test_apikey_list_shows_the_agent_patterns(db):
    bound = api_key_create(name="builders", scope="write", agent_patterns=["builder-*", "ci-?"])
    fleet = api_key_create(name="fleet", scope="read")
    out = io.StringIO()
    call_command("apikey", "list", stdout=out)
    lines = {line.split("\t")[0]: line.split("\t") for line in out.getvalue().splitlines()}
    assert lines[bound.key.prefix] == [
        bound.key.prefix,
        "write",
        "active",
        "builder-*,ci-?",
        "builders",
    ]
    assert lines[fleet.key.prefix][3] == "*fleet*"


@pytest.mark.parametrize("pattern", ["", "   ", "bad\x00name", "x" * 101])
def test_apikey_create_refuses_a_pattern_no_agent_can_match(db, pattern):
    with pytest.raises(CommandError, match="agent_patterns"):
        call_command(
            "apikey",
            "create",
            "bad",
            "--scope",
            "write",
            "--agent",
            pattern,
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    assert not ApiKey.objects.filter(name="bad").exists()


def test_apikey_create_refuses_agents_on_a_read_key(db):
    """Reads are never bound, so a read key with --agent would claim a limit it does not have."""
    with pytest.raises(CommandError, match="A read key cannot be bound to agents"):
        call_command(
            "apikey",
            "create",
            "reader",
            "--scope",
            "read",
            "--agent",
            "builder-*",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    assert not ApiKey.objects.filter(name="reader").exists()
    with pytest.raises(ValueError, match="agent_patterns"):
        api_key_create(name="reader", scope="read", agent_patterns=["builder-*"])
    call_command(
        "apikey", "create", "reader", "--scope", "read", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert ApiKey.objects.get(name="reader").agent_patterns == []


def test_admin_refuses_agents_on_a_read_key(admin_client):
    response = admin_client.post(
        "/admin/api/apikey/add/",
        {"name": "reader", "scope": "read", "agent_patterns": "builder-*"},
    )
    assert response.status_code == 200  # the form again, with its error on the agents
    assert "read key" in response.context["adminform"].form.errors["agent_patterns"][0]
    assert not ApiKey.objects.exists()


def test_admin_creates_a_bound_key(admin_client):
    response = admin_client.post(
        "/admin/api/apikey/add/",
        {"name": "from-admin", "scope": "write", "agent_patterns": "builder-*, ci-?"},
    )
    assert response.status_code == 302
    assert ApiKey.objects.get(name="from-admin").agent_patterns == ["builder-*", "ci-?"]


def test_admin_edits_the_agent_patterns_of_a_key(admin_client):
    key = api_key_create(name="builders", scope="write", agent_patterns=["builder-*"]).key
    page = admin_client.get(f"/admin/api/apikey/{key.pk}/change/").content.decode()
    assert 'name="agent_patterns"' in page and 'value="builder-*"' in page
    response = admin_client.post(
        f"/admin/api/apikey/{key.pk}/change/",
        {"name": "builders", "agent_patterns": "builder-*,deployer"},
    )
    assert response.status_code == 302
    key.refresh_from_db()
    assert key.agent_patterns == ["builder-*", "deployer"] and key.scope == "write"
    response = admin_client.post(
        f"/admin/api/apikey/{key.pk}/change/", {"name": "builders", "agent_patterns": ""}
    )
    key.refresh_from_db()
    assert key.agent_patterns == []  # emptied: a fleet key again


def test_admin_refuses_a_blank_pattern(admin_client):
    key = api_key_create(name="builders", scope="write", agent_patterns=["builder-*"]).key
    response = admin_client.post(
        f"/admin/api/apikey/{key.pk}/change/",
        {"name": "builders", "agent_patterns": "builder-*,,ci-?"},
    )
    assert response.status_code == 200  # the form again, with its error
    assert response.context["adminform"].form.errors["agent_patterns"]
    key.refresh_from_db()
    assert key.agent_patterns == ["builder-*"]


def test_admin_key_list_shows_what_each_key_may_write_for(admin_client):
    api_key_create(name="builders", scope="write", agent_patterns=["builder-*"])
    api_key_create(name="fleet", scope="write")
    page = admin_client.get("/admin/api/apikey/").content.decode()
    assert "builder-*" in page and "any (fleet key)" in page


def _rows_by(key, n: int) -> dict:
    """One row of each kind an agent writes, written by ``key``."""
    lesson = LessonFactory(api_key=key)
    failure = failure_record(agent=f"agent-{n}", task="t-1", error="disk full", api_key_id=key.pk)
    return {
        "failures/failure": failure,
        "outcomes/outcome": Outcome.objects.create(
            task_id="t-1",
            agent=f"agent-{n}",
            task_type="sync",
            outcome="success",
            occurred_at=timezone.now(),
            api_key=key,
        ),
        "lessons/lesson": lesson,
        "lessons/lessonproposal": LessonProposal.objects.create(
            lesson=lesson, resolution="page oncall", digest=str(n) * 64, api_key=key
        ),
        "lessons/application": Application.objects.create(
            lesson=lesson, worked=True, applied_at=timezone.now(), api_key=key
        ),
    }


WRITTEN = [
    "failures/failure",
    "outcomes/outcome",
    "lessons/lesson",
    "lessons/lessonproposal",
    "lessons/application",
]


@pytest.mark.parametrize("model", WRITTEN)
def test_admin_shows_and_filters_by_the_key_that_wrote_a_row(admin_client, model):
    keys = [api_key_create(name=f"key-{n}", scope="write").key for n in (1, 2)]
    rows = [_rows_by(key, n)[model] for n, key in enumerate(keys, 1)]
    listed = admin_client.get(f"/admin/{model}/", {"api_key__id__exact": keys[1].pk})
    assert [row.pk for row in listed.context["cl"].result_list] == [rows[1].pk]
    assert "key-1" in listed.content.decode()  # the filter offers every key
    page = admin_client.get(f"/admin/{model}/{rows[0].pk}/change/").content.decode()
    assert "written by key" in page.lower() and str(keys[0]) in page
