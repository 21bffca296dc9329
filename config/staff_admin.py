"""The admin site and the base of every ModelAdmin here: hostile input never reaches the database,
and an action is refused (403) to whoever lacks the permission it declares.

A changelist's query string may filter on any field of its model (``?occurred_at__year=0``).
Django turns a lookup that fails while the filter is built into an invalid filter (a redirect to
``?e=1``), but some lookups check their value only when the SQL is written (a year lookup turns
its year into a date range there), and the date hierarchy computes its range's end outside that
check; ``GuardedChangeList`` treats those failures the same way, for every admin.

Each admin action names its permission (``@admin.action(permissions=[...])``); Django then hides
the actions a user may not run, and ``GuardedAdmin`` answers 403 when one is posted anyway, as the
change form does, instead of the stock "no action selected".
"""

import contextlib
from functools import wraps

from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import (
    EmptyResultSet,
    FieldDoesNotExist,
    PermissionDenied,
    ValidationError,
)
from django.http import Http404, HttpResponseBadRequest
from django.urls import URLPattern, path
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe


def has_nul(params) -> bool:
    """Whether a query dict holds a NUL byte: PostgreSQL refuses it in any text it compares."""
    return any(
        "\x00" in key or any("\x00" in value for value in params.getlist(key)) for key in params
    )


class HindsightAdminSite(admin.AdminSite):
    """The stock site, named Hindsight, with every page refusing a query string that holds a
    NUL byte (400)."""

    site_header = "Hindsight"
    site_title = "Hindsight admin"
    index_title = "Curation"
    # The lists and pattern pages need the width; the index and breadcrumbs lead everywhere.
    enable_nav_sidebar = False

    def admin_view(self, view, cacheable=False):
        wrapped = super().admin_view(view, cacheable)

        @wraps(wrapped)
        def guarded(request, *args, **kwargs):
            if has_nul(request.GET):
                return HttpResponseBadRequest("A query parameter holds a NUL byte.")
            return wrapped(request, *args, **kwargs)

        return guarded

    def get_urls(self):
        """The stock URLs, with the "view on site" shortcut answering 404 to an id its model's
        key could not hold (Django's lets a malformed UUID through as a 500)."""
        return [
            path(str(url.pattern), self.admin_view(view_on_site), name=url.name)
            if isinstance(url, URLPattern) and url.name == "view_on_site"
            else url
            for url in super().get_urls()
        ]


@admin.display(description="error type", ordering="error_type")
def error_type(obj):
    """A change list's error type column: a dotted class (``psycopg.errors.UniqueViolation``)
    may wrap after its dots, so a long one does not push the list past the page."""
    parts = ((part,) for part in obj.error_type.split("."))
    return format_html_join(mark_safe(".<wbr>"), "{}", parts)


def view_on_site(request, content_type_id, object_id):
    """Django's content-type shortcut (``/admin/r/<type>/<id>/``) for ids a row could have."""
    # Here, not at the top: this module is imported with the admin's app config, before models.
    from django.contrib.contenttypes.models import ContentType
    from django.contrib.contenttypes.views import shortcut

    try:
        model = ContentType.objects.get_for_id(int(content_type_id)).model_class()
    except (ValueError, ContentType.DoesNotExist):
        raise Http404(f"No content type {content_type_id}.") from None
    if model is not None and not _parses(model._meta.pk, object_id):
        raise Http404(f"No {model._meta.verbose_name} has the id {object_id}.")
    return shortcut(request, content_type_id, object_id)


class GuardedChangeList(ChangeList):
    """A changelist whose filters fail as invalid filters wherever their values are checked."""

    def get_queryset(self, request, exclude_parameters=None):
        try:
            queryset = super().get_queryset(request, exclude_parameters)
            _write_sql(queryset)
        except (ValueError, OverflowError) as exc:
            # A year before 1 or past 9999, and the date hierarchy's end of year 9999.
            raise IncorrectLookupParameters(exc) from exc
        return queryset


def _write_sql(queryset) -> None:
    """Write a queryset's SQL now, not when the page counts its rows: a year lookup turns its
    year into a date range only here."""
    with contextlib.suppress(EmptyResultSet):  # a filter no row can match: a valid, empty list
        queryset.query.sql_with_params()


class HindsightAdminConfig(AdminConfig):
    default_site = "config.staff_admin.HindsightAdminSite"

    def ready(self):
        super().ready()  # every app's admin module is imported, its models registered
        guard_registered(admin.site)


def guard_registered(site) -> None:
    """Re-register each admin that does not guard its actions (Django's own, for users and
    groups) as a guarded subclass of itself."""
    for model, model_admin in list(site._registry.items()):
        stock = type(model_admin)
        if not issubclass(stock, GuardedAdmin):
            site.unregister(model)
            site.register(
                model,
                type(f"Guarded{stock.__name__}", (GuardedAdmin, stock), {"__module__": __name__}),
            )


class GuardedAdmin(admin.ModelAdmin):
    """Refuses actions the user may not run and ids no row could have; drops initial values that
    would not parse; treats a filter that fails as an invalid filter (GuardedChangeList)."""

    def get_changelist(self, request, **kwargs):
        return GuardedChangeList

    def changelist_view(self, request, extra_context=None):
        if request.method == "POST" and "action" in request.POST:
            name = request.POST["action"]
            # Every action this admin declares, before the user's permissions filter them.
            base_actions = self._get_base_actions()  # type: ignore[attr-defined]  # ModelAdmin's private method, which django-stubs leave out; no public one lists the actions unfiltered
            declared = {action_name for _, action_name, _ in base_actions}
            if name in declared and name not in self.get_actions(request):
                raise PermissionDenied
            selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
            if not all(_parses(self.model._meta.pk, value) for value in selected):
                return HttpResponseBadRequest("A selected id is not an id of this list.")
        return super().changelist_view(request, extra_context)

    def get_changeform_initial_data(self, request):
        """Initial values from the query string, minus related ids that do not parse: a
        selection widget would look them up and fail."""
        initial = super().get_changeform_initial_data(request)
        for name, value in list(initial.items()):
            field = _relation(self.model, name)
            if field is not None:
                values = value if isinstance(value, list) else [value]
                target = field.target_field
                if not all(_parses(target, each) for each in values):
                    del initial[name]
        return initial


def _relation(model, name):
    """The forward relation (foreign key or many-to-many) a form field of this name edits."""
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return None
    return field if field.is_relation and not field.auto_created else None


def _parses(field, value) -> bool:
    """Whether a value from a request is one the field could hold (PostgreSQL takes no NUL)."""
    if "\x00" in str(value):
        return False
    try:
        field.to_python(value)
    except ValidationError:
        return False
    return True
