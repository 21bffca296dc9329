"""Rules for secrets that carry their own shape: PEM blocks and provider tokens with distinctive
prefixes.  Their order matters where one prefix starts another (``sk-ant-`` before ``sk-``) and
where a rule reads a neighbour another rule redacts (the AWS pair before the AWS key id)."""

from __future__ import annotations

import re

from .rule import B64URL, GLUE_BEFORE, Rule

# Separator between an id and the secret written right after it, with no label:
# a quote, one of , : ; | or a blank or a line break, and a quote ("AKIA..', '...",
# "AC...:...", CSV "AKIA...,...", the secret on the line after its id).  One separator
# character keeps it to neighbours.
_ADJACENT = r"[\"']?[ \t]*(?:[,:;| \t]|\r?\n)[ \t]*[\"']?"


def _telegram_accept(match: re.Match[str], text: str) -> str | None:
    """The bot id before ``:AA...`` is 8-10 digits standing alone (or after ``bot`` in an
    API URL); longer digit runs are timestamps or counters."""
    start = match.start()
    digits = start
    while digits > 0 and text[digits - 1].isdigit() and start - digits <= 10:
        digits -= 1
    if not 8 <= start - digits <= 10:
        return None
    before = text[max(0, digits - 3) : digits]
    if (
        digits == 0
        or before == "bot"
        or not (text[digits - 1].isalnum() or text[digits - 1] == "_")
    ):
        return "telegram_bot_token"
    return None


