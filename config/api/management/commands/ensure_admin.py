"""Make sure an admin login exists; print its credentials the one time it is created."""

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the admin login if no superuser exists yet, printing its password once."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("HINDSIGHT_ADMIN_USER", "admin"))

    def handle(self, *args, username, **options):
        users = get_user_model().objects
        if users.filter(is_superuser=True).exists():
            self.stdout.write("An admin login exists already (manage.py changepassword to reset).")
            return
        password = os.environ.get("HINDSIGHT_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        users.create_superuser(username=username, email="", password=password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the admin login (shown only this once):\n"
                f"  user:     {username}\n  password: {password}"
            )
        )
