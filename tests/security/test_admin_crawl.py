"""Every admin page, the dashboard and the reports, asked with hostile query strings and ids by a
superuser (who reaches every page): never a server error.

The pages come from the admin site's own registry, so a model registered later is crawled too.
"""

import pytest
from django.contrib import admin
from django.contrib.admin import DateFieldListFilter
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist
from django.db import models, transaction
from django.test import Client

from outcomes.models import Outcome
from tests.security.test_authorization import objects  # noqa: F401 (one row of each kind)

# Hostile values by what a parameter holds. Text: a NUL byte (PostgreSQL refuses it in text)
# and SQL quoting. Numbers and ids: a word, a number past bigint, nothing. Dates: a date no
# calendar has, a word. Parameters of any kind get all of them.
TEXT = ["\x00", "'\"; --"]
NUMBER = ["abc", "99999999999999999999", ""]
DATE = ["2026-13-45T99:99", "abc"]
VALUES = TEXT + NUMBER + DATE[:1]
# Ids in a URL path: the same, plus a negative and a fractional id (NUL percent-encoded by hand).
IDS = ["%00", "abc", "99999999999999999999", "-1", "'", "1.5"]
# What every changelist reads from its query string beside the filters: search, ordering,
# page, the error flag, popups, the to-field of a raw-id popup, and a name no filter knows.
CHANGELIST_PARAMS = ["q", "o", "p", "e", "_popup", "_to_field", "all", "no_such_filter"]
# A date as a date filter or the date hierarchy spells it (field__year, __month, __day), with
# values no calendar has: years before 1 and past 9999 (where Python's dates end), a year past
# any integer, the hierarchy's last month and day of 9999 (its range would end in year 10000),
# month 13 and 0, day 0, 30 February, words, and year comparisons.
DATE_PARTS = [
    {"year": "0"},
    {"year": "-1"},
    {"year": "99999"},
    {"year": "99999999999999999999"},
    {"year": "abc"},
    {"year": "9999"},
    {"year": "9999", "month": "12"},
    {"year": "9999", "month": "12", "day": "31"},
    {"year": "2026", "month": "13"},
    {"year": "2026", "month": "0"},
    {"year": "2026", "month": "abc"},
    {"year": "2026", "month": "2", "day": "30"},
    {"year": "2026", "month": "1", "day": "0"},
    {"month": "13"},
    {"day": "0"},
    {"day": "abc"},
    {"year__gte": "0"},
    {"year__lt": "99999"},
    {"iso_year": "0"},
]


def model_admins():
    return sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def stem(model) -> str:
    return f"{model._meta.app_label}/{model._meta.model_name}"


STEMS = [stem(model) for model, _ in model_admins()]


def field_lookups(model) -> list[tuple[str, list[str]]]:
    """A lookup per concrete field, as a filter link would spell it, with the values that
    field's kind cannot take; relations by their id."""
    lookups = []
    for field in model._meta.get_fields():
        if field.is_relation and (field.concrete or field.many_to_many) and not field.auto_created:
            lookups += [
                (f"{field.name}__id__exact", NUMBER + TEXT[:1]),
                (f"{field.name}__isnull", NUMBER),
            ]
        elif field.concrete and isinstance(field, (models.DateTimeField, models.DateField)):
            lookups += [(f"{field.name}__{op}", DATE + TEXT[:1]) for op in ("exact", "gte", "lt")]
        elif field.concrete and isinstance(
            field, (models.CharField, models.TextField, models.JSONField)
        ):
            lookups.append((f"{field.name}__exact", TEXT))
        elif field.concrete:
            lookups.append((f"{field.name}__exact", NUMBER + TEXT[:1]))
    return lookups


def date_fields(model, model_admin) -> list[str]:
    """What a changelist may filter by date: its date hierarchy, its date list filters and every
    date field of its model (a query string may filter on any field, as a link from elsewhere
    does)."""
    found = [model_admin.date_hierarchy] if model_admin.date_hierarchy else []
    for entry in model_admin.list_filter:
        name, kind = entry if isinstance(entry, (list, tuple)) else (entry, None)
        if isinstance(name, str) and (
            kind is DateFieldListFilter
            or isinstance(_field(model, name), (models.DateField, models.DateTimeField))
        ):
            found.append(name)
    found += [
        field.name
        for field in model._meta.concrete_fields
        if isinstance(field, (models.DateField, models.DateTimeField))
    ]
    return list(dict.fromkeys(found))


