"""Patterns and root-cause groups name the permissions curation needs: merge patterns, confirm or
split groups, and see the dashboard."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('failures', '0005_boot_type_indexes'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='failurepattern',
            options={'permissions': [('merge_failurepattern', 'Can merge and unmerge failure patterns'), ('view_dashboard', 'Can view the fleet dashboard')]},
        ),
        migrations.AlterModelOptions(
            name='rootcausegroup',
            options={'permissions': [('decide_rootcausegroup', 'Can confirm or split root-cause groups')]},
        ),
    ]
