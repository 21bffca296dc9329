"""Admin permissions: every role × every admin page and action, as access_table's role section
decides; a refused action leaves its rows exactly as they were.
"""

import uuid
from importlib import import_module
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from config.api.models import IdempotencyRecord
from config.api.services import api_key_create
from config.staff_admin import GuardedAdmin
from failures.models import RootCauseGroup
from failures.records.services import failure_record
from failures.staff.reports import pattern_report_build
from failures.store.curation import patterns_merge_selected
from lessons.models import Application, LessonProposal, PatternLink
from outcomes.models import Outcome
from tests.alerts.conftest import alert_rows
from tests.conftest import curators_make
from tests.lessons.factories import LessonFactory
from tests.security.access_table import (
    ADMIN_ACTIONS,
    CURATOR,
    LESSON_CHANGERS,
    LOGIN,
    ROLES,
    role_pages,
)

CURATION = {
    "lessons": {
        "view_lesson",
        "add_lesson",
        "change_lesson",
        "review_lesson",
        "merge_lesson",
        "view_lessonproposal",
        "view_lessoncuration",
        "view_application",
    },
    "failures": {
        "view_failure",
        "view_failurepattern",
        "change_failurepattern",
        "merge_failurepattern",
        "triage_failurepattern",
        "view_rootcausegroup",
        "decide_rootcausegroup",
        "view_regression",
        "view_patternreport",
        "view_dashboard",
    },
    "outcomes": {"view_outcome"},
    "alerts": {
        "view_destination",
        "add_destination",
        "change_destination",
        "test_destination",
        "view_rule",
        "add_rule",
        "change_rule",
        "view_delivery",
    },
}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The roles and the rows, made once for the module inside a transaction undone at its end;
    each test runs in a savepoint within it (the db fixture), so what it changes is undone."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield {"clients": _clients(), "rows": _rows()}
        transaction.set_rollback(True)


@pytest.fixture
def clients(world, db) -> dict[str, Client]:
    return world["clients"]


@pytest.fixture
def rows(world, db) -> dict:
    return world["rows"]


def _clients() -> dict[str, Client]:
    """A signed-in client per role (anon has none)."""
    django_user_model = get_user_model()
    users = {
        "superuser": django_user_model.objects.create_superuser("root"),
        "curator": django_user_model.objects.create_user("curator", is_staff=True),
        "viewer": django_user_model.objects.create_user("viewer", is_staff=True),
        "editor": django_user_model.objects.create_user("editor", is_staff=True),
        "staff": django_user_model.objects.create_user("bare", is_staff=True),
        "user": django_user_model.objects.create_user("plain"),
    }
    users["curator"].groups.add(Group.objects.get(name="curators"))
    users["viewer"].user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    users["editor"].user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="lessons", codename__in=["view_lesson", "change_lesson"]
        )
    )
    result = {"anon": Client()}
    for role, user in users.items():
        result[role] = Client()
        result[role].force_login(user)
    return result


def _pattern(error: str):
    return failure_record(
        agent="matrix-agent", task=f"t-{uuid.uuid4().hex[:6]}", error=error
    ).pattern


def _rows() -> dict:
    """The rows the pages name and the actions select, by the table's placeholder names."""
    lesson, other = LessonFactory(resolution="human text"), LessonFactory()
    proposal = LessonProposal.objects.create(
        lesson=lesson, resolution="agent text", digest="d" * 64
    )
    patterns = [
        _pattern("Twilio API timeout after 30 seconds"),
        _pattern("Stripe card declined for customer 42"),
    ]
    merged = patterns_merge_selected(
        patterns=[
            _pattern("disk quota exceeded on volume 7"),
            _pattern("disk quota exceeded on volume 7 of 9"),
        ]
    )
    alias = merged.survivor.aliases.get()
    now = timezone.now()
    group = RootCauseGroup.objects.create(members_key="1" * 40, detected_at=now)
    report = pattern_report_build()
    record = IdempotencyRecord.objects.create(
        event_id=uuid.uuid4(),
        operation="lessons_record",
        request_digest="0" * 64,
        status_code=201,
        response={},
    )
    destination, rule, delivery = alert_rows()
    victim = get_user_model().objects.create_user("victim")
    extra = Group.objects.create(name="extra")
    key = api_key_create(name="matrix-key", scope="read").key
    outcome = Outcome.objects.create(
        task_id="t-1", agent="matrix-agent", task_type="sync", outcome="failure", occurred_at=now
    )
    selections = {
        "lessons": [lesson, other],
        "proposals": [proposal],
        "patterns": patterns,
        "aliases": [alias],
        "groups": [group],
        "keys": [key],
        "records": [record],
        "users": [victim],
        "groups_of_users": [extra],
        "destinations": [destination],
        "rules": [rule],
        "deliveries": [delivery],
    }
    pages = {
        "auth/group": extra,
        "auth/user": victim,
        "api/apikey": key,
        "api/idempotencyrecord": record,
        "failures/failurepattern": patterns[0],
        "failures/failure": patterns[0].failures.first(),
        "failures/rootcausegroup": group,
        "failures/regression": _regression(patterns[0], now),
        "failures/patternreport": report,
        "outcomes/outcome": outcome,
        "lessons/lesson": lesson,
        "lessons/lessonproposal": proposal,
        "lessons/application": Application.objects.create(
            lesson=lesson, worked=True, agent="matrix-agent", applied_at=now
        ),
        "alerts/destination": destination,
        "alerts/rule": rule,
        "alerts/delivery": delivery,
    }
    # A candidate link the fleet's reports made: the lesson worked twice for another pattern.
    link = PatternLink.objects.create(
        lesson=lesson, pattern=patterns[1], successes=2, agents=2, first_seen=now, last_seen=now
    )
    return {
        "selections": selections,
        "lesson": lesson.pk,
        "report": report.pk,
        "link": link.pk,
        **{stem: row.pk for stem, row in pages.items()},
    }


