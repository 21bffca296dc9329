"""``manage.py apikey create NAME --scope write [--agent 'builder-*' ...]`` | ``apikey list`` |
``apikey revoke PREFIX``."""

from django.core.management.base import BaseCommand, CommandError

from config.api.models import ApiKey
from config.api.services import api_key_create, api_key_revoke


class Command(BaseCommand):
    help = "Create, list or revoke API keys. 'create' prints the raw key alone on its last line."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="create a key and print it once")
        create.add_argument("name")
        create.add_argument("--scope", choices=ApiKey.Scope.values, default=ApiKey.Scope.READ)
        create.add_argument(
            "--agent",
            action="append",
            default=[],
            dest="agents",
            metavar="PATTERN",
            help="bind a write key to agents matching this glob "
            "(repeatable); without it the key is a fleet key, writing for "
            "any agent. A read key takes none: reads are never bound",
        )
        sub.add_parser("list", help="list keys (never their secret part)")
        revoke = sub.add_parser("revoke", help="revoke the key with this prefix")
        revoke.add_argument("prefix")

    def handle(self, *args, action, **options):
        getattr(self, f"_{action}")(**options)

    def _create(self, name, scope, agents, **_):
        try:
            created = api_key_create(name=name, scope=scope, agent_patterns=agents)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        bound = f" for agents {', '.join(agents)}" if agents else " (fleet key: any agent)"
        self.stderr.write(f"Created {scope} key '{name}'{bound}. It is shown once; store it now:")
        self.stdout.write(created.raw)

    def _list(self, **_):
        for key in ApiKey.objects.all():
            state = "revoked" if key.revoked_at else "active"
            agents = ",".join(key.agent_patterns) or "*fleet*"
            self.stdout.write(f"{key.prefix}\t{key.scope}\t{state}\t{agents}\t{key.name}")

    def _revoke(self, prefix, **_):
        keys = list(ApiKey.objects.filter(prefix=prefix))
        if len(keys) != 1:
            raise CommandError(
                f"{len(keys)} keys have the prefix {prefix!r}; expected exactly one"
            )
        api_key_revoke(key=keys[0])
        self.stdout.write(f"Revoked {keys[0]}")
