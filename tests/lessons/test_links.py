"""Lessons learn the other wordings of their fault: reports that a lesson worked for a failure of a
pattern it is not linked to become a candidate link, confirmed by enough evidence from more than
one agent and more than one API key, or by a curator; a curator's removal stands. Wordings sent
with a lesson link it at once when its writer sent them, and count keys when others do."""

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from config.api.agents import writer_of
from config.api.idempotency import REPLAY_HEADER, run_idempotent
from config.api.services import api_key_create
from failures.records.services import failure_record
from lessons.curation import pattern_link_confirm, pattern_link_remove
from lessons.models import Lesson, PatternLink
from lessons.services import application_report
from tests.conftest import bearer, report_worked
from tests.lessons.factories import LessonFactory

# The lesson is written from PostgreSQL's wording; MySQL words the same fault apart.
POSTGRES = "deadlock detected: Process {} waits for ShareLock on transaction {}"
MYSQL = "Deadlock found when trying to get lock; try restarting transaction (thread {})"


@pytest.fixture
def lesson(api):
    body = api.post(
        "/api/v1/lessons",
        {
            "error_pattern": "deadlock detected",
            "error_type": "deadlock",
            "resolution": "Retry the transaction after a short random pause.",
            "error_message": POSTGRES.format(4121, 99120),
        },
        format="json",
    ).json()
    return Lesson.objects.get(pk=body["id"])


