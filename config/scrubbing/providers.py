"""Provider tokens recognised by their prefix, as a table: one line per format, from the formats
the public secret-scanning rule sets list (gitleaks' rules, detect-secrets' plugins, the
providers of GitHub's secret scanning).  Each entry is (name, regex, triggers): the regex starts
with the prefix, which the triggers spell in lowercase, and the whole token is the secret.

A prefix that is long and unlike any word ("sntryu_", "AGE-SECRET-KEY-1") may follow anything,
so a token glued to the text before it ("deploy-NRAK-...", "%3Ddckr_pat_...") is still found;
a short or word-like prefix ("sl.", "re_", "ck_") carries ``GLUE_BEFORE``.  Bodies give the
documented alphabet and length, so a bare mention of a prefix is kept."""

from __future__ import annotations

import base64
import binascii
import re

from .rule import B64URL, GLUE_BEFORE, Rule

_G = GLUE_BEFORE
# The end of a token: no more of the characters tokens are made of.
_END = r"(?![A-Za-z0-9_\-])"

_PREFIXED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # Password hashes in crypt(3) form (/etc/shadow, htpasswd): MD5 "$1$", Apache "$apr1$",
    # SHA-256/512 "$5$"/"$6$", yescrypt "$y$" (salt, then hash), bcrypt "$2b$" + cost + 53.
    (
        "password_hash",
        r"\$(?:1|apr1|5|6)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}"
        r"|\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{1,64}\$[./A-Za-z0-9]{43}"
        r"|\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}",
        ("$1$", "$apr1$", "$5$", "$6$", "$y$", "$2a$", "$2b$", "$2x$", "$2y$"),
    ),
    # Mandrill (Mailchimp Transactional) API keys: "md-" + 22.
    ("mandrill_key", rf"{_G}md-[A-Za-z0-9_\-]{{22}}{_END}", ("md-",)),
    # Statsig server secret keys: "secret-" + 40 and more.
    ("statsig_secret", rf"{_G}secret-[A-Za-z0-9]{{40,}}{_END}", ("secret-",)),
    # Checkout.com sandbox secret keys: "sk_sbox_" + 26.
    ("checkout_secret_key", rf"{_G}sk_sbox_[a-z0-9]{{26}}{_END}", ("sk_sbox_",)),
    # Mollie API keys: "live_" or "test_" + 30 letters and digits (a digit among them).
    (
        "mollie_key",
        rf"{_G}(?:live|test)_(?=[A-Za-z]*\d)[A-Za-z0-9]{{30}}{_END}",
        ("live_", "test_"),
    ),
    # Hindsight's own API keys (config/api/keys.py): "hsk_" + token_urlsafe(32), 43 characters.
    # 32 at least: the admin shows "hsk_" + 8 characters, which is no secret.  No upper
    # bound: a longer run is redacted whole, and a failed try never scans past its own run.
    ("hindsight_key", rf"hsk_[{B64URL}]{{32,}}", ("hsk_",)),
    # Discord webhook URLs: the id is kept, the token after it is the secret.
    (
        "discord_webhook",
        r"discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[A-Za-z0-9_\-]{60,68})",
        ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
    ),
    # New Relic user API keys (NRAK-), insert keys (NRII-), browser keys (NRJS-), admin (NRAA-).
    (
        "new_relic_key",
        r"NR(?:AK|AA)-[A-Z0-9]{27}|NRII-[A-Za-z0-9_\-]{32}|NRJS-[a-f0-9]{19}",
        ("nrak-", "nraa-", "nrii-", "nrjs-"),
    ),
    # Sentry user auth tokens (sntryu_ + 64 hex) and organisation tokens (sntrys_ + base64 JSON).
    ("sentry_token", r"sntry[us]_[A-Za-z0-9_=+/\-]{40,}", ("sntryu_", "sntrys_")),
    # age encryption secret keys: Bech32 body of 58 characters.
    (
        "age_secret_key",
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        ("age-secret-key-1",),
    ),
    # Alibaba Cloud AccessKey ids: "LTAI" + 20 (the id signs requests with its secret).
    ("alibaba_access_key_id", rf"{_G}LTAI[A-Za-z0-9]{{12,20}}{_END}", ("ltai",)),
    # Atlassian API tokens (ATATT3..., ATCTT3...) and Bitbucket app passwords (ATBB + 32).
    (
        "atlassian_token",
        rf"AT[AC]TT3[A-Za-z0-9_=\-]{{60,}}|{_G}ATBB[A-Za-z0-9]{{32}}{_END}",
        ("atatt3", "atctt3", "atbb"),
    ),
    # Clojars deploy tokens.
    ("clojars_token", r"CLOJARS_[a-z0-9]{60}", ("clojars_",)),
    # Cloudflare origin CA keys: "v1.0-" + 24 hex + "-" + 146 hex.
    ("cloudflare_origin_ca_key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", ("v1.0-",)),
    # Contentful content-management personal access tokens.
    ("contentful_token", rf"CFPAT-[{B64URL}]{{43}}", ("cfpat-",)),
    # Defined Networking (Nebula) API keys.
    ("defined_networking_key", r"dnkey-[a-z0-9=_\-]{26}-[a-z0-9=_\-]{52}", ("dnkey-",)),
    # Doppler personal, service (with their config's name: "dp.st.prd."), CLI,
    # service-account, SCIM and audit tokens.
    (
        "doppler_token",
        r"dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_\-]{1,30}\.)?[A-Za-z0-9]{40,44}",
        ("dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."),
    ),
    # Dropbox short-lived access tokens: "sl." (or "sl.u.") + 130 and more.
    ("dropbox_token", r"sl\.(?:u\.)?[A-Za-z0-9_=\-]{130,}", ("sl.",)),
    # Duffel API tokens.
    ("duffel_token", rf"duffel_(?:test|live)_[{B64URL}=]{{43}}", ("duffel_",)),
    # Dynatrace API tokens: "dt0c01." + 24 + "." + 64.
    ("dynatrace_token", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", ("dt0c01.",)),
    # EasyPost production (EZAK) and test (EZTK) API keys.
    ("easypost_key", r"EZ[AT]K[A-Za-z0-9]{54}", ("ezak", "eztk")),
    # Facebook / Meta access tokens (EAAC..., EAAM...) and Square access tokens (EAAA...).
    ("meta_access_token", rf"{_G}EAA[ACM][A-Za-z0-9_+=\-]{{60,}}", ("eaaa", "eaac", "eaam")),
    # Flutterwave secret and encryption keys.
    ("flutterwave_key", r"FLWSECK(?:_TEST)?-?[a-h0-9]{12,32}(?:-X)?", ("flwseck",)),
    # Frame.io API tokens.
    ("frameio_token", rf"fio-u-[{B64URL}=]{{64}}", ("fio-u-",)),
    # Grafana Cloud (glc_), service-account (glsa_) tokens and legacy API keys (base64 JSON
    # starting {"k":").
    (
        "grafana_token",
        r"glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|eyJrIjoi[A-Za-z0-9]{50,}={0,2}",
        ("glc_", "glsa_", "eyjrijoi"),
    ),
    # Heroku platform API tokens in the prefixed form.
    ("heroku_token", rf"HRKU-[{B64URL}]{{40,}}", ("hrku-",)),
    # Linear API keys and OAuth tokens.
    ("linear_token", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}", ("lin_api_", "lin_oauth_")),
    # Mapbox secret tokens ("sk.eyJ..."); the public "pk." ones are kept.
    ("mapbox_secret_token", rf"sk\.eyJ[{B64URL}]{{40,}}\.[{B64URL}]{{20,}}", ("sk.eyj",)),
    # Microsoft Teams incoming webhooks: the path after webhookb2/ posts into the channel.
    (
        "teams_webhook",
        r"webhook\.office\.com/webhookb2/(?P<secret>[A-Za-z0-9@/_.\-]{40,})",
        ("webhook.office.com/webhookb2/",),
    ),
    # NuGet API keys: "oy2" + 43 lowercase alphanumerics.
    ("nuget_key", rf"{_G}oy2[a-z0-9]{{43}}{_END}", ("oy2",)),
    # PlanetScale service tokens, passwords and OAuth tokens.
    ("planetscale_token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=\-]{32,64}", ("pscale_",)),
    # Postman API keys.
    ("postman_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", ("pmak-",)),
    # Prefect API keys.
    ("prefect_key", r"pnu_[A-Za-z0-9]{36}", ("pnu_",)),
    # Pulumi access tokens.
    ("pulumi_token", rf"{_G}pul-[a-f0-9]{{40}}{_END}", ("pul-",)),
    # ReadMe API keys.
    ("readme_key", r"rdme_[a-z0-9]{70}", ("rdme_",)),
    # RubyGems API keys.
    ("rubygems_key", r"rubygems_[a-f0-9]{48}", ("rubygems_",)),
    # Scalingo API tokens.
    ("scalingo_token", rf"tk-us-[{B64URL}]{{48}}", ("tk-us-",)),
    # Brevo (Sendinblue) API and SMTP keys.
    ("brevo_key", r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}", ("xkeysib-", "xsmtpsib-")),
    # Shippo API tokens.
    ("shippo_token", r"shippo_(?:live|test)_[a-f0-9]{40}", ("shippo_",)),
    # Square OAuth secrets and access tokens in the older sq0 form.
    ("square_token", rf"sq0(?:atp|csp)-[{B64URL}]{{22,43}}", ("sq0atp-", "sq0csp-")),
    # Typeform personal access tokens.
    ("typeform_token", r"tfp_[A-Za-z0-9_.=\-]{59}", ("tfp_",)),
    # Yandex Cloud API keys (AQVN...) and IAM tokens (t1.<...>.<86>).
    (
        "yandex_token",
        rf"{_G}AQVN[{B64URL}]{{35,38}}|{_G}t1\.[{B64URL}]+=*\.[{B64URL}]{{86}}=*",
        ("aqvn", "t1."),
    ),
    # 1Password service-account tokens (ops_ + base64 JSON) and account secret keys (A3-...).
    (
        "onepassword_secret",
        r"ops_eyJ[A-Za-z0-9+/]{100,}={0,3}"
        rf"|{_G}A3-[A-Z0-9]{{6}}-(?:[A-Z0-9]{{11}}|[A-Z0-9]{{6}}-[A-Z0-9]{{5}})"
        r"(?:-[A-Z0-9]{5}){3}",
        ("ops_eyj", "a3-"),
    ),
    # Fly.io tokens: fo1_ (org), fm1a_/fm1r_/fm2_ (macaroons).
    (
        "flyio_token",
        rf"fo1_[{B64URL}]{{43}}|fm[12][ar]?_[A-Za-z0-9+/=_\-]{{60,}}",
        ("fo1_", "fm1_", "fm1a_", "fm1r_", "fm2_", "fm2a_", "fm2r_"),
    ),
    # Harness personal (pat.) and service-account (sat.) tokens.
    (
        "harness_token",
        rf"{_G}[ps]at\.[{B64URL}]{{22}}\.[A-Za-z0-9]{{24}}\.[A-Za-z0-9]{{20}}",
        ("pat.", "sat."),
    ),
    # Infracost API keys.
    ("infracost_key", rf"{_G}ico-[A-Za-z0-9]{{32}}{_END}", ("ico-",)),
    # Notion integration tokens: ntn_ and the older secret_ + 43.
    (
        "notion_token",
        rf"ntn_[0-9]{{11}}[A-Za-z0-9]{{35}}|{_G}secret_[A-Za-z0-9]{{43}}{_END}",
        ("ntn_", "secret_"),
    ),
    # Replicate API tokens.
    ("replicate_token", rf"{_G}r8_[A-Za-z0-9]{{37}}{_END}", ("r8_",)),
    # Groq API keys.
    ("groq_key", r"gsk_[A-Za-z0-9]{52}", ("gsk_",)),
    # Perplexity API keys.
    ("perplexity_key", r"pplx-[A-Za-z0-9]{48}", ("pplx-",)),
    # xAI API keys.
    ("xai_key", rf"{_G}xai-[A-Za-z0-9]{{70,90}}{_END}", ("xai-",)),
    # OpenRouter keys (sk-or-v1- + 64 hex): lowercase, so the OpenAI rule's mixed-case check
    # does not take them.
    ("openrouter_key", r"sk-or-v1-[a-f0-9]{64}", ("sk-or-v1-",)),
    # "sk-" + exactly 32 hex (DeepSeek and other OpenAI-compatible services).
    ("api_key", rf"{_G}sk-[a-f0-9]{{32}}{_END}", ("sk-",)),
    # ElevenLabs API keys: "sk_" + 48 hex.
    ("elevenlabs_key", rf"{_G}sk_[a-f0-9]{{48}}{_END}", ("sk_",)),
    # Pinecone API keys.
    ("pinecone_key", r"pcsk_[A-Za-z0-9_]{50,}", ("pcsk_",)),
    # Supabase personal access tokens and secret keys.
    ("supabase_key", r"sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{20,}", ("sbp_", "sb_secret_")),
    # Buildkite user API tokens.
    ("buildkite_token", r"bkua_[a-f0-9]{40}", ("bkua_",)),
    # CircleCI personal and project API tokens.
    ("circleci_token", r"CCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}", ("ccipat_", "cciprj_")),
    # Docker Hub personal and organisation access tokens.
    ("docker_hub_token", rf"dckr_(?:pat|oat)_[{B64URL}]{{27,}}", ("dckr_pat_", "dckr_oat_")),
    # JFrog API keys (AKCp...) and reference tokens (base64 of "reftkn").
    (
        "jfrog_token",
        rf"{_G}AKCp[A-Za-z0-9]{{60,80}}{_END}|cmVmdGtu[A-Za-z0-9]{{56}}",
        ("akcp", "cmvmdgtu"),
    ),
    # Octopus Deploy API keys.
    ("octopus_key", rf"{_G}API-[A-Z0-9]{{26,32}}{_END}", ("api-",)),
    # LaunchDarkly API, SDK and mobile keys: a prefix and a UUID.
    (
        "launchdarkly_key",
        rf"{_G}(?:api|sdk|mob)-[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-"
        r"[0-9a-f]{4}-[0-9a-f]{12}",
        ("api-", "sdk-", "mob-"),
    ),
    # LangSmith personal and service keys.
    ("langsmith_key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", ("lsv2_",)),
    # Tailscale API, auth, OAuth client, webhook and SCIM keys.
    (
        "tailscale_key",
        r"tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]+-[A-Za-z0-9]+",
        ("tskey-",),
    ),
    # Render API keys.
    ("render_key", rf"{_G}rnd_[A-Za-z0-9]{{32}}{_END}", ("rnd_",)),
    # Resend API keys.
    ("resend_key", rf"{_G}re_[A-Za-z0-9]{{8}}_[A-Za-z0-9]{{24}}{_END}", ("re_",)),
    # Netlify personal access tokens.
    ("netlify_token", rf"{_G}nfp_[A-Za-z0-9]{{36}}{_END}", ("nfp_",)),
    # Zapier catch hooks: the path after the account id posts into the Zap.
    (
        "zapier_webhook",
        r"hooks\.zapier\.com/hooks/catch/\d+/(?P<secret>[A-Za-z0-9]{4,})",
        ("hooks.zapier.com/hooks/catch/",),
    ),
    # Firebase Cloud Messaging legacy server keys ("AAAA" + 7 + ":" + 140) and Twitter app
    # bearer tokens (22 "A" + 80-100).
    ("firebase_fcm_key", rf"{_G}AAAA[{B64URL}]{{7}}:[{B64URL}]{{140}}", ("aaaa",)),
    ("twitter_bearer_token", rf"{_G}A{{22}}[A-Za-z0-9%]{{80,100}}", ("aaaa",)),
    # Adobe client secrets.
    ("adobe_client_secret", rf"{_G}p8e-[A-Za-z0-9]{{32}}{_END}", ("p8e-",)),
    # SonarQube / SonarCloud project, user and analysis tokens.
    ("sonar_token", rf"{_G}sq[pua]_[a-f0-9]{{40}}{_END}", ("sqp_", "squ_", "sqa_")),
    # WooCommerce REST consumer keys and secrets.
    ("woocommerce_key", rf"{_G}c[ks]_[a-f0-9]{{40}}{_END}", ("ck_", "cs_")),
    # Google OAuth client secrets and refresh tokens.
    (
        "google_oauth_secret",
        rf"GOCSPX-[{B64URL}]{{28}}|{_G}1//0[{B64URL}]{{40,}}",
        ("gocspx-", "1//0"),
    ),
    # PayPal / Braintree access tokens.
    (
        "braintree_token",
        r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}",
        ("access_token$production$", "access_token$sandbox$"),
    ),
    # AWS session tokens, unlabelled: their base64 starts with one of two fixed headers.
    (
        "aws_session_token",
        r"(?:FwoGZXIvYXdzE|IQoJb3JpZ2luX2Vj)[A-Za-z0-9/+=]{100,}",
        ("fwogzxivyxdze", "iqojb3jpz2lux2vj"),
    ),
    # GitLab feature-flag client tokens.
    ("gitlab_token", rf"glffct-[{B64URL}]{{20,}}", ("glffct-",)),
    # PuTTY private key files: the lines after "Private-Lines: N" are the key.
    (
        "private_key",
        r"Private-Lines: \d+(?P<secret>(?:\r?\n[A-Za-z0-9+/=]+(?=\r?\n|$))+)",
        ("private-lines:",),
    ),
)


