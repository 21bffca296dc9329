"""Every admin page, the dashboard and the reports, asked with hostile query strings and ids by a
superuser (who reaches every page): never a server error.

The pages come from the admin site's own registry, so a model registered later is crawled too.
"""
import pytest
from django.contrib import admin
from django.db import models, transaction
from django.test import Client

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
            lookups += [(f"{field.name}__id__exact", NUMBER + TEXT[:1]),
                        (f"{field.name}__isnull", NUMBER)]
        elif field.concrete and isinstance(field, (models.DateTimeField, models.DateField)):
            lookups += [(f"{field.name}__{op}", DATE + TEXT[:1]) for op in ("exact", "gte", "lt")]
        elif field.concrete and isinstance(field, (models.CharField, models.TextField,
                                                   models.JSONField)):
            lookups.append((f"{field.name}__exact", TEXT))
        elif field.concrete:
            lookups.append((f"{field.name}__exact", NUMBER + TEXT[:1]))
    return lookups


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
                queries.append({"app_label": each.model._meta.app_label,
                                "model_name": each.model._meta.model_name,
                                "field_name": field_name})
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
    params = [(name, VALUES) for name in
              CHANGELIST_PARAMS + filter_params(model, model_admin, request)]
    path = f"/admin/{model_stem}/"
    errors = [line for name, values in params + field_lookups(model) for value in values
              for line in bad(superuser, path, {name: value})]
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
            errors += bad(superuser, f"/admin/{model_stem}/", method="post",
                          data={"action": action, "_selected_action": [value]})
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
    pages = ["/admin/", *(f"/admin/{app}/" for app in {m._meta.app_label for m, _ in
                                                       model_admins()}),
             "/dashboard/", "/reports/", f"/reports/{objects['report']}/"]
    errors = [line for page in pages for name in ("page", "p", "q", "since", "until")
              for value in VALUES for line in bad(superuser, page, {name: value})]
    for object_id in IDS[2:]:
        errors += [line for suffix in ("/", ".md", ".json")
                   for line in bad(superuser, f"/reports/{object_id}{suffix}")]
    assert not errors, "\n".join(errors)