def _field(model, name: str):
    """The field a list filter names (``lesson__applied_at`` through its relation), or None."""
    *relations, last = name.split("__")
    try:
        for relation in relations:
            model = model._meta.get_field(relation).related_model
        return model._meta.get_field(last)
    except (FieldDoesNotExist, AttributeError):  # a lookup past a field, or not a relation
        return None


def date_queries(field: str) -> list[dict]:
    return [{f"{field}__{part}": value for part, value in parts.items()} for parts in DATE_PARTS]


def filter_params(model, model_admin, request) -> list[str]:
    """The query parameters the changelist's own filters expect."""
    changelist = model_admin.get_changelist_instance(request)
    return [name for spec in changelist.filter_specs for name in spec.expected_parameters()]


def autocomplete_queries():
    """An autocomplete request for each autocomplete field of a registered admin or inline."""
    queries = []
    for model, model_admin in model_admins():
        admins = [model_admin, *(inline(model, admin.site) for inline in model_admin.inlines)]
        for each in admins:
            for field_name in each.autocomplete_fields:
                queries.append(
                    {
                        "app_label": each.model._meta.app_label,
                        "model_name": each.model._meta.model_name,
                        "field_name": field_name,
                    }
                )
    return queries


class _ServerError(Exception):
    pass


def bad(client, path, data=None, method="get") -> list[str]:
    """The request, listed if it answers 5xx. Each runs in a savepoint, undone after a server
    error: a database error aborts the test's transaction and would fail every later request."""
    try:
        with transaction.atomic():
            response = getattr(client, method)(path, data or {})
            if response.status_code >= 500:
                raise _ServerError(f"{method.upper()} {path} {data}: {response.status_code}")
    except _ServerError as error:
        return [str(error)]
    return []


@pytest.fixture
def superuser(db, django_user_model):
    # A server error comes back as the 500 a browser would get, so one run lists every case.
    client = Client(raise_request_exception=False)
    client.user = django_user_model.objects.create_superuser("crawler")
    client.force_login(client.user)
    return client


@pytest.mark.parametrize("model_stem", STEMS)
def test_changelists_survive_hostile_filters(model_stem, superuser, objects, rf):  # noqa: F811
    model, model_admin = next((m, a) for m, a in model_admins() if stem(m) == model_stem)
    request = rf.get("/")
    request.user = superuser.user
    params = [
        (name, VALUES) for name in CHANGELIST_PARAMS + filter_params(model, model_admin, request)
    ]
    path = f"/admin/{model_stem}/"
    errors = [
        line
        for name, values in params + field_lookups(model)
        for value in values
        for line in bad(superuser, path, {name: value})
    ]
    assert not errors, "\n".join(errors)


def test_every_date_filter_is_crawled():
    fields = {
        stem(model): date_fields(model, model_admin) for model, model_admin in model_admins()
    }
    assert "occurred_at" in fields["failures/failure"]
    assert "occurred_at" in fields["outcomes/outcome"]


@pytest.mark.parametrize("model_stem", STEMS)
def test_date_filters_survive_hostile_dates(
    model_stem,
    superuser,
    objects,  # noqa: F811
    monkeypatch,
):
    """Each date the changelist may filter by, as registered and as its date hierarchy (so an
    admin that adds one later is crawled already)."""
    model, model_admin = next((m, a) for m, a in model_admins() if stem(m) == model_stem)
    path = f"/admin/{model_stem}/"
    errors = []
    for field in date_fields(model, model_admin):
        for hierarchy in dict.fromkeys([model_admin.date_hierarchy, field]):
            monkeypatch.setattr(model_admin, "date_hierarchy", hierarchy)
            errors += [
                line for query in date_queries(field) for line in bad(superuser, path, query)
            ]
    assert not errors, "\n".join(errors)


def test_a_date_no_calendar_has_is_an_invalid_filter(
    superuser,
    objects,  # noqa: F811
    monkeypatch,
):
    """As Django's admin answers a filter it cannot apply: back to the list, flagged ?e=1."""
    path = "/admin/outcomes/outcome/"
    assert superuser.get(path, {"occurred_at__year": "2026"}).status_code == 200
    for query in ({"occurred_at__year": "0"}, {"occurred_at__year": "99999"}):
        response = superuser.get(path, query)
        assert (response.status_code, response["Location"]) == (302, f"{path}?e=1"), query
    monkeypatch.setattr(admin.site._registry[Outcome], "date_hierarchy", "occurred_at")
    response = superuser.get(path, {"occurred_at__year": "9999", "occurred_at__month": "12"})
    assert (response.status_code, response["Location"]) == (302, f"{path}?e=1")
    assert superuser.get(path, {"e": "1"}).status_code == 200


