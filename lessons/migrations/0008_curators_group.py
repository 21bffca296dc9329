"""The "curators" group: staff who review what the fleet learned, holding exactly the curation
permissions (the admin actions, the dashboard and the reports check them).

Curators read failures, outcomes, patterns, root-cause groups, regressions, reports and the
dashboard; write, edit, approve, reject and merge lessons and decide on agents' proposals; link
lessons to patterns, merge patterns, confirm or split root-cause groups. They do not manage API
keys or users, and delete nothing: a lesson is rejected or merged, never deleted, by a curator.
"""
from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

CURATORS = "curators"
PERMISSIONS = {
    "lessons": ["view_lesson", "add_lesson", "change_lesson", "review_lesson", "merge_lesson",
                # The proposals and history shown inline on a lesson's page.
                "view_lessonproposal", "view_lessoncuration", "view_application"],
    # change_failurepattern is what saving a pattern's linked lessons takes.
    "failures": ["view_failure", "view_failurepattern", "change_failurepattern",
                 "merge_failurepattern", "view_rootcausegroup", "decide_rootcausegroup",
                 "view_regression", "view_patternreport", "view_dashboard"],
    "outcomes": ["view_outcome"],
}


def curators_create(apps, schema_editor):
    # Permissions are made after the last migration (post_migrate); these must exist now.
    for label in PERMISSIONS:
        create_permissions(global_apps.get_app_config(label), verbosity=0, apps=apps,
                           using=schema_editor.connection.alias)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    granted = []
    for label, codenames in PERMISSIONS.items():
        found = list(Permission.objects.filter(content_type__app_label=label,
                                               codename__in=codenames))
        missing = set(codenames) - {p.codename for p in found}
        if missing:
            raise LookupError(f"{label} has no permission {sorted(missing)}")
        granted += found
    group, _ = Group.objects.get_or_create(name=CURATORS)
    group.permissions.set(granted)


def curators_remove(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=CURATORS).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("lessons", "0007_permissions"),
        ("failures", "0006_permissions"),
        ("outcomes", "0002_lean_indexes"),
    ]

    operations = [migrations.RunPython(curators_create, curators_remove)]
