"""Every alias one hop from its live pattern (failures.live): merges now re-point the aliases of
a merged pattern at the survivor; chains stored by earlier merges are flattened here."""
from django.db import migrations


def flatten(apps, schema_editor):
    FailurePattern = apps.get_model("failures", "FailurePattern")
    # Each pass lifts every alias whose target is itself an alias by one hop; a chain of n hops
    # takes n - 1 passes (merges never form a cycle: a survivor is always live).
    while True:
        chained = FailurePattern.objects.filter(merged_into__merged_into__isnull=False)
        lifted = 0
        for alias in chained.select_related("merged_into").only("pk", "merged_into__merged_into"):
            lifted += FailurePattern.objects.filter(pk=alias.pk).update(
                merged_into_id=alias.merged_into.merged_into_id)
        if not lifted:
            return


class Migration(migrations.Migration):

    dependencies = [("failures", "0011_curators_triage")]

    operations = [migrations.RunPython(flatten, migrations.RunPython.noop)]