def test_a_year_filter_still_filters(superuser, objects):  # noqa: F811
    path = "/admin/outcomes/outcome/"
    this_year = Outcome.objects.get(pk=objects["outcomes/outcome"]).occurred_at.year
    shown = superuser.get(path, {"occurred_at__year": str(this_year)})
    hidden = superuser.get(path, {"occurred_at__year": str(this_year - 1)})
    assert shown.context["cl"].result_count == 1 and hidden.context["cl"].result_count == 0


def test_the_view_on_site_shortcut_answers_404_to_hostile_ids(superuser, objects):  # noqa: F811
    """``/admin/r/<content type>/<id>/``: an id no row of the type could have, an unknown type,
    or a row with no page of its own is a 404, for every type the site knows."""
    types = [str(pk) for pk in ContentType.objects.order_by("pk").values_list("pk", flat=True)]
    paths = [f"/admin/r/{ct}/{object_id}/" for ct in types for object_id in [*IDS, "zz"]]
    paths += [f"/admin/r/{ct}/1/" for ct in IDS]
    paths.append(f"/admin/r/{objects['lesson_type']}/{objects['lesson']}/")
    answers = {path: superuser.get(path).status_code for path in paths}
    assert {path: code for path, code in answers.items() if code != 404} == {}


def test_paths_the_admin_does_not_route_survive(superuser, objects):  # noqa: F811
    """The admin's catch-all: an unknown app or model is a 404; a path under an object (which
    the admin reads as an old-style object URL and sends to the list) no server error."""
    unknown = [f"/admin/{name}/" for name in IDS] + [f"/admin/failures/{name}/" for name in IDS]
    answers = {path: superuser.get(path).status_code for path in unknown}
    assert {path: code for path, code in answers.items() if code != 404} == {}
    errors = [
        line
        for model_stem in STEMS
        for name in ("zz", "%00", "change/zz")
        for line in bad(superuser, f"/admin/{model_stem}/{objects[model_stem]}/{name}/")
    ]
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("model_stem", STEMS)
def test_object_pages_survive_hostile_ids(model_stem, superuser, objects):  # noqa: F811
    model = next(m for m, _ in model_admins() if stem(m) == model_stem)
    errors = []
    for object_id in [*IDS, objects[model_stem]]:
        for page in ("", "change/", "history/", "delete/"):
            errors += bad(superuser, f"/admin/{model_stem}/{object_id}/{page}")
    # The add page takes initial values from its query string (the dashboard links use it).
    for name in [field.name for field in model._meta.get_fields()] + ["_changelist_filters"]:
        for value in TEXT + NUMBER[:2]:
            errors += bad(superuser, f"/admin/{model_stem}/add/", {name: value})
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("model_stem", STEMS)
def test_actions_survive_hostile_selections(model_stem, superuser, objects):  # noqa: F811
    model_admin = next(a for m, a in model_admins() if stem(m) == model_stem)
    errors = []
    for _, action, _ in model_admin._get_base_actions():
        for value in ["%00", *NUMBER[:2], "\x00"]:
            errors += bad(
                superuser,
                f"/admin/{model_stem}/",
                method="post",
                data={"action": action, "_selected_action": [value]},
            )
    assert not errors, "\n".join(errors)


def test_autocomplete_survives_hostile_queries(superuser, objects):  # noqa: F811
    queries = autocomplete_queries()
    assert queries, "no autocomplete field found: the crawl would prove nothing"
    errors = []
    for query in queries:
        for name in ("term", "page", "app_label", "model_name", "field_name"):
            for value in VALUES:
                errors += bad(superuser, "/admin/autocomplete/", {**query, name: value})
    assert not errors, "\n".join(errors)


def test_staff_pages_survive_hostile_queries(superuser, objects):  # noqa: F811
    pages = [
        "/admin/",
        *(f"/admin/{app}/" for app in {m._meta.app_label for m, _ in model_admins()}),
        "/dashboard/",
        "/reports/",
        f"/reports/{objects['report']}/",
    ]
    errors = [
        line
        for page in pages
        for name in ("page", "p", "q", "since", "until")
        for value in VALUES
        for line in bad(superuser, page, {name: value})
    ]
    for object_id in IDS[2:]:
        errors += [
            line
            for suffix in ("/", ".md", ".json")
            for line in bad(superuser, f"/reports/{object_id}{suffix}")
        ]
    assert not errors, "\n".join(errors)
