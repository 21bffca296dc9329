"""The authorisation matrix: every routed URL × every kind of caller, as access_table decides.

A URL pattern without a row in the table, a row whose pattern no longer exists, or an API view
method the table does not exercise fails ``test_every_route_is_in_the_table``.
"""

import uuid

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.http import QueryDict
from django.urls import URLResolver, get_resolver
from django.utils import timezone

from config.api.models import ApiKey, IdempotencyRecord
from failures.models import Regression, RootCauseGroup
from failures.records.services import failure_record
from failures.staff.reports import pattern_report_build
from lessons.models import Application, Lesson, LessonProposal
from outcomes.models import Outcome
from tests.alerts.conftest import alert_rows
from tests.lessons.factories import LessonFactory
from tests.security.access_table import LOGIN, PRINCIPALS, PUBLIC, TABLE, Case, cells

API_PREFIX = "api/v1/"


def url_patterns(patterns=None, prefix=""):
    """Every routed pattern as ``(route, callback)``, includes walked."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern.url_patterns, route)
        else:
            yield route, pattern.callback


def api_methods(callback) -> set[str]:
    """The HTTP methods an API view implements (OPTIONS, which DRF gives every view, aside)."""
    view = callback.cls
    return {m for m in view.http_method_names if m != "options" and hasattr(view, m)}


def test_every_route_is_in_the_table():
    routed = dict(url_patterns())
    twins = {route for route in routed if route.startswith(API_PREFIX) and route.endswith("/")}
    for twin in twins:  # the trailing-slash spelling must reach the very same view
        assert routed[twin] is routed[twin.rstrip("/")], twin
    routes = set(routed) - twins
    assert sorted(routes - set(TABLE)) == [], "routes missing from access_table"
    assert sorted(set(TABLE) - routes) == [], "rows of access_table that nothing routes"
    for route in routes:
        if route.startswith(API_PREFIX) and hasattr(routed[route], "cls"):
            tested = {case.method for case in TABLE[route]}
            assert api_methods(routed[route]) == tested, route


@pytest.fixture
def objects(db, principals, django_user_model) -> dict[str, object]:
    """One real row of each kind the URLs name, by the placeholder names the table uses."""
    lesson = LessonFactory()
    failure = failure_record(agent="matrix-agent", task="t-1", error="Twilio timeout after 30s")
    now = timezone.now()
    rows = {
        "auth/group": Group.objects.get(name="curators"),  # made by a migration
        "auth/user": django_user_model.objects.get(username="plain"),
        "api/apikey": ApiKey.objects.get(name="reader"),
        "api/idempotencyrecord": IdempotencyRecord.objects.create(
            event_id=uuid.uuid4(),
            operation="lessons_record",
            request_digest="0" * 64,
            status_code=201,
            response={},
        ),
        "failures/failurepattern": failure.pattern,
        "failures/failure": failure,
        "failures/rootcausegroup": RootCauseGroup.objects.create(
            members_key="1" * 40, detected_at=now
        ),
        "failures/regression": Regression.objects.create(
            pattern=failure.pattern,
            kind=Regression.Kind.RESOLVED,
            fixed_at=now,
            since=now,
            detected_at=now,
            evidence={"resolved_failures": 1, "quiet_hours": 24},
        ),
        "failures/patternreport": pattern_report_build(),
        "outcomes/outcome": Outcome.objects.create(
            task_id="t-1",
            agent="matrix-agent",
            task_type="sync",
            outcome="failure",
            occurred_at=now,
        ),
        "lessons/lesson": lesson,
        "lessons/lessonproposal": LessonProposal.objects.create(
            lesson=lesson, resolution="page oncall", digest="d" * 64
        ),
        "lessons/application": Application.objects.create(
            lesson=lesson, worked=True, applied_at=now
        ),
        **dict(zip(("alerts/destination", "alerts/rule", "alerts/delivery"), alert_rows())),
    }
    values = {name: row.pk for name, row in rows.items()}
    values.update(
        lesson=lesson.pk,
        report=rows["failures/patternreport"].pk,
        pattern=failure.pattern.pk,
        lesson_type=ContentType.objects.get_for_model(Lesson).pk,
    )
    return values


def observed(response) -> int | str:
    """A response as the table states it: the status, or a redirect's target."""
    return response["Location"] if response.status_code == 302 else response.status_code