TOKEN_RULES: tuple[Rule, ...] = (
    Rule(
        # PEM private keys: RSA / EC / DSA / OPENSSH / ENCRYPTED / PKCS#8
        # ("PRIVATE KEY") and PGP ("PGP PRIVATE KEY BLOCK").  The whole block
        # from BEGIN to the matching END is the secret.  A block with no END
        # (truncated output) runs to the end of the text: see package doc.
        # The body may contain real or JSON-escaped ("\n") newlines, so DOTALL.
        name="private_key",
        # The SSH2 (RFC 4716, PuTTY's export) form has four dashes and spaces, and an OpenVPN
        # static key ("-----BEGIN OpenVPN Static key V1-----") is a shared secret too.
        regex=re.compile(
            r"(?P<secret>-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|.*)"
            r"|---- BEGIN[ A-Z0-9]*PRIVATE KEY ----(?:.*?---- END[ A-Z0-9]*PRIVATE KEY ----|.*)"
            r"|-----BEGIN OpenVPN Static key V\d-----"
            r"(?:.*?-----END OpenVPN Static key V\d-----|.*))",
            re.DOTALL,
        ),
        triggers=("private key", "static key"),
        # The trigger is not where the match starts ("-----BEGIN"), and the
        # regex starts with a literal, so re's own prefix search is fast.
        anchored=False,
    ),
    Rule(
        # Anthropic: "sk-ant-<type><version>-" (api03, admin01, oat01...)
        # followed by ~95 base64url chars.  Must run before openai_key, whose
        # "sk-" prefix would otherwise claim it.  32+ body chars: real keys
        # are far longer, while "sk-ant-" in docs is followed by nothing.
        name="anthropic_key",
        regex=re.compile(rf"(?P<secret>sk-ant-[a-z]+\d*-[{B64URL}]{{32,}})"),
        triggers=("sk-ant-",),
    ),
    Rule(
        # OpenAI: legacy "sk-" + 48 alphanumerics, and the newer prefixed
        # forms "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-" + long
        # base64url.  The lookaheads demand a digit, an upper- and a
        # lower-case letter in the body: random keys always have all three
        # at these lengths, while slugs such as "sk-release-notes-for-..."
        # (all lowercase) do not.  32 is below every real key length (48+)
        # and above any plausible hyphenated word.  The lookaheads look 255
        # characters ahead at most, so a long run of "sk-sk-sk-..." costs
        # linear time (real keys show all three classes far sooner).
        name="openai_key",
        regex=re.compile(
            rf"(?P<secret>sk-(?:(?:proj|svcacct|admin|None)-)?"
            rf"(?=[{B64URL}]{{0,255}}\d)(?=[{B64URL}]{{0,255}}[A-Z])(?=[{B64URL}]{{0,255}}[a-z])"
            rf"[{B64URL}]{{32,}})"
        ),
        triggers=("sk-",),
    ),
    Rule(
        # An AWS secret access key written right after its key id with no
        # label ("AKIA..., wJalr...", Credentials('AKIA...', '...')): 40
        # base64 characters with both letter cases (a 40-hex git SHA has no
        # upper case).  Only the secret is redacted here; aws_access_key_id
        # then takes the id.  So this rule must come before that one.
        name="aws_secret_key",
        regex=re.compile(
            rf"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}{_ADJACENT}"
            r"(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        triggers=("akia", "asia", "abia", "acca"),
    ),
    Rule(
        # AWS access key ids: 4-letter type prefix (AKIA long-term, ASIA
        # STS temporary, plus the rarer ABIA/ACCA and the older A3T.) + 16 base32 characters =
        # exactly 20.  The trailing lookahead rejects longer upper-case runs.
        name="aws_access_key_id",
        regex=re.compile(
            rf"{GLUE_BEFORE}(?P<secret>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)"
            r"[A-Z0-9]{16})(?![A-Za-z0-9])"
        ),
        triggers=("akia", "asia", "abia", "acca", "a3t"),
    ),
    Rule(
        # A labelled AWS secret access key ("aws_secret_access_key = ...",
        # "SecretAccessKey": ..., "aws configure set aws_secret_access_key ...": the
        # separator may be a blank, the fixed length is guard enough); the match
        # starts at "secret" (any "aws_" before it is kept anyway).  40 exactly
        # is AWS's fixed length; the
        # lookaround stops it matching inside a longer base64 string.
        name="aws_secret_key",
        regex=re.compile(
            r"(?i:secret[_ \-]?access[_ \-]?key)[\"']?[ \t]*(?:[:=][ \t]*)?[\"']?"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        triggers=(
            "secret_access_key",
            "secretaccesskey",
            "secret_accesskey",
            "secretaccess_key",
            "secret access key",
            "secret-access-key",
        ),
    ),
    Rule(
        # Twilio: an account SID ("AC") or API key SID ("SK") + 32 hex is an
        # identifier, but the 32 characters written right after it are its
        # auth token or API key secret (Client("AC...", "..."), curl -u
        # AC...:...).  A lone 32-hex string is an MD5 as often as a token,
        # so only this pairing is caught without a label.  Exact triggers:
        # "ac" and "sk" are everywhere in lowercase text, "AC" and "SK" rare.
        name="twilio_secret",
        regex=re.compile(
            rf"(?:AC|SK)[0-9a-f]{{32}}{_ADJACENT}(?P<secret>[A-Za-z0-9]{{32}})(?![A-Za-z0-9])"
        ),
        triggers=(),
        anchored=False,
        exact_triggers=("AC", "SK"),
        min_length=67,  # SID (34) + one separator + secret (32)
    ),
    Rule(
        # Microsoft Entra ID (Azure AD) client secrets: 3 characters, a
        # digit, "Q~", then 31-34 more of [A-Za-z0-9_~.-] (40 in all).  The
        # "Q~" is what no other format has; lowercase, "q~" would be
        # no better a trigger, so it is an exact one.
        name="azure_client_secret",
        regex=re.compile(
            r"(?<![A-Za-z0-9_~.\-])(?P<secret>[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})(?![A-Za-z0-9_~.\-])"
        ),
        triggers=(),
        anchored=False,
        exact_triggers=("Q~",),
        min_length=37,  # 3 + digit + "Q~" + 31
    ),
    Rule(
        # GitHub: classic tokens "ghp_" (personal), "gho_" (OAuth), "ghu_"
        # (user-to-server), "ghs_" (server-to-server), "ghr_" (refresh) are
        # prefix + 36 alphanumerics; fine-grained PATs are "github_pat_" +
        # 82 chars of [A-Za-z0-9_].  Lower bounds 36 / 22 are the documented
        # minimum body lengths, so a bare "ghp_" mention does not match.
        name="github_token",
        regex=re.compile(
            r"(?P<secret>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})"
            r"(?![A-Za-z0-9_])"
        ),
        triggers=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    Rule(
        # GitLab tokens: personal/project/group (glpat-), deploy (gldt-),
        # runner (glrt-), pipeline trigger (glptt-), feed (glft-), incoming
        # mail (glimt-), CI job (glcbt-), OAuth app secret (gloas-), SCIM
        # (glsoat-), agent (glagent-) + 20+ chars; newer routable tokens
        # append ".<version>.<id>" segments.  The legacy runner registration
        # token is "GR1348941" + 20 chars.
        name="gitlab_token",
        regex=re.compile(
            rf"(?P<secret>(?:glpat|gldt|glrt|glptt|glft|glimt|glcbt|gloas|glsoat|glagent)"
            rf"-[{B64URL}]{{20,}}(?:\.[{B64URL}]+)*|GR1348941[{B64URL}]{{20,}})"
        ),
        triggers=(
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "glft-",
            "glimt-",
            "glcbt-",
            "gloas-",
            "glsoat-",
            "glagent-",
            "gr1348941",
        ),
    ),
    Rule(
        # Slack tokens: xoxb (bot), xoxp (user), xoxa (app), xoxr (refresh),
        # xoxs/xoxo (legacy), xoxe (config/rotating), xapp (app-level,
        # "xapp-1-...").  Bodies are dash-separated numbers + alphanumerics;
        # 10+ chars after the prefix skips bare mentions like "xoxb-".
        name="slack_token",
        regex=re.compile(
            r"(?P<secret>xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}"
            r"|(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,})"
        ),
        triggers=("xox", "xapp-"),
    ),
    Rule(
        # Slack incoming-webhook / workflow URLs: anyone holding the path can
        # post into the channel.  Keep the host so readers see it was a Slack
        # webhook; redact the T.../B.../secret path.
        name="slack_webhook",
        regex=re.compile(
            r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/\-]{8,})"
        ),
        triggers=("hooks.slack.com",),
    ),
    Rule(
        # Stripe secret ("sk_") and restricted ("rk_") keys, live or test:
        # prefix + 24..99 alphanumerics (16 is a safe lower bound).
        # Publishable "pk_" keys are intentionally NOT matched (public).
        name="stripe_key",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>[sr]k_(?:live|test)_[A-Za-z0-9]{{16,}})"),
        triggers=("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
    ),
    Rule(
        # Stripe webhook signing secrets: "whsec_" + 32+ alphanumerics; they
        # let anyone forge webhook events.
        name="stripe_webhook_secret",
        regex=re.compile(r"(?P<secret>whsec_[A-Za-z0-9]{24,})"),
        triggers=("whsec_",),
    ),
    Rule(
        # Google API keys: "AIza" + exactly 35 base64url chars (39 total).
        name="google_api_key",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>AIza[{B64URL}]{{35}})(?![{B64URL}])"),
        triggers=("aiza",),
    ),
    Rule(
        # Google OAuth 2 access tokens: "ya29." + long base64url (100+ in
        # practice; 20 keeps a bare "ya29." mention untouched).
        name="google_oauth_token",
        regex=re.compile(rf"(?P<secret>ya29\.[{B64URL}]{{20,}})"),
        triggers=("ya29.",),
    ),
    Rule(
        # npm automation / publish tokens: "npm_" + 36 alphanumerics.
        name="npm_token",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>npm_[A-Za-z0-9]{{36}})(?![A-Za-z0-9])"),
        triggers=("npm_",),
    ),
    Rule(
        # Hugging Face user access tokens "hf_" and legacy organisation
        # tokens "api_org_" + 34 letters (30 as the bound tolerates older,
        # shorter ones); underscore-free, so "hf_hub_download" does not match.
        name="huggingface_token",
        regex=re.compile(
            rf"{GLUE_BEFORE}(?P<secret>(?:hf|api_org)_[A-Za-z0-9]{{30,}})"
            r"(?![A-Za-z0-9_])"
        ),
        triggers=("hf_", "api_org_"),
    ),
    Rule(
        # SendGrid API keys: "SG." + 22 base64url + "." + 43 base64url.
        name="sendgrid_key",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>SG\.[{B64URL}]{{22}}\.[{B64URL}]{{43}})"),
        triggers=("sg.",),
    ),
    Rule(
        # PyPI upload tokens: "pypi-" + a base64url macaroon, which always
        # starts "Ag" (its version byte) and runs to 150+ characters; 50
        # keeps package names such as "pypi-simple" out.
        name="pypi_token",
        regex=re.compile(rf"(?P<secret>pypi-Ag[{B64URL}]{{50,}})"),
        triggers=("pypi-ag",),
    ),
    Rule(
        # Shopify admin API access tokens (shpat_), custom-app (shpca_),
        # private-app passwords (shppa_) and shared secrets (shpss_):
        # prefix + 32 hex.
        name="shopify_token",
        regex=re.compile(r"(?P<secret>shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32})(?![A-Za-z0-9])"),
        triggers=("shpat_", "shpca_", "shppa_", "shpss_"),
    ),
    Rule(
        # DigitalOcean personal (dop_v1_), OAuth (doo_v1_) and refresh
        # (dor_v1_) tokens: prefix + 64 hex.
        name="digitalocean_token",
        regex=re.compile(r"(?P<secret>do[opr]_v1_[0-9a-f]{64})(?![A-Za-z0-9])"),
        triggers=("dop_v1_", "doo_v1_", "dor_v1_"),
    ),
    Rule(
        # HashiCorp Vault service (hvs.), batch (hvb.) and recovery (hvr.)
        # tokens: prefix + 24+ base64url (service tokens run to ~95).  The
        # legacy "s." + 24 form is too short a prefix to trust unlabelled;
        # labelled (X-Vault-Token, VAULT_TOKEN=) it is a secret_pair.
        name="vault_token",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>hv[sbr]\.[{B64URL}]{{24,}})"),
        triggers=("hvs.", "hvb.", "hvr."),
    ),
    Rule(
        # Telegram bot tokens: "<bot id>:AA" + 32-33 base64url (35 chars
        # after the colon in every issued token; 30-38 tolerates variants).
        # The match starts at the ":" (the trigger); _telegram_accept checks
        # the 8-10 digit bot id before it, which is kept: it is the bot's
        # public user id, the part after the colon is the secret.
        name="telegram_bot_token",
        regex=re.compile(rf"(?<=[0-9]):(?P<secret>AA[{B64URL}]{{28,36}})(?![{B64URL}])"),
        triggers=(":aa",),
        accept=_telegram_accept,
    ),
    Rule(
        # Mailgun private API keys, older format: "key-" + 32 hex.
        name="mailgun_key",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>key-[0-9a-f]{{32}})(?![A-Za-z0-9])"),
        triggers=("key-",),
    ),
    Rule(
        # Databricks personal access tokens: "dapi" + 32 hex, sometimes
        # with a "-<digit>" suffix.
        name="databricks_token",
        regex=re.compile(rf"{GLUE_BEFORE}(?P<secret>dapi[0-9a-f]{{32}}(?:-\d)?)(?![A-Za-z0-9])"),
        triggers=("dapi",),
    ),
    Rule(
        # JSON Web Tokens: base64url(JSON header) "." payload "." signature.
        # A JSON object starts with '{"', which base64-encodes to "eyJ", so
        # the header prefix is reliable.  10+ chars per segment skips stray
        # "eyJ" fragments; the optional extra segments cover 5-part JWE.
        name="jwt",
        regex=re.compile(
            rf"{GLUE_BEFORE}(?P<secret>eyJ[{B64URL}]{{10,}}\.[{B64URL}]{{10,}}\.[{B64URL}]*"
            rf"(?:\.[{B64URL}]+){{0,2}})"
        ),
        triggers=("eyj",),
    ),
)