def fail(api, agent: str, thread: int = 1, task: str | None = None) -> int:
    """An agent's MySQL deadlock, as it records it; the failure's id."""
    response = api.post(
        "/api/v1/failures",
        {
            "agent": agent,
            "task": task or f"t-{uuid.uuid4().hex[:8]}",
            "error": MYSQL.format(thread),
            "error_type": "OperationalError",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def worked(api, lesson, agent: str, *, works: bool = True, **extra):
    failure_id = fail(api, agent)
    return api.post(
        f"/api/v1/lessons/{lesson.pk}/applications",
        {"worked": works, "agent": agent, "failure_id": failure_id, **extra},
        format="json",
    )


def pattern_matches(api, message: str) -> list[str]:
    """The lessons a check finds through the message's own pattern."""
    body = api.post("/api/v1/lessons/check", {"error_message": message}, format="json").json()
    return [found["id"] for found in body["lessons"] if found["match"] == "pattern"]


def the_link(lesson) -> PatternLink:
    """The lesson's link to MySQL's wording."""
    return PatternLink.objects.get(lesson=lesson, pattern__template__startswith="Deadlock found")


@pytest.fixture
def other_api(make_key):
    """A client holding another write key: another source of evidence."""
    return bearer(make_key("write", name="another-fleet"))


@pytest.fixture
def curator(db):
    return get_user_model().objects.create_user("links-curator", is_staff=True)


def test_worked_three_times_for_two_agents_of_two_keys_is_found_until_a_curator_removes_it(
    api, other_api, lesson, curator
):
    for client, agent in ((api, "agent-a"), (api, "agent-a"), (other_api, "agent-b")):
        assert worked(client, lesson, agent).status_code == 201
    link = the_link(lesson)
    assert (link.state, link.successes, link.agents, link.keys) == ("confirmed", 3, 2, 2)
    assert link.pattern in lesson.patterns.all()
    new_message = MYSQL.format(77031)  # a message of that wording nobody sent before
    assert pattern_matches(api, new_message) == [str(lesson.pk)]

    pattern_link_remove(link=link, user=curator)
    assert pattern_matches(api, new_message) == []
    assert PatternLink.objects.get(pk=link.pk).state == "removed"


def test_two_successes_do_not_link_and_one_agent_alone_does_not_either(api, other_api, lesson):
    worked(api, lesson, "agent-a")
    worked(api, lesson, "agent-b")
    assert (the_link(lesson).state, the_link(lesson).successes) == ("candidate", 2)
    assert pattern_matches(api, MYSQL.format(5)) == []

    other = LessonFactory(error_pattern="lock wait", error_type="deadlock")
    for client in (api, other_api, api, other_api):
        worked(client, other, "agent-a")
    link = PatternLink.objects.get(lesson=other)
    assert (link.state, link.successes, link.agents, link.keys) == ("candidate", 4, 1, 2)
    assert str(other.pk) not in pattern_matches(api, MYSQL.format(5))


def test_one_key_is_one_source_whatever_agents_it_names(api, other_api, lesson):
    """Six successes for five agent names, all sent with one key, link nothing; one report
    with another key makes two sources."""
    for n in range(6):
        worked(api, lesson, f"agent-{n % 5}")
    link = the_link(lesson)
    assert (link.state, link.successes, link.agents, link.keys) == ("candidate", 6, 5, 1)
    assert pattern_matches(api, MYSQL.format(5)) == []
    worked(other_api, lesson, "agent-z")
    assert (the_link(lesson).state, the_link(lesson).keys) == ("confirmed", 2)
    assert pattern_matches(api, MYSQL.format(5)) == [str(lesson.pk)]


def test_the_threshold_is_a_setting(api, lesson, settings):
    settings.HINDSIGHT_LINK_MIN_SUCCESSES, settings.HINDSIGHT_LINK_MIN_AGENTS = 1, 1
    settings.HINDSIGHT_LINK_MIN_KEYS = 1
    worked(api, lesson, "agent-a")
    assert the_link(lesson).state == "confirmed"


def test_a_failed_application_never_links_nor_counts(api, lesson):
    for agent in ("agent-a", "agent-b", "agent-c"):
        assert worked(api, lesson, agent, works=False).status_code == 201
    # A failure naming the lesson it applied reports that it did not work.
    api.post(
        "/api/v1/failures",
        {
            "agent": "agent-d",
            "task": "t-d",
            "error": MYSQL.format(8),
            "applied_lesson": str(lesson.pk),
        },
        format="json",
    )
    # So does a failed outcome naming it.
    api.post(
        "/api/v1/outcomes",
        {
            "task_id": "t-e",
            "agent": "agent-e",
            "task_type": "sync",
            "outcome": "failure",
            "context": {"error_message": MYSQL.format(9)},
            "applied_lesson": str(lesson.pk),
        },
        format="json",
    )
    assert lesson.applications.filter(worked=False).count() == 5
    assert not PatternLink.objects.filter(lesson=lesson).exclude(state="sampled").exists()


def test_a_replayed_application_counts_once(api, lesson):
    body = {"event_id": str(uuid.uuid4())}
    first = worked(api, lesson, "agent-a", **body)
    failure_id = first.json()["failure_id"]
    again = api.post(
        f"/api/v1/lessons/{lesson.pk}/applications",
        {"worked": True, "agent": "agent-a", "failure_id": failure_id, **body},
        format="json",
    )
    assert again[REPLAY_HEADER] == "true"
    assert the_link(lesson).successes == 1


def test_a_success_naming_the_lesson_is_evidence_for_the_failures_it_closed(
    api, other_api, lesson
):
    """An agent that records its failure, applies the lesson and records the task's success
    (the client's usual path) reports the lesson worked for that failure's pattern; a replay of
    the success counts once."""
    for client, agent in ((api, "agent-a"), (other_api, "agent-b"), (other_api, "agent-b")):
        task = f"t-{uuid.uuid4().hex[:8]}"
        fail(client, agent, task=task)
        success = {
            "task_id": task,
            "agent": agent,
            "task_type": "sync",
            "outcome": "success",
            "applied_lesson": str(lesson.pk),
            "event_id": str(uuid.uuid4()),
        }
        assert client.post("/api/v1/outcomes", success, format="json").status_code == 201
        replay = client.post("/api/v1/outcomes", success, format="json")
        assert replay.status_code in (200, 201) and replay[REPLAY_HEADER] == "true"
    link = the_link(lesson)
    assert (link.state, link.successes, link.agents, link.keys) == ("confirmed", 3, 2, 2)
    assert pattern_matches(api, MYSQL.format(31337)) == [str(lesson.pk)]


def test_a_failure_and_its_success_in_one_request_are_evidence(api, lesson):
    base = {"agent": "agent-a", "task_type": "sync", "task_id": "t-bulk"}
    response = api.post(
        "/api/v1/outcomes/bulk",
        {
            "outcomes": [
                {**base, "outcome": "failure", "context": {"error_message": MYSQL.format(3)}},
                {**base, "outcome": "success", "applied_lesson": str(lesson.pk)},
            ]
        },
        format="json",
    )
    assert response.status_code in (200, 201, 207), response.json()
    assert the_link(lesson).successes == 1


def test_a_removed_candidate_stays_removed_until_a_curator_links_it(api, lesson, curator):
    worked(api, lesson, "agent-a")
    link = the_link(lesson)
    pattern_link_remove(link=link, user=curator)
    for agent in ("agent-b", "agent-c", "agent-d"):
        worked(api, lesson, agent)
    link.refresh_from_db()
    assert (link.state, link.successes) == ("removed", 1)
    assert pattern_matches(api, MYSQL.format(5)) == []
    # Nor does an agent's sample message of that wording bring it back.
    api.post(
        "/api/v1/lessons",
        {
            "error_pattern": "deadlock detected",
            "error_type": "deadlock",
            "resolution": lesson.resolution,
            "error_message": MYSQL.format(6),
        },
        format="json",
    )
    assert pattern_matches(api, MYSQL.format(5)) == []

    pattern_link_confirm(link=link, user=curator)
    link.refresh_from_db()
    assert (link.state, link.decided_by) == ("confirmed", curator)
    assert pattern_matches(api, MYSQL.format(5)) == [str(lesson.pk)]


def test_a_curator_may_confirm_a_candidate_early(api, lesson, curator):
    worked(api, lesson, "agent-a")
    pattern_link_confirm(link=the_link(lesson), user=curator)
    assert pattern_matches(api, MYSQL.format(5)) == [str(lesson.pk)]
    assert lesson.curations.filter(action="edit").exists()  # kept in the lesson's history


def test_a_pattern_the_lesson_already_answers_needs_no_candidate(api, lesson):
    own = failure_record(agent="agent-a", task="t-own", error=POSTGRES.format(1, 2))
    api.post(
        f"/api/v1/lessons/{lesson.pk}/applications",
        {"worked": True, "agent": "agent-a", "failure_id": own.pk},
        format="json",
    )
    # The writer's own wording's link, which the report counts towards confirming.
    [link] = PatternLink.objects.filter(lesson=lesson)
    assert (link.pattern_id, link.state, link.successes) == (own.pattern_id, "sampled", 1)


def test_merging_lessons_carries_their_candidates(api, other_api, lesson, curator):
    from lessons.curation import lessons_merge

    duplicate = LessonFactory(error_pattern="deadlock detected again", error_type="deadlock")
    worked(api, lesson, "agent-a")
    worked(api, duplicate, "agent-b")
    worked(other_api, duplicate, "agent-c")
    # The duplicate answers a third wording, which a curator took off the survivor.
    other = failure_record(agent="agent-a", task="t-x", error="lock wait timeout exceeded").pattern
    duplicate.patterns.add(other)
    PatternLink.objects.create(lesson=lesson, pattern=other, state="removed")
    lessons_merge(survivor=lesson, duplicates=[duplicate], user=curator)
    link = PatternLink.objects.get(lesson=lesson, pattern__template__startswith="Deadlock found")
    assert (link.state, link.successes, link.agents, link.keys) == ("confirmed", 3, 3, 2)
    assert link.pattern in lesson.patterns.all() and other not in lesson.patterns.all()


# MySQL's wording as another driver prints it: a pattern of its own until the engine merges it.
MYSQL_DRIVER = "(1213, 'Deadlock found when trying to get lock; try restarting transaction')"


def test_evidence_on_patterns_a_merge_joins_adds_up_on_the_survivor(
    api, other_api, lesson, curator
):
    """Reports of one lesson that landed on two patterns the engine later finds one fault:
    neither link had enough evidence alone; together on the survivor they do."""
    from failures.store.mining import patterns_merge

    worked(api, lesson, "agent-a")
    worked(api, lesson, "agent-a")
    failure_id = api.post(
        "/api/v1/failures",
        {
            "agent": "agent-b",
            "task": "t-driver",
            "error": MYSQL_DRIVER,
            "error_type": "OperationalError",
        },
        format="json",
    ).json()["id"]
    assert (
        other_api.post(
            f"/api/v1/lessons/{lesson.pk}/applications",
            {"worked": True, "agent": "agent-b", "failure_id": failure_id},
            format="json",
        ).status_code
        == 201
    )
    links = PatternLink.objects.filter(lesson=lesson, state="candidate")
    assert sorted(link.successes for link in links) == [1, 2]
    mysql, driver = sorted(links, key=lambda link: -link.successes)
    assert pattern_matches(api, MYSQL.format(9)) == []

    survivor, folded = patterns_merge(
        pattern_ids={mysql.pattern_id, driver.pattern_id}, template=mysql.pattern.template
    )
    assert folded == 1
    [link] = PatternLink.objects.filter(lesson=lesson, pattern=survivor)
    assert (link.state, link.successes, link.agents, link.keys) == ("confirmed", 3, 2, 2)
    assert not PatternLink.objects.filter(pattern_id=driver.pattern_id).exists()
    assert pattern_matches(api, MYSQL.format(9)) == [str(lesson.pk)]


# One wording that quotes the table it is about: the engine keeps each table's pattern apart.
QUOTED = 'Deadlock found when trying to get lock on table "{}"; try restarting transaction'


def test_reports_on_patterns_that_differ_only_in_what_they_quote_add_up(api, other_api, lesson):
    """Neither link has enough evidence alone (one agent, one success); reports that the
    lesson worked for the same wording quoting another table add up, once each, and confirm
    each link the fleet reported."""
    report_worked(api, lesson.pk, "agent-a", QUOTED.format("orders"))
    report_worked(api, lesson.pk, "agent-a", QUOTED.format("orders"))
    assert pattern_matches(api, QUOTED.format("orders")) == []
    report_worked(other_api, lesson.pk, "agent-b", QUOTED.format("invoices"))
    links = PatternLink.objects.filter(
        lesson=lesson, pattern__template__startswith="Deadlock found"
    ).order_by("-successes")
    assert [(link.state, link.successes) for link in links] == [
        ("confirmed", 2),
        ("confirmed", 1),
    ]
    for table in ("orders", "invoices"):
        assert pattern_matches(api, QUOTED.format(table)) == [str(lesson.pk)]
    # A table no report named has no link: the check does not answer it from its kin.
    assert pattern_matches(api, QUOTED.format("refunds")) == []


def test_reports_on_other_words_or_a_removed_link_do_not_add_up(api, other_api, lesson, curator):
    plain = "Deadlock found when trying to get lock on table {}; try restarting transaction"
    report_worked(api, lesson.pk, "agent-a", plain.format("orders"))
    report_worked(api, lesson.pk, "agent-a", plain.format("orders"))
    report_worked(other_api, lesson.pk, "agent-b", plain.format("invoices"))
    reported = PatternLink.objects.filter(lesson=lesson, pattern__template__startswith="Deadlock")
    assert set(reported.values_list("state", flat=True)) == {"candidate"}
    report_worked(api, lesson.pk, "agent-a", QUOTED.format("orders"))
    report_worked(api, lesson.pk, "agent-a", QUOTED.format("orders"))
    removed = PatternLink.objects.get(lesson=lesson, pattern__template__contains='"orders"')
    pattern_link_remove(link=removed, user=curator)
    report_worked(other_api, lesson.pk, "agent-b", QUOTED.format("invoices"))
    report_worked(other_api, lesson.pk, "agent-b", QUOTED.format("invoices"))
    assert PatternLink.objects.get(pk=removed.pk).state == "removed"
    kin = PatternLink.objects.get(lesson=lesson, pattern__template__contains='"invoices"')
    assert (kin.state, kin.successes, kin.agents) == ("candidate", 2, 1)


def test_a_merge_keeps_decisions_and_a_writers_wording_as_they_were(api, curator):
    """The survivor's own decided link stands; else a link a curator removed from a merged
    pattern stays removed on the survivor, and a link on the writer's wording alone stays
    sampled (a merge vouches for nothing)."""
    from failures.store.mining import patterns_merge

    kept = LessonFactory(error_pattern="lock wait", error_type="deadlock")
    removed = LessonFactory(error_pattern="lock waits", error_type="deadlock")
    sampled = LessonFactory(error_pattern="waits for lock", error_type="deadlock")
    first = failure_record(agent="a", task="t-1", error=MYSQL.format(1)).pattern
    second = failure_record(agent="a", task="t-2", error=MYSQL_DRIVER).pattern
    kept.patterns.add(first)
    PatternLink.objects.create(lesson=kept, pattern=first, state="confirmed")
    PatternLink.objects.create(lesson=kept, pattern=second, state="removed")
    removed.patterns.add(first)  # linked to the survivor by a sample, removed from the other
    PatternLink.objects.create(lesson=removed, pattern=second, state="removed")
    PatternLink.objects.create(lesson=removed, pattern=first, state="candidate")
    PatternLink.objects.create(lesson=sampled, pattern=second, state="sampled")
    sampled.patterns.add(second)
    survivor, _ = patterns_merge(pattern_ids={first.pk, second.pk}, template=first.template)
    assert survivor.pk == first.pk
    states = dict(PatternLink.objects.filter(pattern=survivor).values_list("lesson_id", "state"))
    assert states == {kept.pk: "confirmed", removed.pk: "removed", sampled.pk: "sampled"}
    assert set(survivor.lessons.all()) == {kept, sampled}


# --- recording a lesson with several wordings ---------------------------------------------------

WORDINGS = [
    "tool_use ids were found without tool_result blocks immediately after: toolu_01AbC9",
    "An assistant message with 'tool_calls' must be followed by tool messages responding "
    "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
    "call_8f2kQ93",
    "Invalid 'messages[4]': a message with role 'tool' must be a response to a preceeding "
    "message with 'tool_calls'.",
]


def test_error_messages_link_each_wording(api):
    response = api.post(
        "/api/v1/lessons",
        {
            "error_pattern": "tool call without its result",
            "error_type": "invalid_request",
            "resolution": "Send every tool result right after the call that asked for it.",
            "error_messages": WORDINGS,
        },
        format="json",
    )
    assert response.status_code == 201
    lesson_id = response.json()["id"]
    assert Lesson.objects.get(pk=lesson_id).patterns.count() == 3
    for message in WORDINGS:
        fresh = (
            message.replace("01AbC9", "01ZzY7").replace("8f2kQ93", "77xTq1").replace("[4]", "[9]")
        )
        assert pattern_matches(api, fresh) == [lesson_id], message


def test_another_keys_wording_is_a_candidate_until_a_second_key_sends_it(
    api, other_api, make_key, lesson
):
    """The writer's wording links at once (sampled); another key's waits, counted once per key,
    until a second key other than the writer sends it too."""
    assert PatternLink.objects.get(lesson=lesson).state == "sampled"
    record = {
        "error_pattern": "deadlock detected",
        "error_type": "deadlock",
        "resolution": lesson.resolution,
        "error_messages": [MYSQL.format(1)],
    }
    for _ in range(2):
        other_api.post("/api/v1/lessons", record, format="json")
    link = the_link(lesson)
    assert (link.state, link.wordings, link.keys) == ("candidate", 1, 1)
    assert pattern_matches(api, MYSQL.format(5)) == []
    bearer(make_key("write", name="third")).post("/api/v1/lessons", record, format="json")
    assert (the_link(lesson).state, the_link(lesson).wordings) == ("confirmed", 2)
    assert pattern_matches(api, MYSQL.format(5)) == [str(lesson.pk)]


def test_error_messages_are_scrubbed(api):
    # Letters only: the pattern engine alone would keep it literal in the template.
    secret = "abcdefghijklmnopqrstuvwxyzABCDEFGH"
    response = api.post(
        "/api/v1/lessons",
        {
            "error_pattern": "bad key",
            "error_type": "auth",
            "resolution": "Rotate the key.",
            "error_messages": [f"Authorization: Bearer {secret} rejected"],
        },
        format="json",
    )
    assert response.status_code == 201
    templates = Lesson.objects.get(pk=response.json()["id"]).patterns.values_list(
        "template", flat=True
    )
    assert len(templates) == 1 and secret not in templates[0]


@pytest.mark.parametrize(
    "messages, field",
    [
        (["boom"] * 11, "error_messages"),
        ("boom", "error_messages"),
        (["boom", 7], "error_messages.1"),
        ([None], "error_messages.0"),
        (["nul \x00 byte"], "error_messages.0"),
        (["x" * 20_001], "error_messages.0"),
    ],
)
def test_bad_error_messages_are_400_naming_the_field(api, messages, field):
    response = api.post(
        "/api/v1/lessons",
        {"error_pattern": "p", "error_type": "t", "resolution": "r", "error_messages": messages},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]
    assert not Lesson.objects.exists()


# --- counting under concurrency -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_reports_count_each_exactly_once():
    lesson = LessonFactory(error_pattern="deadlock detected", error_type="deadlock")
    keys = [api_key_create(name=f"fleet-{n}", scope="write").key for n in range(3)]
    failures = [
        failure_record(agent=f"agent-{i % 4}", task=f"t-{i}", error=MYSQL.format(i))
        for i in range(24)
    ]

    def report(numbered):
        n, failure = numbered
        try:
            run_idempotent(  # as the view runs it, each with its own event id
                operation="application_record",
                event_id=uuid.uuid4(),
                payload={},
                action=lambda: (
                    201,
                    {
                        "id": application_report(
                            lesson=lesson,
                            worked=True,
                            agent=failure.agent,
                            failure=failure,
                            writer=writer_of(keys[n % 3]),
                        ).pk
                    },
                ),
            )
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(report, enumerate(failures)))
    link = PatternLink.objects.get(lesson=lesson)
    assert (link.state, link.successes, link.agents, link.keys) == ("confirmed", 24, 4, 3)
    assert link.evidence.count() == 24


@pytest.mark.django_db(transaction=True)
def test_concurrent_reports_on_kin_patterns_confirm_them_all_and_never_deadlock():
    """Reports that lock one lesson's links of several kin patterns at once, from eight
    threads: each counted once, every link confirmed, no transaction aborted."""
    lesson = LessonFactory(error_pattern="deadlock detected", error_type="deadlock")
    keys = [api_key_create(name=f"fleet-{n}", scope="write").key for n in range(3)]
    tables = ("orders", "invoices", "refunds", "ledger")
    failures = [
        failure_record(agent=f"agent-{i % 4}", task=f"t-{i}", error=QUOTED.format(tables[i % 4]))
        for i in range(24)
    ]

    def report(numbered):
        n, failure = numbered
        try:
            application_report(
                lesson=lesson,
                worked=True,
                agent=failure.agent,
                failure=failure,
                writer=writer_of(keys[n % 3]),
            )
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(report, enumerate(failures)))
    links = PatternLink.objects.filter(lesson=lesson)
    assert sorted((link.state, link.successes) for link in links) == [("confirmed", 6)] * 4
    assert sum(link.evidence.count() for link in links) == 24


