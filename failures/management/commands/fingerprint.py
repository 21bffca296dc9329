"""``manage.py fingerprint [FILE]``: group messages into patterns, JSON lines in and out.

Input: one JSON object per line, ``{"message": "..."}``, from FILE or stdin (blank lines are
skipped). Output: one line ``{"fingerprint": ..., "template": ...}`` per input line, same
order, written after the whole input has been grouped (so every answer reflects every merge).
No database is used.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from failures.patterns import group_messages


def read_messages(lines) -> list[str]:
    """Parse the JSON lines; a bad line is a CommandError naming its line number."""
    messages = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"line {number}: not valid JSON ({exc.msg})") from exc
        message = item.get("message") if isinstance(item, dict) else None
        if not isinstance(message, str):
            raise CommandError(f'line {number}: expected an object with a string "message"')
        messages.append(message)
    return messages


class Command(BaseCommand):
    help = 'Read JSON lines {"message": ...}; write {"fingerprint", "template"} per line.'
    requires_system_checks = []  # pure computation: must run even when no database is reachable

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="JSON lines file (default: stdin)")

    def handle(self, *args, **options):
        path = options["file"]
        if path:
            try:
                with open(path, encoding="utf-8") as f:
                    messages = read_messages(f)
            except OSError as exc:
                raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        else:
            messages = read_messages(sys.stdin)
        out = [
            json.dumps({"fingerprint": fp, "template": t}) for fp, t in group_messages(messages)
        ]
        if out:
            self.stdout.write("\n".join(out))
