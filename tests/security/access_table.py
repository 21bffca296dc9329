"""Who may reach what: the service's authorisation design as one table.

Seven kinds of caller (PRINCIPALS) × every URL pattern the service routes. Each row names the URL
pattern as the resolver spells it and the requests made against it; each request says, for every
caller, the status expected, or where a 302 must point. ``test_authorization`` walks the URL
resolver, so a route added without a row here fails the suite.

The design in brief:
- The API (``/api/v1/…``) knows API keys only (``Authorization: Bearer``): no key, an unknown or a
  revoked key is a 401. A signed-in admin session is not a key, so staff without a key get a 401
  too (REST_FRAMEWORK authenticates by config.api.authentication alone). Any live key reads; only
  a write key writes, a read key's write is a 403. A write key bound to agent names ("bound",
  here to ``builder-*``) reads the whole fleet and writes as a fleet key does, except in another
  agent's name: that is a 403 naming the field (a bulk item for another agent is refused alone).
- Health, the OpenAPI schema and its docs page are public, whatever the caller sends.
- The admin, the reports and the dashboard are for staff: everyone else, API keys included, is
  sent to the admin's login. Pages of rows the admin does not let anyone add or delete answer 403
  to staff as well. Here "staff" is a superuser; what each kind of staff member may see and do
  (curator, view-only, no permission) is the second table, ROLES × pages and ADMIN_ACTIONS.
"""

from dataclasses import dataclass, field

PRINCIPALS = ("anon", "read", "write", "revoked", "staff", "user", "bound")
LOGIN = "login"  # a 302 to the admin's login page, with ?next= the page asked for


def cells(anon, read, write, revoked, staff, user, bound=None) -> dict:
    """Each caller's cell; the bound key gets the write key's unless told otherwise."""
    bound = write if bound is None else bound
    return dict(zip(PRINCIPALS, (anon, read, write, revoked, staff, user, bound)))


PUBLIC = cells(200, 200, 200, 200, 200, 200)
API_READ = cells(anon=401, read=200, write=200, revoked=401, staff=401, user=401)


def api_write(done: int, bound: int | None = None) -> dict:
    """A write: ``done`` for a write key, 403 for a read key, 401 without a live key; for the
    bound key ``bound`` (a write in another agent's name), else ``done``."""
    return cells(anon=401, read=403, write=done, revoked=401, staff=401, user=401, bound=bound)


def staff_only(staff=200) -> dict:
    return cells(anon=LOGIN, read=LOGIN, write=LOGIN, revoked=LOGIN, staff=staff, user=LOGIN)


@dataclass(frozen=True)
class Case:
    """One request; ``url`` may name rows (``{lesson}``, ``{report}``…), filled in by the test."""

    method: str
    url: str
    expect: dict
    data: dict = field(default_factory=dict)


LESSON = {"error_pattern": "matrix-pattern", "error_type": "timeout", "resolution": "wait"}
FAILURE = {"agent": "matrix-agent", "task": "t-9", "error": "Stripe API timeout after 9 seconds"}
OUTCOME = {"task_id": "t-9", "agent": "matrix-agent", "task_type": "sync", "outcome": "success"}
OTLP_EXPORT = {
    "resourceSpans": [
        {
            "resource": {
                "attributes": [{"key": "service.name", "value": {"stringValue": "matrix-agent"}}]
            },
            "scopeSpans": [
                {
                    "spans": [
                        {
                            "traceId": "5b8efff798038103d269b633813fc60c",
                            "spanId": "eee19b7ec3c1b174",
                            "name": "run",
                            "startTimeUnixNano": "1767225600000000000",
                            "endTimeUnixNano": "1767225601000000000",
                            "status": {"code": 2, "message": "Stripe API timeout after 9 seconds"},
                        }
                    ]
                }
            ],
        }
    ]
}

