#!/usr/bin/env python
"""Django's command-line entry point for Hindsight."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line
    from django.db import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as exc:
        # A database that does not answer is a state to fix, not a bug: one line says which.
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if os.environ.get("DATABASE_URL"):
            hint = "check that the server DATABASE_URL names is running"
        else:
            hint = (
                "the embedded one runs while `make run` serves: start it, or run this "
                "command through `.venv/bin/python -m config.embedded COMMAND`"
            )
        sys.exit(f"The database is not running or refuses the connection ({reason}): {hint}.")


if __name__ == "__main__":
    main()
