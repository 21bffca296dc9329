"""Every model change ships with its migration: a change made in a model alone would reach no
database (the suite's test database is built from the models' migrations)."""

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_no_model_change_lacks_its_migration():
    try:
        call_command("makemigrations", "--check", "--dry-run", verbosity=0)
    except SystemExit as exit_:  # --check exits 1 when a migration is missing
        pytest.fail(f"a model change has no migration (makemigrations exits {exit_.code})")