def _regression(pattern, now):
    from failures.models import Regression

    return Regression.objects.create(
        pattern=pattern,
        kind=Regression.Kind.RESOLVED,
        fixed_at=now,
        since=now,
        detected_at=now,
        evidence={"resolved_failures": 1, "quiet_hours": 24},
    )


def observed(response) -> int | str:
    """A status, or LOGIN for the admin's login redirect."""
    if response.status_code == 302 and response["Location"].startswith("/admin/login/"):
        return LOGIN
    return response.status_code


@pytest.mark.parametrize("role", ROLES)
def test_pages(role, clients, rows):
    wrong = []
    for url, expect in role_pages().items():
        path = url.format(**rows)
        got = observed(clients[role].get(path))
        if got != expect[role]:
            wrong.append(f"{role} GET {path}: expected {expect[role]}, got {got}")
    assert not wrong, "\n".join(wrong)


def snapshot(selected) -> list[dict]:
    """Every column of the selected rows, as the database holds them now (gone rows drop out)."""
    model = type(selected[0])
    return list(model.objects.filter(pk__in=[row.pk for row in selected]).order_by("pk").values())


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", ADMIN_ACTIONS, ids=lambda c: f"{c.stem}:{c.action}")
def test_actions(case, role, clients, rows):
    selected = rows["selections"][case.rows]
    before = snapshot(selected)
    path = f"/admin/{case.stem}/"
    data = {
        "action": case.action,
        "_selected_action": [str(row.pk) for row in selected],
        **{name: value.format(**rows) for name, value in case.extra.items()},
    }
    response = clients[role].post(path, data)
    if role in case.allowed:
        assert (response.status_code, response["Location"]) == (302, path)
        assert snapshot(selected) != before, "the action changed nothing"
        return
    assert observed(response) == (LOGIN if role in ("user", "anon") else 403)
    assert snapshot(selected) == before


def test_every_action_has_a_row_and_declares_its_permission():
    """A new action without a row in ADMIN_ACTIONS, or without a permission, fails here."""
    declared = set()
    for model, model_admin in admin.site._registry.items():
        stem = f"{model._meta.app_label}/{model._meta.model_name}"
        for function, name, _ in model_admin._get_base_actions():
            assert getattr(function, "allowed_permissions", ()), f"{stem}:{name}"
            declared.add((stem, name))
    tabled = {(case.stem, case.action) for case in ADMIN_ACTIONS}
    # Delete is Django's own action: listed where any role may delete.
    assert {a for a in declared - tabled if a[1] != "delete_selected"} == set()
    assert tabled - declared == set()


def test_every_registered_admin_guards_its_actions():
    assert [m for m, a in admin.site._registry.items() if not isinstance(a, GuardedAdmin)] == []


def test_the_curators_group_holds_exactly_the_curation_permissions(db):
    held = Group.objects.get(name="curators").permissions.select_related("content_type")
    by_app = {}
    for permission in held:
        by_app.setdefault(permission.content_type.app_label, set()).add(permission.codename)
    assert by_app == CURATION


def test_the_curators_migrations_undo_and_redo(db):
    """Reversed, the group is gone (and the triage grant with it); applied again (over an
    existing group too), it holds exactly the curation permissions."""
    migration = import_module("lessons.migrations.0008_curators_group")
    triage = import_module("failures.migrations.0011_curators_triage")
    editor = SimpleNamespace(connection=connection)
    triage.curators_triage_revoke(django_apps, editor)
    held = Group.objects.get(name="curators").permissions.values_list("codename", flat=True)
    assert set(held) == set().union(*CURATION.values()) - {"triage_failurepattern"}
    migration.curators_remove(django_apps, editor)
    assert not Group.objects.filter(name="curators").exists()
    Group.objects.create(name="curators").permissions.set(
        Permission.objects.filter(codename="delete_outcome")
    )
    curators_make(django_apps, editor)
    held = Group.objects.get(name="curators").permissions.values_list("codename", flat=True)
    assert set(held) == set().union(*CURATION.values())


