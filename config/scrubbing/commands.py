"""Rules for passwords known by the command or the file format they are written in: short flags
of the tools that take a password with one (``mysql -psecret``, ``docker login -p x``,
``redis-cli -a x``), ``curl -u user:password``, single-dash flags (``keytool -storepass x``,
``openssl -passin pass:x``), ``.netrc`` lines, PowerShell's ``ConvertTo-SecureString``, and a
secret whose name and value stand apart (``<password>x</password>``,
``define('DB_PASSWORD', 'x')``, ``<add key="DbPassword" value="x"/>``,
``{"name": "API_KEY", "value": "x"}``, a Kubernetes env entry's ``name:`` line and ``value:``
line).  They run after the context rules."""

from __future__ import annotations

import re

from .context import FLAG_PLACEHOLDER, FLAG_PROSE, PAIR_TRIGGERS, PAIR_WORDS, key_start_of
from .keys import key_judgement, names_no_secret, plainly_no_credential
from .rule import MARKER_PREFIX, Rule

# A flag's value: quoted, or a bare word that does not start like the next flag.
_FLAG_VALUE = (
    r"(?:\"(?P<secret_dq>[^\"\r\n]*)\"|'(?P<secret_sq>[^'\r\n]*)'"
    r"|(?P<secret_bare>[^\s\"'\-][^\s\"'`|;&]*))"
)
_FLAG_VALUES = ("secret_dq", "secret_sq", "secret_bare")
# The rest of a command line before its flag: 200 characters at most, so each command name
# costs a bounded scan (linear time on a line that repeats "mysql mysql ...").
_ARGS = r"\b[^\r\n|;&]{0,200}?[ \t]"
# Values a password option takes that name where the password is, not the password.
_INDIRECT = re.compile(r"(?:env|file|fd|stdin)(?::|$)")


def _value(match: re.Match[str]) -> str:
    return next((v for v in map(match.group, _FLAG_VALUES) if v is not None), "")


def _accept_flag_value(match: re.Match[str], text: str) -> str | None:
    """The value of a password flag, unless it is a metavar, a variable, a placeholder, a
    marker, prose or the name of where the password is read from."""
    value = _value(match)
    if (
        not value
        or value.startswith(MARKER_PREFIX)
        or names_no_secret(value)
        or FLAG_PLACEHOLDER.fullmatch(value)
        or value.lower() in FLAG_PROSE
        or _INDIRECT.match(value)
    ):
        return None
    return "password"


def _accept_user_password(match: re.Match[str], text: str) -> str | None:
    """``-u user:password``; ``-u 1000:1000`` (a uid and gid) and ``$USER:$PASS`` are not."""
    user, secret = match.group("user"), match.group("secret")
    if secret.startswith(MARKER_PREFIX) or (user.isdigit() and secret.isdigit()):
        return None
    if names_no_secret(secret) or secret.startswith("$"):
        return None
    return "password"


# A .netrc line before its password: "machine host login user" (or "default ...").
_NETRC_BEFORE = re.compile(r"(?i)(?:^|[ \t])(?:machine|default|login|account)[ \t]")


def _accept_netrc(match: re.Match[str], text: str) -> str | None:
    start = match.start()
    line_start = max(text.rfind("\n", 0, start) + 1, start - 200)
    if _NETRC_BEFORE.search(text, line_start, start) is None:
        return None
    return _accept_flag_value(match, text)


# What stands before a name whose value comes in a separate attribute or entry:
# key="..." / name="..." (XML attributes, JSON "name": "..."), or a YAML "name:" line.
_NAME_BEFORE = re.compile(r"(?i)(?:key|name)[\"']?[ \t]*[:=][ \t]*[\"']?$")


# A call's first argument, a quoted name: define('DB_PASSWORD', ...), setenv("TOKEN", ...).
_CALL_BEFORE = re.compile(r"\([ \t]*[\"']$")
_NAMED_VALUES = ("secret_xml", "secret_attr", "secret_yaml", "secret_arg")