def _rule(name: str, body: str, triggers: tuple[str, ...]) -> Rule:
    """A rule whose whole match is the secret unless the regex names its own secret group."""
    source = body if "(?P<secret>" in body else f"(?P<secret>{body})"
    return Rule(name=name, regex=re.compile(source), triggers=triggers)


def _pem_in_base64(match: re.Match[str], text: str) -> str | None:
    """A base64 PEM block is a secret when the PEM it encodes is a private key (a kubeconfig's
    client-key-data), not a certificate."""
    head = match.group("secret")[:96]
    try:
        decoded = base64.b64decode(head[: len(head) // 4 * 4]).decode("ascii", "replace")
    except (binascii.Error, ValueError):
        return None
    return "private_key" if "PRIVATE KEY" in decoded else None


PROVIDER_RULES: tuple[Rule, ...] = (
    *(_rule(*entry) for entry in _PREFIXED),
    Rule(
        # A PEM block in base64 ("LS0tLS1CRUdJTi" is "-----BEGIN "), as kubeconfig files and
        # Kubernetes secrets hold keys; _pem_in_base64 keeps certificates.
        name="private_key",
        regex=re.compile(r"(?P<secret>LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2})"),
        triggers=("ls0tls1crudjti",),
        accept=_pem_in_base64,
    ),
    Rule(
        # A .pgpass line: host:port:database:user:password, the port a number or "*".
        # Searched only in text holding ":5432:" or ":*:" (the usual ports), so other
        # colon-separated lines cost nothing.
        name="password",
        regex=re.compile(r"(?m)^[^\s:]+:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?P<secret>[^\s:][^\s]*)$"),
        triggers=(),
        anchored=False,
        exact_triggers=(":5432:", ":*:"),
        min_length=12,
    ),
    Rule(
        # Discord bot tokens: base64 of the bot's numeric id (so "M", "N" or "O" first),
        # "." 6 characters of timestamp "." and an HMAC of 27-38.  No literal prefix, so the
        # rule is searched in text long enough to hold one that has a "." in it.
        name="discord_bot_token",
        regex=re.compile(
            r"(?<![A-Za-z0-9_\-.])(?P<secret>[MNO][A-Za-z0-9_\-]{23,27}"
            r"\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38})(?![A-Za-z0-9_\-])"
        ),
        triggers=(),
        anchored=False,
        exact_triggers=(".",),
        min_length=59,
    ),
    Rule(
        # New Relic license keys: 36 hex then "NRAL" (40 in all).
        name="new_relic_key",
        regex=re.compile(r"(?<![A-Za-z0-9])(?P<secret>[a-f0-9]{36}NRAL)(?![A-Za-z0-9])"),
        triggers=(),
        anchored=False,
        exact_triggers=("NRAL",),
        min_length=40,
    ),
    Rule(
        # HashiCorp Terraform Cloud / Enterprise tokens: 14 + ".atlasv1." + 60-70.
        name="terraform_token",
        regex=re.compile(r"(?P<secret>[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70})"),
        triggers=(),
        anchored=False,
        exact_triggers=(".atlasv1.",),
        min_length=83,
    ),
    Rule(
        # Mailchimp API keys: 32 hex and the data centre ("-us6").
        name="mailchimp_key",
        regex=re.compile(r"(?<![A-Za-z0-9])(?P<secret>[a-f0-9]{32}-us\d{1,2})(?![A-Za-z0-9])"),
        triggers=(),
        anchored=False,
        exact_triggers=("-us",),
        min_length=35,
    ),
    Rule(
        # Azure identifiable keys (Azure DevOps PATs, storage, Cosmos DB, Search, APIM, ...):
        # 84 characters with the "JQQJ9" signature at position 52 and the service's tag at 76.
        name="azure_identifiable_key",
        regex=re.compile(
            r"(?<![A-Za-z0-9])(?P<secret>[A-Za-z0-9]{52}JQQJ9[9D][A-Za-z0-9]{18}"
            r"[A-Za-z0-9+/=]{4,8})"
        ),
        triggers=(),
        anchored=False,
        exact_triggers=("JQQJ9",),
        min_length=84,
    ),
)
