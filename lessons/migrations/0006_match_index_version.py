"""The match index's version moves from the cache into the database: one row, written in the
same transaction as the lessons it versions and read in the same statement as a check's
candidates (lessons.match_index)."""
import uuid

from django.db import migrations, models


def first_token(apps, schema_editor):
    apps.get_model("lessons", "MatchIndexVersion").objects.create(id=1, token=uuid.uuid4().hex)


class Migration(migrations.Migration):

    dependencies = [
        ("lessons", "0005_check_by_type_rank_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="MatchIndexVersion",
            fields=[
                ("id", models.PositiveSmallIntegerField(default=1, primary_key=True,
                                                        serialize=False)),
                ("token", models.CharField(max_length=32)),
            ],
        ),
        migrations.RunPython(first_token, migrations.RunPython.noop),
    ]
