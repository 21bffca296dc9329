"""Curators triage failure patterns: resolve, ignore, snooze and reopen them (failures.store.triage)."""
from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

CURATORS = "curators"
PERMISSION = "triage_failurepattern"


def curators_triage_grant(apps, schema_editor):
    # Permissions are made after the last migration (post_migrate); this one must exist now.
    create_permissions(global_apps.get_app_config("failures"), verbosity=0, apps=apps,
                       using=schema_editor.connection.alias)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.get(content_type__app_label="failures", codename=PERMISSION)
    for group in Group.objects.filter(name=CURATORS):
        group.permissions.add(permission)


def curators_triage_revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name=CURATORS):
        group.permissions.remove(*Permission.objects.filter(
            content_type__app_label="failures", codename=PERMISSION))


class Migration(migrations.Migration):

    dependencies = [
        ("failures", "0010_pattern_triage"),
        ("lessons", "0008_curators_group"),
    ]

    operations = [migrations.RunPython(curators_triage_grant, curators_triage_revoke)]
