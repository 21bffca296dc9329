"""Curators configure alerts: they add and change destinations and rules, send test alerts and
read the delivery log; deleting a destination or a rule is for administrators."""
from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

CURATORS = "curators"
PERMISSIONS = [
    "view_destination", "add_destination", "change_destination", "test_destination",
    "view_rule", "add_rule", "change_rule",
    "view_delivery",
]


def curators_grant(apps, schema_editor):
    # Permissions are made after the last migration (post_migrate); these must exist now.
    create_permissions(global_apps.get_app_config("alerts"), verbosity=0, apps=apps,
                       using=schema_editor.connection.alias)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    granted = list(Permission.objects.filter(content_type__app_label="alerts",
                                             codename__in=PERMISSIONS))
    if len(granted) != len(PERMISSIONS):
        raise LookupError(f"alerts lacks one of {PERMISSIONS}")
    for group in Group.objects.filter(name=CURATORS):
        group.permissions.add(*granted)


def curators_revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=CURATORS):
        group.permissions.remove(*Permission.objects.filter(
            content_type__app_label="alerts", codename__in=PERMISSIONS))


class Migration(migrations.Migration):

    dependencies = [
        ("alerts", "0001_initial"),
        ("lessons", "0008_curators_group"),
    ]

    operations = [migrations.RunPython(curators_grant, curators_revoke)]