def _accept_named(match: re.Match[str], text: str) -> str | None:
    """A value that a secret-like name labels from outside ``key=value``: the element's
    own tag, or a name attribute or entry just before."""
    key_start = key_start_of(text, match.start("word"))
    key = text[key_start : match.end("tail")]
    judged = key_judgement(key)
    if judged is None:
        return None
    if match.group("secret_xml") is not None:
        if text[key_start - 1 : key_start] != "<":
            return None
    elif match.group("secret_arg") is not None:
        if _CALL_BEFORE.search(text[max(0, key_start - 4) : key_start]) is None:
            return None
    elif _NAME_BEFORE.search(text[max(0, key_start - 12) : key_start]) is None:
        return None
    value = next(v for v in map(match.group, _NAMED_VALUES) if v is not None)
    if value.startswith(MARKER_PREFIX) or names_no_secret(value):
        return None
    kind, strong = judged
    return kind if strong or not plainly_no_credential(value) else None


def _accept_config_line(match: re.Match[str], text: str) -> str | None:
    """``requirepass x``, ``LicenseKey x``, a .netrc's ``password x`` line, Cisco's ``password
    0 x``: a name that names a secret starting its line, then the value and nothing more. A
    lowercase word there is a sentence ("password required"), a word ending in a colon a
    label, not a value."""
    key_start = key_start_of(text, match.start("word"))
    line_start = text.rfind("\n", 0, key_start) + 1
    if text[line_start:key_start].strip(" \t-#;") or text[line_start:key_start].count("#"):
        return None
    judged = key_judgement(text[key_start : match.end("tail")])
    value = match.group("secret")
    if judged is None or value.startswith(MARKER_PREFIX) or names_no_secret(value):
        return None
    kind, strong = judged
    # Only a name that names a secret itself ("key file:" is a label, "password required" a
    # sentence).
    if not strong or value.endswith(":") or (value.isalpha() and value.islower()):
        return None
    return kind


# A quoted value after a word that names a password, with a space: nmcli's ``password "x"``,
# SQL's ``PASSWORD 'x'`` and ``IDENTIFIED BY 'x'``.
_QUOTED_AFTER = r"(?:\"(?P<secret_dq>[^\"\r\n]+)\"|'(?P<secret_sq>[^'\r\n]+)')"