def test_a_refused_action_is_not_offered_either(clients, rows):
    """The list shows only the actions a role may run: a viewer sees none of the curation
    ones, a curator sees them but not delete."""
    viewer = clients["viewer"].get("/admin/lessons/lesson/").content.decode()
    curator = clients["curator"].get("/admin/lessons/lesson/").content.decode()
    assert 'value="approve"' not in viewer
    assert 'value="approve"' in curator and 'value="delete_selected"' not in curator


def test_hidden_links_follow_the_permissions(clients, rows):
    """The admin index links the dashboard and the reports only for those who may open them."""
    assert "/dashboard/" in clients["curator"].get("/admin/").content.decode()
    assert "/dashboard/" not in clients["staff"].get("/admin/").content.decode()


def _link_decision(rows, decision: str) -> dict:
    """The lesson's change form as a curator would post it, deciding on its candidate link."""
    from lessons.models import Lesson

    lesson = Lesson.objects.get(pk=rows["lesson"])
    return {
        "error_type": lesson.error_type,
        "skill_name": "",
        "resolution": lesson.resolution,
        "resolution_code": "",
        "status": lesson.status,
        "pattern_links-TOTAL_FORMS": 1,
        "pattern_links-INITIAL_FORMS": 1,
        "pattern_links-0-id": rows["link"],
        "pattern_links-0-lesson": str(lesson.pk),
        "pattern_links-0-decision": decision,
        "proposals-TOTAL_FORMS": 1,
        "proposals-INITIAL_FORMS": 1,
        "proposals-0-id": rows["lessons/lessonproposal"],
        "proposals-0-lesson": str(lesson.pk),
        "curations-TOTAL_FORMS": 0,
        "curations-INITIAL_FORMS": 0,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("decision, state", [("confirm", "confirmed"), ("remove", "removed")])
def test_deciding_a_pattern_link_on_the_lesson_page(decision, state, role, clients, rows):
    """Confirming or removing a link learned from the fleet is changing the lesson: curators
    and editors may, view-only staff may not, and a refused decision leaves the link and the
    lesson's patterns as they were."""
    from lessons.models import Lesson

    lesson = Lesson.objects.get(pk=rows["lesson"])
    before = (
        snapshot([PatternLink.objects.get(pk=rows["link"])]),
        sorted(lesson.patterns.values_list("pk", flat=True)),
    )
    path = f"/admin/lessons/lesson/{rows['lesson']}/change/"
    response = clients[role].post(path, _link_decision(rows, decision))
    link = PatternLink.objects.get(pk=rows["link"])
    if role in LESSON_CHANGERS:
        assert response.status_code == 302, response.content.decode()[:3000]
        assert link.state == state
        assert (link.pattern in lesson.patterns.all()) == (state == "confirmed")
        return
    assert observed(response) == (LOGIN if role in ("user", "anon") else 403)
    assert (snapshot([link]), sorted(lesson.patterns.values_list("pk", flat=True))) == before


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("status", ["approved", "rejected"])
def test_setting_the_status_on_the_lesson_page_is_reviewing(status, role, clients, rows):
    """The change form's status field approves or rejects: those who may review set it; an
    editor's post saves the text and leaves the status (read-only for them, not offered);
    everyone else changes nothing."""
    from lessons.models import Lesson

    path = f"/admin/lessons/lesson/{rows['lesson']}/change/"
    before = snapshot([Lesson.objects.get(pk=rows["lesson"])])
    body = {**_link_decision(rows, ""), "status": status, "resolution": "edited text"}
    response = clients[role].post(path, body)
    lesson = Lesson.objects.get(pk=rows["lesson"])
    if role in LESSON_CHANGERS:
        assert response.status_code == 302, response.content.decode()[:3000]
        assert lesson.resolution == "edited text"
        assert lesson.status == (status if role in CURATOR else "unverified")
        page = clients[role].get(path).content.decode()
        assert ('name="status"' in page) == (role in CURATOR)
        return
    assert observed(response) == (LOGIN if role in ("user", "anon") else 403)
    assert snapshot([lesson]) == before


@pytest.mark.parametrize("role, decides", [("curator", True), ("viewer", False)])
def test_the_lesson_page_shows_learned_links_with_their_evidence(role, decides, clients, rows):
    page = clients[role].get(f"/admin/lessons/lesson/{rows['lesson']}/change/").content.decode()
    assert "pattern links learned from the fleet" in page.lower()
    assert "Stripe card declined for customer" in page  # the candidate's pattern
    assert ("pattern_links-0-decision" in page) == decides


@pytest.mark.parametrize(
    "role, triages", [("curator", True), ("viewer", False), ("superuser", True)]
)
def test_the_pattern_page_offers_triage_to_those_who_may(role, triages, clients, rows):
    page = clients[role].get(
        f"/admin/failures/failurepattern/{rows['failures/failurepattern']}/change/"
    )
    assert page.status_code == 200
    content = page.content.decode()
    assert 'id="triage-state"' in content  # everyone who sees the pattern sees its state
    assert ('value="ignore"' in content) == triages
