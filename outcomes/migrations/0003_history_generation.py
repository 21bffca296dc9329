from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('outcomes', '0002_lean_indexes'),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoryGeneration',
            fields=[
                ('agent', models.CharField(max_length=100, primary_key=True, serialize=False)),
                ('token', models.UUIDField()),
            ],
        ),
    ]
