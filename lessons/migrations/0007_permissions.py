"""Lessons name the permissions curation needs: approve or reject (and decide on proposals), merge."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('lessons', '0006_match_index_version'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='lesson',
            options={'permissions': [('review_lesson', "Can approve or reject lessons and decide on agents' proposals"), ('merge_lesson', 'Can merge lessons')]},
        ),
    ]
