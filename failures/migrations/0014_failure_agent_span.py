from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('failures', '0013_otlp_trace'),
    ]

    operations = [
        migrations.AddField(
            model_name='failure',
            name='agent_span',
            field=models.CharField(blank=True, db_default='', default='', editable=False, max_length=16),
        ),
    ]