# API and page routes, by URL pattern. API patterns are listed without their trailing-slash
# twin (config.api.routing makes both, to the same view; the test checks that).
ROUTES: dict[str, list[Case]] = {
    # The home page names no stored data, like health.
    "": [Case("get", "/", PUBLIC)],
    "api/v1/health": [Case("get", "/api/v1/health", PUBLIC)],
    "api/v1/schema": [Case("get", "/api/v1/schema", PUBLIC)],
    "api/v1/docs": [Case("get", "/api/v1/docs", PUBLIC)],
    "api/v1/lessons": [
        Case("get", "/api/v1/lessons", API_READ),
        # A lesson names no agent: the bound key records it too (200: the write key, asked
        # first, created it; the bound key's call counts an occurrence).
        Case("post", "/api/v1/lessons", api_write(201, bound=200), LESSON),
    ],
    # The POST is the same read with its query in the body (out of URLs and access logs).
    "api/v1/lessons/check": [
        Case("get", "/api/v1/lessons/check", API_READ, {"error_type": "timeout"}),
        Case("post", "/api/v1/lessons/check", API_READ, {"error_type": "timeout"}),
    ],
    "api/v1/lessons/<uuid:lesson_id>": [Case("get", "/api/v1/lessons/{lesson}", API_READ)],
    "api/v1/lessons/<uuid:lesson_id>/applications": [
        Case("post", "/api/v1/lessons/{lesson}/applications", api_write(201), {"worked": True}),
        Case(
            "post",
            "/api/v1/lessons/{lesson}/applications",
            api_write(201, bound=403),
            {"worked": True, "agent": "matrix-agent"},
        ),
    ],
    "api/v1/failures": [
        Case("get", "/api/v1/failures", API_READ),
        Case("post", "/api/v1/failures", api_write(201, bound=403), FAILURE),
    ],
    "api/v1/failures/resolve": [
        Case(
            "post",
            "/api/v1/failures/resolve",
            api_write(200, bound=403),
            {"agent": "matrix-agent", "task": "t-1"},
        )
    ],
    "api/v1/boot": [Case("get", "/api/v1/boot", API_READ, {"agent": "matrix-agent"})],
    "api/v1/patterns/<int:pk>": [Case("get", "/api/v1/patterns/{pattern}", API_READ)],
    "api/v1/releases": [Case("get", "/api/v1/releases", API_READ)],
    "api/v1/outcomes": [Case("post", "/api/v1/outcomes", api_write(201, bound=403), OUTCOME)],
    # Answered per item: the bound key's item for another agent is "forbidden" in a 200.
    "api/v1/outcomes/bulk": [
        Case("post", "/api/v1/outcomes/bulk", api_write(200), {"outcomes": [OUTCOME]})
    ],
    # OTLP/HTTP: a span for another agent is refused alone, in the answer's partial_success.
    "v1/traces": [Case("post", "/v1/traces", api_write(200), OTLP_EXPORT)],
    "api/v1/outcomes/history": [
        Case("get", "/api/v1/outcomes/history", API_READ, {"agent": "matrix-agent"})
    ],
    "api/v1/outcomes/insights": [Case("get", "/api/v1/outcomes/insights", API_READ)],
    "api/v1/outcomes/stats": [Case("get", "/api/v1/outcomes/stats", API_READ)],
    "reports/": [Case("get", "/reports/", staff_only())],
    "reports/<int:pk>/": [Case("get", "/reports/{report}/", staff_only())],
    "reports/<int:pk>.md": [Case("get", "/reports/{report}.md", staff_only())],
    "reports/<int:pk>.json": [Case("get", "/reports/{report}.json", staff_only())],
    "dashboard/": [Case("get", "/dashboard/", staff_only())],
    # The admin site's own pages.
    "admin/": [Case("get", "/admin/", staff_only())],
    # The login form is open to all; staff who are signed in already are sent on to the index.
    "admin/login/": [Case("get", "/admin/login/", {**PUBLIC, "staff": "/admin/"})],
    # Signing out is a POST: a GET is refused (405) to staff, the rest go back to the index.
    "admin/logout/": [
        Case(
            "get",
            "/admin/logout/",
            cells(
                anon="/admin/",
                read="/admin/",
                write="/admin/",
                revoked="/admin/",
                staff=405,
                user="/admin/",
            ),
        )
    ],
    "admin/password_change/": [Case("get", "/admin/password_change/", staff_only())],
    "admin/password_change/done/": [Case("get", "/admin/password_change/done/", staff_only())],
    "admin/autocomplete/": [
        Case(
            "get",
            "/admin/autocomplete/",
            staff_only(),
            {"app_label": "lessons", "model_name": "lesson", "field_name": "patterns", "term": ""},
        )
    ],
    "admin/jsi18n/": [Case("get", "/admin/jsi18n/", staff_only())],
    # "View on site": no model here has a public page, so staff get a 404.
    "admin/r/<path:content_type_id>/<path:object_id>/": [
        Case("get", "/admin/r/{lesson_type}/{lesson}/", staff_only(404))
    ],
    # Auth comes last: its two admins are registered again, guarded (config.staff_admin).
    "admin/^(?P<app_label>api|failures|outcomes|lessons|alerts|auth)/$": [
        Case("get", f"/admin/{app}/", staff_only())
        for app in ("auth", "api", "failures", "outcomes", "lessons", "alerts")
    ],
    # Unknown admin URLs do not tell outsiders what exists.
    "admin/(?P<url>.*)$": [Case("get", "/admin/no-such-page/", staff_only(404))],
    # Confirming a link the fleet suggested, from a pattern's page: a POST (a GET is 405).
    "admin/failures/failurepattern/<int:pattern_id>/links/<int:link_id>/confirm/": [
        Case(
            "get",
            "/admin/failures/failurepattern/{failures/failurepattern}/links/1/confirm/",
            staff_only(405),
        )
    ],
    "admin/auth/user/<id>/password/": [
        Case("get", "/admin/auth/user/{auth/user}/password/", staff_only())
    ],
}