def expected(cell, path: str, query: dict, objects: dict) -> int | str:
    """The table's cell for a request: LOGIN becomes the login URL that comes back here."""
    if isinstance(cell, int):
        return cell
    if cell != LOGIN:
        return cell.format(**objects)
    if query:
        params = QueryDict(mutable=True)
        params.update(query)
        path = f"{path}?{params.urlencode()}"
    login = QueryDict(mutable=True)
    login["next"] = path
    return f"/admin/login/?{login.urlencode(safe='/')}"


def request(client, case: Case, path: str):
    if case.method == "get":
        return client.get(path, case.data)
    return client.post(path, case.data, format="json")


@pytest.mark.parametrize("route", sorted(TABLE))
def test_access(route, principals, objects):
    wrong = []
    for case in TABLE[route]:
        path = case.url.format(**objects)
        for principal in PRINCIPALS:
            response = request(principals[principal], case, path)
            query = case.data if case.method == "get" else {}
            want = expected(case.expect[principal], path, query, objects)
            if observed(response) != want:
                wrong.append(
                    f"{principal} {case.method.upper()} {path}: expected {want}, "
                    f"got {observed(response)}"
                )
            assert response.status_code < 500, (principal, path, response.content[:500])
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("route", sorted(r for r in TABLE if r.startswith(API_PREFIX)))
def test_methods_an_endpoint_lacks_are_refused_after_the_key_check(route, principals, objects):
    """Authentication and scope come before the method: a caller without a live key learns
    nothing from a 405; a read key's unknown method is a write (403)."""
    path = TABLE[route][0].url.format(**objects)
    if TABLE[route][0].expect == PUBLIC:
        want = cells(anon=405, read=405, write=405, revoked=405, staff=405, user=405)
    else:
        want = cells(anon=401, read=403, write=405, revoked=401, staff=401, user=401)
    got = {principal: principals[principal].delete(path).status_code for principal in PRINCIPALS}
    assert got == want


NON_STAFF = [p for p in PRINCIPALS if p != "staff"]


@pytest.mark.parametrize("principal", NON_STAFF)
def test_admin_writes_by_anyone_but_staff_change_nothing(
    principal, principals, objects, django_user_model
):
    client = principals[principal]
    keys = list(ApiKey.objects.values_list("pk", flat=True))
    lesson = Lesson.objects.get(pk=objects["lesson"])
    posts = [
        (
            "/admin/lessons/lesson/add/",
            {
                "error_pattern": "sneaky",
                "error_type": "x",
                "resolution": "y",
                "status": "approved",
            },
        ),
        ("/admin/lessons/lesson/", {"action": "approve", "_selected_action": [lesson.pk]}),
        (f"/admin/lessons/lesson/{lesson.pk}/delete/", {"post": "yes"}),
        ("/admin/api/apikey/add/", {"name": "sneaky", "scope": "write"}),
        ("/admin/api/apikey/", {"action": "revoke", "_selected_action": keys}),
        (
            "/admin/auth/user/add/",
            {"username": "sneaky", "password1": "pw-0123456789x", "password2": "pw-0123456789x"},
        ),
    ]
    for path, data in posts:
        response = client.post(path, data)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/admin/login/"), path
    lesson.refresh_from_db()
    assert lesson.status == Lesson.Status.UNVERIFIED
    assert not Lesson.objects.filter(error_pattern="sneaky").exists()
    assert not ApiKey.objects.filter(name="sneaky").exists()
    assert ApiKey.objects.filter(revoked_at__isnull=True).count() == 3  # reader, writers
    assert not django_user_model.objects.filter(username="sneaky").exists()


def test_the_same_admin_writes_work_for_staff(principals, objects):
    """The refusals above are about who asks: staff doing the same succeed."""
    staff = principals["staff"]
    lesson = Lesson.objects.get(pk=objects["lesson"])
    staff.post("/admin/lessons/lesson/", {"action": "approve", "_selected_action": [lesson.pk]})
    lesson.refresh_from_db()
    assert lesson.status == Lesson.Status.APPROVED
    staff.post("/admin/api/apikey/add/", {"name": "by-staff", "scope": "read"})
    assert ApiKey.objects.filter(name="by-staff").exists()
