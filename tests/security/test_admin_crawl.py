"""Every admin page, the dashboard and the reports, asked with hostile query strings and ids by a
superuser (who reaches every page): never a server error.

The pages come from the admin site's own registry, so a model registered later is crawled too.
"""
import pytest
from django.contrib import admin
from django.db import models, transaction
from django.test import Client

from tests.security.access_table import ADMIN_MODELS
from tests.security.test_authorization import objects  # noqa: F401 (one row of each kind)

# A NUL byte (PostgreSQL refuses it in text), a word where a number goes, a number past bigint,
# a date no calendar has, SQL quoting, and an empty value.
VALUES = ["\x00", "abc", "99999999999999999999", "2026-13-45T99:99", "'\"; --", ""]
# Ids in a URL path: the same, plus a negative id (the NUL byte is percent-encoded by hand).
IDS = ["%00", "abc", "99999999999999999999", "-1", "'", "1.5"]
# What every changelist reads from its query string beside the filters: search, ordering,
# page, the error flag, popups, the to-field of a raw-id popup, and a name no filter knows.
CHANGELIST_PARAMS = ["q", "o", "p", "e", "_popup", "_to_field", "all", "no_such_filter"]


def model_admins():
    return sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def stem(model) -> str:
    return f"{model._meta.app_label}/{model._meta.model_name}"


def field_lookups(model) -> list[str]:
    """A lookup per concrete field, as a filter link would spell it; relations by their id."""
    lookups = []
    for field in model._meta.get_fields():
        if field.is_relation and field.many_to_many and not field.auto_created:
            lookups.append(f"{field.name}__id__exact")
        elif field.is_relation and field.concrete:
            lookups += [f"{field.name}__id__exact", f"{field.name}__isnull"]
        elif field.concrete:
            lookups.append(f"{field.name}__exact")
            if isinstance(field, (models.DateTimeField, models.DateField)):
                lookups += [f"{field.name}__gte", f"{field.name}__lt"]
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


def bad(client, path, params=None) -> list[str]:
    """The request, listed if it answers 5xx. Each runs in a savepoint, undone after a server
    error: a database error aborts the test's transaction and would fail every later request."""
    try:
        with transaction.atomic():
            response = client.get(path, params or {})
            if response.status_code >= 500:
                raise _ServerError(f"GET {path} {params}: {response.status_code}")
    except _ServerError as error:
        return [str(error)]
    return []


@pytest.fixture
def superuser(db, django_user_model):
    # A server error comes back as the 500 a browser would get, so one run lists every case.
    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_superuser("crawler"))
    return client


@pytest.mark.parametrize("model_stem", sorted(ADMIN_MODELS))
def test_changelists_survive_hostile_filters(model_stem, superuser, objects, rf):  # noqa: F811
    model, model_admin = next((m, a) for m, a in model_admins() if stem(m) == model_stem)
    request = rf.get("/")
    request.user = _user("crawler")
    params = CHANGELIST_PARAMS + filter_params(model, model_admin, request) + field_lookups(model)
    path = f"/admin/{model_stem}/"
    errors = [line for name in params for value in VALUES
              for line in bad(superuser, path, {name: value})]
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("model_stem", sorted(ADMIN_MODELS))
def test_object_pages_survive_hostile_ids(model_stem, superuser, objects):  # noqa: F811
    model = next(m for m, _ in model_admins() if stem(m) == model_stem)
    errors = []
    for object_id in [*IDS, objects[model_stem]]:
        for page in ("", "change/", "history/", "delete/"):
            errors += bad(superuser, f"/admin/{model_stem}/{object_id}/{page}")
    for name in [field.name for field in model._meta.get_fields()] + ["_changelist_filters"]:
        for value in VALUES:
            errors += bad(superuser, f"/admin/{model_stem}/add/", {name: value})
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


def _user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)