COMMAND_RULES: tuple[Rule, ...] = (
    Rule(
        # Tools whose short flag takes the password: MySQL/MariaDB "-p" (glued, as the tool
        # wants it, or after a space), MongoDB shells, sshpass and twine "-p", docker/podman/
        # helm "login -p", redis-cli "-a", sqlcmd/bcp "-P" (for MySQL "-P" is the port).
        name="command_password",
        regex=re.compile(
            r"(?<![\w\-])(?:(?:mysql(?:dump|admin|import|check|sh)?|mariadb(?:-dump)?)"
            + _ARGS
            + r"-p[ \t]*|(?:mongo(?:sh|dump|restore|export|import)?|sshpass|twine)"
            + _ARGS
            + r"-p[ \t]*|(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?:[ \t]+registry)?)"
            r"[ \t]+login"
            + _ARGS
            + r"-p[ \t]+|redis-cli"
            + _ARGS
            + r"-a[ \t]+|(?:sqlcmd|bcp)"
            + _ARGS
            + r"-P[ \t]*|(?:cqlsh|psql-cli)"
            + _ARGS
            + r"-p[ \t]+|ipmitool"
            + _ARGS
            + r"-P[ \t]+|(?:snyk[ \t]+auth|ngrok[ \t]+(?:config[ \t]+add-)?authtoken)"
            r"[ \t]+)" + _FLAG_VALUE
        ),
        triggers=(
            "mysql",
            "mariadb",
            "mongo",
            "sshpass",
            "twine",
            "docker",
            "podman",
            "nerdctl",
            "buildah",
            "skopeo",
            "oras",
            "helm",
            "redis-cli",
            "sqlcmd",
            "bcp",
            "cqlsh",
            "psql-cli",
            "ipmitool",
            "snyk",
            "ngrok",
        ),
        accept=_accept_flag_value,
    ),
    Rule(
        # "user:password" after curl's / wget's "-u" or "--user" (also "--user=").
        name="url_password",
        regex=re.compile(
            r"(?<![\w\-])(?:-u|--user)(?:[ \t]+|=)[\"']?(?P<user>[^\s:\"'$]+):"
            r"(?P<secret>[^\s\"'@]+)"
        ),
        triggers=("-u", "--user"),
        accept=_accept_user_password,
    ),
    Rule(
        # Single-dash password flags: Java's keytool (-storepass, -keypass...), openssl
        # (-passin/-passout/-pass "pass:x"), and tools that spell -password or -token so.
        name="cli_flag",
        regex=re.compile(
            r"(?<![\w\-])-(?:(?:src|dest)?(?:store|key)pass|pass(?:in|out|word|wd|phrase)?|pwd"
            r"|token|secret|api-?key)[ \t]+(?:pass:)?" + _FLAG_VALUE
        ),
        triggers=(
            "-storepass",
            "-keypass",
            "-srcstorepass",
            "-srckeypass",
            "-deststorepass",
            "-destkeypass",
            "-pass",
            "-pwd",
            "-token",
            "-secret",
            "-apikey",
            "-api-key",
        ),
        accept=_accept_flag_value,
    ),
    Rule(
        # openssl's "pass:<password>" argument wherever it stands.
        name="password",
        regex=re.compile(r"(?<=[\s\"'=])pass:(?P<secret>[^\s\"']+)"),
        triggers=("pass:",),
        accept=lambda match, text: (
            None if match.group("secret").startswith(MARKER_PREFIX) else "password"
        ),
    ),
    Rule(
        # .netrc / _netrc: "machine host login user password secret" (also on its own line
        # after the machine line); _accept_netrc demands the netrc words before it.
        name="password",
        regex=re.compile(r"(?i:password|passwd)[ \t]+" + _FLAG_VALUE),
        triggers=("password", "passwd"),
        accept=_accept_netrc,
    ),
    Rule(
        # A user and password pair given to an HTTP client: auth=("user", "pw") (requests,
        # httpx), HTTPBasicAuth("user", "pw"), aiohttp.BasicAuth("user", password="pw").
        name="basic_auth",
        regex=re.compile(
            r"(?i:auth)[ \t]*(?:=[ \t]*)?\([ \t]*"
            r"(?:[\"'][^\"'\r\n]*[\"']|[A-Za-z_][\w.]*)[ \t]*,[ \t]*"
            r"(?:password[ \t]*=[ \t]*)?[\"'](?P<secret>[^\"'\r\n]+)[\"']"
        ),
        triggers=("auth",),
        accept=lambda match, text: (
            None if names_no_secret(match.group("secret")) else "basic_auth"
        ),
    ),
    Rule(
        # A user and password joined by a tool's own separator: smbclient's "-U user%password",
        # Windows "net use ... /user:name password", sqlplus "user/password@db", and Go's
        # MySQL driver "user:password@tcp(host)".
        name="password",
        regex=re.compile(
            r"(?:(?:smb|rpc)client" + _ARGS + r"-U[ \t]+[\"']?[^\s%\"']+%"
            r"|(?i:net[ \t]+use)[^\r\n]{0,200}?/user:[^\s]+[ \t]+"
            r"|sqlplus" + _ARGS + r"(?:-[sSL][ \t]+)*[A-Za-z_]\w*/"
            r"|(?<=[\"'`\s=])[A-Za-z_][\w.\-]*:(?=[^\s@\"']+@(?:tcp|unix)\())"
            r"(?P<secret>[^\s\"'@]+)"
        ),
        triggers=("smbclient", "rpcclient", "net use", "sqlplus", "@tcp(", "@unix("),
        accept=lambda match, text: (
            None
            if names_no_secret(match.group("secret")) or match.group("secret").startswith("/")
            else "password"
        ),
        anchored=False,
    ),
    Rule(
        # A name that names a secret starting a config line, its value after a space and
        # nothing after it (redis.conf, GeoIP.conf, .netrc lines, router configs).
        name="secret_pair",
        regex=re.compile(
            rf"(?i:(?P<word>{PAIR_WORDS}))(?P<tail>[A-Za-z0-9_\-]{{0,40}})"
            r"[ \t]+(?:\d[ \t]+)?(?P<secret>[^\s\"']+)[ \t]*(?=\r?\n|$)"
        ),
        triggers=PAIR_TRIGGERS,
        accept=_accept_config_line,
    ),
    Rule(
        # A quoted password after its word and a space (see _QUOTED_AFTER).
        name="password",
        regex=re.compile(
            r"(?i:\bpass(?:word|wd|phrase)|\bidentified[ \t]+by)[ \t]+" + _QUOTED_AFTER
        ),
        triggers=("password", "passwd", "passphrase", "identified"),
        accept=lambda match, text: None if names_no_secret(_value(match)) else "password",
        anchored=False,
    ),
    Rule(
        # Passwords a tool prints or takes in its own words: Cisco IOS "password 0 x" and
        # "secret 0 x" (type 0 is clear text), Vault's "Unseal Key 1: x", Bundler's credentials
        # for a gem server ("BUNDLE_GEMS__ACME__COM=user:password").
        name="password",
        regex=re.compile(
            r"(?:(?<![\w\-])(?:password|secret)[ \t]+0[ \t]+"
            r"|(?i:unseal|recovery)[ \t]+(?i:key)[ \t]+\d+:[ \t]+"
            r"|(?<![\w\-])BUNDLE_[A-Z0-9_]+__[A-Z0-9_]+=[^\s:=]+:)"
            r"(?P<secret>[^\s\"']+)"
        ),
        triggers=("password", "secret", "unseal", "recovery", "bundle_"),
        accept=lambda match, text: (
            None
            if names_no_secret(match.group("secret"))
            or (match.group("secret").isalpha() and match.group("secret").islower())
            else "password"
        ),
        anchored=False,
    ),
    Rule(
        # A CLI's "configure set <name> <value>" (aws, tccli, aliyun) when the name names a
        # secret.
        name="secret_pair",
        regex=re.compile(
            r"configure[ \t]+set[ \t]+(?P<name>[\w.\-]+)[ \t]+"
            r"(?P<secret>[^\s\"']+)"
        ),
        triggers=("configure",),
        accept=lambda match, text: (
            None
            if (key_judgement(match.group("name")) or ("", False))[1] is False
            or names_no_secret(match.group("secret"))
            else (key_judgement(match.group("name")) or ("secret",))[0]
        ),
    ),
    Rule(
        # A JSON Web Key's private members ("d", and "p", "q", "dp", "dq", "qi" of RSA, "k" of
        # a symmetric key), in a text that holds a JWK ("kty").
        name="private_key",
        regex=re.compile(
            r"\"(?:d|p|q|dp|dq|qi|k)\"[ \t]*:[ \t]*\"(?P<secret>[A-Za-z0-9_\-]{16,})\""
        ),
        triggers=('"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"', '"k"'),
        accept=lambda match, text: "private_key" if '"kty"' in text else None,
    ),
    Rule(
        # A login call's password, its second argument: smtplib, ftplib, imaplib, pexpect
        # scripts ("server.login("user", "pw")").
        name="password",
        regex=re.compile(
            r"\.login\([ \t]*(?:\"[^\"\r\n]*\"|'[^'\r\n]*')[ \t]*,[ \t]*" + _QUOTED_AFTER
        ),
        triggers=(".login(",),
        accept=lambda match, text: None if names_no_secret(_value(match)) else "password",
    ),
    Rule(
        # PowerShell: ConvertTo-SecureString "secret" -AsPlainText.
        name="password",
        regex=re.compile(
            r"(?i:convertto-securestring)[ \t]+(?:-String[ \t]+)?"
            r"(?:\"(?P<secret_dq>[^\"\r\n]+)\"|'(?P<secret_sq>[^'\r\n]+)')"
        ),
        triggers=("convertto-securestring",),
    ),
    Rule(
        # A name and its value apart: <password>x</password>, <add key="DbPassword" value="x"/>,
        # {"name": "API_KEY", "value": "x"}, YAML "- name: API_KEY" then "value: x", and a
        # call's two first arguments: define('DB_PASSWORD', 'x'), setenv("API_TOKEN", "x").
        name="secret_pair",
        regex=re.compile(
            rf"(?i:(?P<word>{PAIR_WORDS}))(?P<tail>[A-Za-z0-9_.\-]{{0,40}})"
            r"(?:>(?P<secret_xml>[^<\r\n]{1,300})</"
            r"|[\"'][ \t]*(?:,[ \t]*[\"']?value[\"']?[ \t]*:|[ \t]value[ \t]*=)[ \t]*[\"']"
            r"(?P<secret_attr>[^\"'\r\n]+)[\"']"
            r"|[ \t]*\r?\n[ \t]*value:[ \t]*[\"']?(?P<secret_yaml>[^\s\"']+)"
            r"|[\"'][ \t]*,[ \t]*[\"'](?P<secret_arg>[^\"'\r\n]+)[\"'])"
        ),
        triggers=PAIR_TRIGGERS,
        accept=_accept_named,
    ),
)