def test_a_link_taken_off_the_lessons_patterns_is_not_relinked_by_evidence(api, curator):
    """The admin's "patterns" field: a pattern taken off (here, one a sample message linked)
    stays off whatever the fleet reports later; linked again by hand, it is back."""
    from lessons.curation import lesson_patterns_set

    response = api.post(
        "/api/v1/lessons",
        {
            "error_pattern": "deadlock detected",
            "error_type": "deadlock",
            "resolution": "Retry.",
            "error_message": MYSQL.format(1),
        },
        format="json",
    )
    lesson = Lesson.objects.get(pk=response.json()["id"])
    [pattern] = lesson.patterns.all()
    lesson_patterns_set(lesson=lesson, patterns=[], user=curator)
    for agent in ("agent-a", "agent-b", "agent-c"):
        worked(api, lesson, agent)
    assert pattern_matches(api, MYSQL.format(5)) == []
    assert the_link(lesson).state == "removed"
    lesson_patterns_set(lesson=lesson, patterns=[pattern], user=curator)
    assert pattern_matches(api, MYSQL.format(5)) == [str(lesson.pk)]
    assert (the_link(lesson).state, the_link(lesson).decided_by) == ("confirmed", curator)


def test_the_migration_counts_keys_and_unlinks_what_one_key_confirmed(api, curator):
    """Links made before keys counted: one key's confirmed link is a candidate again, a
    curator's stays, and an agent's lesson linked by its sample message is sampled."""
    from importlib import import_module
    from types import SimpleNamespace

    from django.apps import apps as django_apps

    migration = import_module("lessons.migrations.0012_keys_count_as_sources")
    steered = LessonFactory(error_pattern="lock wait", error_type="deadlock")
    for agent in ("agent-a", "agent-b", "agent-c"):
        worked(api, steered, agent)
    link = the_link(steered)
    PatternLink.objects.filter(pk=link.pk).update(state="confirmed", keys=0)
    steered.patterns.add(link.pattern)
    decided = LessonFactory(error_pattern="deadlock again", error_type="deadlock")
    worked(api, decided, "agent-a")
    pattern_link_confirm(link=the_link(decided), user=curator)
    sampled = LessonFactory(error_pattern="sampled", error_type="deadlock")
    sampled.patterns.add(link.pattern)

    migration.sources_count(django_apps, SimpleNamespace(connection=connection))
    link.refresh_from_db()
    assert (link.state, link.keys) == ("candidate", 1)
    assert link.pattern not in steered.patterns.all()
    assert the_link(decided).state == "confirmed"
    assert PatternLink.objects.get(lesson=sampled).state == "sampled"