# Every model in the admin, and what staff get on its add and delete pages: 403 where nobody may
# add or delete such rows there (agents write them through the API, or they stay for the record).
ADMIN_MODELS = {
    "auth/group": {"add": 200, "delete": 200},
    "auth/user": {"add": 200, "delete": 200},
    "api/apikey": {"add": 200, "delete": 403},  # revoked, never deleted
    "api/idempotencyrecord": {"add": 403, "delete": 200},
    "failures/failurepattern": {"add": 403, "delete": 403},  # patterns come from failures
    "failures/failure": {"add": 403, "delete": 403},
    "failures/rootcausegroup": {"add": 403, "delete": 403},  # confirmed or split, not deleted
    "failures/regression": {"add": 403, "delete": 403},
    "failures/patternreport": {"add": 403, "delete": 403},
    "outcomes/outcome": {"add": 403, "delete": 403},
    "lessons/lesson": {"add": 200, "delete": 200},
    "lessons/lessonproposal": {"add": 403, "delete": 200},
    "lessons/application": {"add": 403, "delete": 403},  # effectiveness is computed from these
    "alerts/destination": {"add": 200, "delete": 200},
    "alerts/rule": {"add": 200, "delete": 200},
    # Written by deliveries; an administrator deleting a destination deletes its log.
    "alerts/delivery": {"add": 403, "delete": 200},
}


def admin_model_routes() -> dict[str, list[Case]]:
    """The six pages the admin makes for each model, all staff only."""
    routes = {}
    for stem, staff in ADMIN_MODELS.items():
        obj = f"/admin/{stem}/{{{stem}}}/"
        routes.update(
            {
                f"admin/{stem}/": [Case("get", f"/admin/{stem}/", staff_only())],
                f"admin/{stem}/add/": [
                    Case("get", f"/admin/{stem}/add/", staff_only(staff["add"]))
                ],
                f"admin/{stem}/<path:object_id>/history/": [
                    Case("get", f"{obj}history/", staff_only())
                ],
                f"admin/{stem}/<path:object_id>/delete/": [
                    Case("get", f"{obj}delete/", staff_only(staff["delete"]))
                ],
                # Read-only models show their rows on this page too.
                f"admin/{stem}/<path:object_id>/change/": [
                    Case("get", f"{obj}change/", staff_only())
                ],
                f"admin/{stem}/<path:object_id>/": [Case("get", obj, staff_only(f"{obj}change/"))],
            }
        )
    return routes


TABLE: dict[str, list[Case]] = {**ROUTES, **admin_model_routes()}


# --- Staff roles in the admin --------------------------------------------------------------------
# Who may do what inside the admin, by role. A curator belongs to the "curators" group (made by a
# migration); a viewer is staff holding every view permission and nothing else; an editor is staff
# who may view and change lessons but not review them; "staff" is a staff member with no
# permission at all; "user" is signed in but not staff.
ROLES = ("superuser", "curator", "viewer", "editor", "staff", "user", "anon")
CURATOR = frozenset({"superuser", "curator"})
SUPERUSER = frozenset({"superuser"})
# Who may change a lesson on its page (its text, its pattern links); of them, only CURATOR may
# set its status there, which approves or rejects it.
LESSON_CHANGERS = CURATOR | {"editor"}


def roles(superuser, curator, viewer, staff, editor=None) -> dict:
    """A page's answer per role: everyone who is not staff is sent to the admin's login; the
    editor gets what staff without permissions get unless told otherwise."""
    return {
        "superuser": superuser,
        "curator": curator,
        "viewer": viewer,
        "editor": staff if editor is None else editor,
        "staff": staff,
        "user": LOGIN,
        "anon": LOGIN,
    }


# The models a curator reads in the admin; the rest (users, groups, API keys, idempotency
# records) are for administrators.
CURATOR_READS = {
    "lessons/lesson",
    "lessons/lessonproposal",
    "failures/failure",
    "failures/failurepattern",
    "failures/rootcausegroup",
    "failures/regression",
    "failures/patternreport",
    "outcomes/outcome",
    "lessons/application",
    "alerts/destination",
    "alerts/rule",
    "alerts/delivery",
}
# What a curator adds in the admin: lessons, and where alerts go and on what.
CURATOR_ADDS = {"lessons/lesson", "alerts/destination", "alerts/rule"}
READS = roles(200, 200, 200, 403)
ADMIN_READS = roles(200, 403, 200, 403)


def role_pages() -> dict[str, dict]:
    """Every admin page of every model, the indexes, the autocomplete, the dashboard and the
    reports: URL (naming rows as ``{stem}``) → the answer per role."""
    pages = {
        "/admin/": roles(200, 200, 200, 200),  # an empty index for staff with no permission
        # An app whose models a role may not see does not exist for it.
        **{
            f"/admin/{app}/": roles(200, 200, 200, 404)
            for app in ("failures", "outcomes", "alerts")
        },
        "/admin/lessons/": roles(200, 200, 200, 404, editor=200),
        **{f"/admin/{app}/": roles(200, 404, 200, 404) for app in ("auth", "api")},
        "/admin/autocomplete/?app_label=lessons&model_name=lesson&field_name=patterns": READS,
        "/dashboard/": READS,
        "/reports/": READS,
        "/reports/{report}/": READS,
        "/reports/{report}.md": READS,
        "/reports/{report}.json": READS,
    }
    for stem, superuser in ADMIN_MODELS.items():
        reads = READS if stem in CURATOR_READS else ADMIN_READS
        if stem == "lessons/lesson":  # the editor's one model
            reads = {**reads, "editor": 200}
        obj = f"/admin/{stem}/{{{stem}}}/"
        curator_adds = 200 if stem in CURATOR_ADDS else 403
        pages.update(
            {
                f"/admin/{stem}/": reads,
                f"{obj}change/": reads,
                f"{obj}history/": reads,
                f"/admin/{stem}/add/": roles(superuser["add"], curator_adds, 403, 403),
                f"{obj}delete/": roles(superuser["delete"], 403, 403, 403),
            }
        )
    return pages


@dataclass(frozen=True)
class AdminAction:
    """An admin action posted on ``stem``'s list with the rows named ``rows`` selected; the roles
    in ``allowed`` succeed (the rows change), every other staff role gets a 403."""

    stem: str
    action: str
    rows: str
    allowed: frozenset
    extra: dict = field(default_factory=dict)


CONFIRMED = {"post": "yes"}  # the confirmation page's answer, for actions that ask one
ADMIN_ACTIONS = [
    AdminAction("lessons/lesson", "approve", "lessons", CURATOR),
    AdminAction("lessons/lesson", "reject", "lessons", CURATOR),
    AdminAction("lessons/lesson", "accept_proposal", "lessons", CURATOR),
    AdminAction(
        "lessons/lesson", "merge", "lessons", CURATOR, {**CONFIRMED, "survivor": "{lesson}"}
    ),
    AdminAction("lessons/lesson", "delete_selected", "lessons", SUPERUSER, CONFIRMED),
    AdminAction("lessons/lessonproposal", "accept", "proposals", CURATOR),
    AdminAction("lessons/lessonproposal", "dismiss", "proposals", CURATOR),
    AdminAction("lessons/lessonproposal", "delete_selected", "proposals", SUPERUSER, CONFIRMED),
    AdminAction("failures/failurepattern", "merge", "patterns", CURATOR),
    AdminAction("failures/failurepattern", "unmerge", "aliases", CURATOR),
    AdminAction("failures/failurepattern", "resolve", "patterns", CURATOR),
    AdminAction("failures/failurepattern", "ignore", "patterns", CURATOR),
    AdminAction(
        "failures/failurepattern",
        "snooze",
        "patterns",
        CURATOR,
        {"snooze_until": "2099-01-01T00:00"},
    ),
    AdminAction("failures/failurepattern", "reopen", "patterns", CURATOR),
    AdminAction("failures/rootcausegroup", "confirm", "groups", CURATOR),
    AdminAction("failures/rootcausegroup", "split", "groups", CURATOR),
    AdminAction("alerts/destination", "send_test", "destinations", CURATOR),
    AdminAction("alerts/destination", "delete_selected", "destinations", SUPERUSER, CONFIRMED),
    AdminAction("alerts/rule", "delete_selected", "rules", SUPERUSER, CONFIRMED),
    AdminAction("alerts/delivery", "delete_selected", "deliveries", SUPERUSER, CONFIRMED),
    AdminAction("api/apikey", "revoke", "keys", SUPERUSER),
    AdminAction("api/idempotencyrecord", "delete_selected", "records", SUPERUSER, CONFIRMED),
    AdminAction("auth/user", "delete_selected", "users", SUPERUSER, CONFIRMED),
    AdminAction("auth/group", "delete_selected", "groups_of_users", SUPERUSER, CONFIRMED),
]
