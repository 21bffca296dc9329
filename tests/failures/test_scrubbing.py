"""Table tests for config.scrubbing (pure Python, no database).

The fake secrets are generated deterministically to the real formats
(prefixes, alphabets, lengths) instead of being pasted as literals, so no
secret scanner mistakes this file for a leak and no real key is ever used.
"""

from __future__ import annotations

import base64
import copy
import random
import string
from urllib.parse import quote

import pytest

from config.scrubbing import RULES, scrub_text, scrub_value, secret_key_kind
from tests.failures.scrub_corpus import FORMATS
from tests.failures.scrub_corpus_more import FORMATS_MORE

ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"
B64 = ALNUM + "+/"
UPPER_B32 = string.ascii_uppercase + "234567"


def fake(alphabet: str, length: int, seed: str) -> str:
    """Random-looking string of the given alphabet, stable across runs."""
    rng = random.Random(seed)
    classes = [
        cls for cls in (str.isdigit, str.isupper, str.islower) if any(cls(c) for c in alphabet)
    ]
    for _ in range(1000):
        out = "".join(rng.choice(alphabet) for _ in range(length))
        # Real random keys of these lengths contain every character class of
        # their alphabet; make sure the fakes do too, so they are fair.
        if all(any(cls(c) for c in out) for cls in classes):
            return out
    raise AssertionError(f"could not generate a fake for seed {seed!r}")


def b64url(data: str) -> str:
    return base64.urlsafe_b64encode(data.encode()).decode().rstrip("=")


OPENAI_LEGACY = "sk-" + fake(ALNUM, 48, "openai-legacy")
OPENAI_PROJ = "sk-proj-" + fake(B64URL, 156, "openai-proj")
ANTHROPIC = "sk-ant-api03-" + fake(B64URL, 93, "anthropic") + "AA"
AWS_AKIA = "AKIA" + fake(UPPER_B32, 16, "akia")
AWS_ASIA = "ASIA" + fake(UPPER_B32, 16, "asia")
AWS_SECRET = fake(B64, 40, "aws-secret")
GH_PAT = "ghp_" + fake(ALNUM, 36, "ghp")
GH_SERVER = "ghs_" + fake(ALNUM, 36, "ghs")
GH_FINE = "github_pat_" + fake(ALNUM, 22, "ghfine1") + "_" + fake(ALNUM, 59, "ghfine2")
GITLAB = "glpat-" + fake(B64URL, 20, "gitlab")
SLACK_BOT = (
    "xoxb-"
    + "2"
    + fake(string.digits, 11, "sb1")
    + "-"
    + "3"
    + fake(string.digits, 12, "sb2")
    + "-"
    + fake(ALNUM, 24, "sb3")
)
SLACK_APP = (
    "xapp-1-A"
    + fake(string.ascii_uppercase + string.digits, 10, "xa1")
    + "-"
    + fake(string.digits, 13, "xa2")
    + "-"
    + fake("0123456789abcdef", 64, "xa3")
)
SLACK_HOOK_PATH = (
    "T"
    + fake(UPPER_B32, 8, "sh1")
    + "/B"
    + fake(UPPER_B32, 10, "sh2")
    + "/"
    + fake(ALNUM, 24, "sh3")
)
STRIPE_LIVE = "sk_live_" + fake(ALNUM, 99, "stripe-live")
STRIPE_RESTRICTED = "rk_test_" + fake(ALNUM, 24, "stripe-rk")
STRIPE_WHSEC = "whsec_" + fake(ALNUM, 32, "whsec")
GOOGLE_KEY = "AIza" + fake(B64URL, 35, "google")
GOOGLE_OAUTH = "ya29." + fake(B64URL, 120, "ya29")
NPM = "npm_" + fake(ALNUM, 36, "npm")
HF = "hf_" + fake(string.ascii_letters, 34, "hf")
SENDGRID = "SG." + fake(B64URL, 22, "sg1") + "." + fake(B64URL, 43, "sg2")
JWT = ".".join(
    [
        b64url('{"alg":"HS256","typ":"JWT"}'),
        b64url('{"sub":"agent-7","exp":1900000000}'),
        fake(B64URL, 43, "jwt-sig"),
    ]
)
BEARER = fake(B64URL, 40, "bearer")
BASIC = base64.b64encode(b"deploy-bot:Tr0ub4dor&3").decode()
PEM_BODY = "\n".join(fake(B64, 64, f"pem{i}") for i in range(4))
PEM_RSA = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"
PEM_OPENSSH = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----"
PEM_TRUNCATED = f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY[:100]}"
PASSWORD = "Tr0ub4dor&3x"
HEX = "0123456789abcdef"
AZURE_ACCOUNT_KEY = fake(B64, 86, "azure-key") + "=="
AZURE_SAS_SIG = quote(fake(B64, 43, "azure-sas") + "=", safe="")
PYPI = "pypi-AgEIcHlwaS5vcmc" + fake(B64URL, 150, "pypi")
SHOPIFY = "shpat_" + fake(HEX, 32, "shopify")
DIGITALOCEAN = "dop_v1_" + fake(HEX, 64, "digitalocean")
VAULT = "hvs." + fake(B64URL, 90, "vault")
TELEGRAM_ID = "7" + fake(string.digits, 9, "telegram-id")
TELEGRAM_SECRET = "AA" + fake(B64URL, 33, "telegram")
MAILGUN = "key-" + fake(HEX, 32, "mailgun")
GITLAB_DEPLOY = "gldt-" + fake(B64URL, 20, "gitlab-deploy")
TWILIO_SID = "AC" + fake(HEX, 32, "twilio-sid")
TWILIO_TOKEN = fake(HEX, 32, "twilio-token")
GCP_KEY_ID = fake(HEX, 40, "gcp-key-id")
DATABRICKS = "dapi" + fake(HEX, 32, "databricks")
AZURE_CLIENT_SECRET = fake(ALNUM, 3, "aad1") + "7Q~" + fake(ALNUM + "_~.-", 34, "aad2")

SHA1 = "3f786850e387550fdab836ed7e6dc881de23001b"
SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
MD5 = "d41d8cd98f00b204e9800998ecf8427e"
UUID = "123e4567-e89b-12d3-a456-426614174000"

# (name, input, expected output, secret that must be gone)
SECRETS = [
    (
        "openai_legacy_env",
        f"OPENAI_API_KEY={OPENAI_LEGACY}",
        "OPENAI_API_KEY=[REDACTED:openai_key]",
        OPENAI_LEGACY,
    ),
    (
        "openai_project_prose",
        f"401 Incorrect API key provided: {OPENAI_PROJ}. See docs.",
        "401 Incorrect API key provided: [REDACTED:openai_key]. See docs.",
        OPENAI_PROJ,
    ),
    (
        "anthropic",
        f"client = Anthropic(api_key='{ANTHROPIC}')",
        "client = Anthropic(api_key='[REDACTED:anthropic_key]')",
        ANTHROPIC,
    ),
    (
        "aws_akia",
        f"InvalidClientTokenId for {AWS_AKIA} in us-east-1",
        "InvalidClientTokenId for [REDACTED:aws_access_key_id] in us-east-1",
        AWS_AKIA,
    ),
    (
        "aws_asia_json",
        f'{{"AccessKeyId": "{AWS_ASIA}", "Expiration": "2030-01-01"}}',
        '{"AccessKeyId": "[REDACTED:aws_access_key_id]", "Expiration": "2030-01-01"}',
        AWS_ASIA,
    ),
    (
        "aws_secret_labelled",
        f"aws_secret_access_key = {AWS_SECRET}",
        "aws_secret_access_key = [REDACTED:aws_secret_key]",
        AWS_SECRET,
    ),
    (
        "github_classic",
        f"git clone https://{GH_PAT}@github.com/acme/repo.git",
        "git clone https://[REDACTED:github_token]@github.com/acme/repo.git",
        GH_PAT,
    ),
    (
        "github_server",
        f"GITHUB_TOKEN: {GH_SERVER}",
        "GITHUB_TOKEN: [REDACTED:github_token]",
        GH_SERVER,
    ),
    (
        "github_fine_grained",
        f"using {GH_FINE} for the API",
        "using [REDACTED:github_token] for the API",
        GH_FINE,
    ),
    (
        "gitlab",
        f"remote: HTTP Basic: Access denied for {GITLAB}",
        "remote: HTTP Basic: Access denied for [REDACTED:gitlab_token]",
        GITLAB,
    ),
    (
        "slack_bot",
        f"slack_sdk error (token={SLACK_BOT}): not_authed",
        "slack_sdk error (token=[REDACTED:slack_token]): not_authed",
        SLACK_BOT,
    ),
    (
        "slack_app",
        f"SLACK_APP_TOKEN is {SLACK_APP}",
        "SLACK_APP_TOKEN is [REDACTED:slack_token]",
        SLACK_APP,
    ),
    (
        "slack_webhook",
        f"POST https://hooks.slack.com/services/{SLACK_HOOK_PATH} returned 404",
        "POST https://hooks.slack.com/services/[REDACTED:slack_webhook] returned 404",
        SLACK_HOOK_PATH,
    ),
    (
        "stripe_live",
        f'stripe.api_key = "{STRIPE_LIVE}"',
        'stripe.api_key = "[REDACTED:stripe_key]"',
        STRIPE_LIVE,
    ),
    (
        "stripe_restricted",
        f"Invalid API Key provided: {STRIPE_RESTRICTED}",
        "Invalid API Key provided: [REDACTED:stripe_key]",
        STRIPE_RESTRICTED,
    ),
    (
        "stripe_webhook_secret",
        f"endpoint secret {STRIPE_WHSEC} rejected",
        "endpoint secret [REDACTED:stripe_webhook_secret] rejected",
        STRIPE_WHSEC,
    ),
    (
        "google_api_key",
        f"GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key={GOOGLE_KEY}",
        "GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key=[REDACTED:google_api_key]",
        GOOGLE_KEY,
    ),
    (
        "google_oauth",
        f"credentials.token was {GOOGLE_OAUTH}",
        "credentials.token was [REDACTED:google_oauth_token]",
        GOOGLE_OAUTH,
    ),
    (
        "npm",
        f"//npm.internal.example/:_authToken={NPM}",
        "//npm.internal.example/:_authToken=[REDACTED:npm_token]",
        NPM,
    ),
    (
        "huggingface",
        f"HfHubHTTPError 401 with {HF}",
        "HfHubHTTPError 401 with [REDACTED:huggingface_token]",
        HF,
    ),
    (
        "sendgrid",
        f"sendgrid key {SENDGRID} revoked",
        "sendgrid key [REDACTED:sendgrid_key] revoked",
        SENDGRID,
    ),
    ("jwt_free_text", f"decoded {JWT} failed: exp", "decoded [REDACTED:jwt] failed: exp", JWT),
    (
        "authorization_bearer_header",
        f"Authorization: Bearer {BEARER}",
        "Authorization: Bearer [REDACTED:authorization]",
        BEARER,
    ),
    (
        "authorization_jwt_header",
        f"-H 'Authorization: Bearer {JWT}'",
        "-H 'Authorization: Bearer [REDACTED:jwt]'",
        JWT,
    ),
    (
        "authorization_basic_dict",
        f"headers={{'Authorization': 'Basic {BASIC}'}}",
        "headers={'Authorization': 'Basic [REDACTED:authorization]'}",
        BASIC,
    ),
    (
        "bearer_free_text",
        f"retrying with Bearer {BEARER} after 401",
        "retrying with Bearer [REDACTED:bearer_token] after 401",
        BEARER,
    ),
    (
        "basic_free_text",
        f"sent Basic {BASIC} to the proxy",
        "sent Basic [REDACTED:basic_auth] to the proxy",
        BASIC,
    ),
    (
        "url_password_postgres",
        f"could not connect to postgres://app:{PASSWORD}@db.internal:5432/hindsight",
        "could not connect to postgres://app:[REDACTED:url_password]@db.internal:5432/hindsight",
        PASSWORD,
    ),
    (
        "url_password_empty_user",
        "redis://:s3cretP4ss@cache:6379/0 refused",
        "redis://:[REDACTED:url_password]@cache:6379/0 refused",
        "s3cretP4ss",
    ),
    (
        "pem_rsa",
        f"key file:\n{PEM_RSA}\nloaded",
        "key file:\n[REDACTED:private_key]\nloaded",
        PEM_BODY,
    ),
    ("pem_openssh", f"{PEM_OPENSSH}\n", "[REDACTED:private_key]\n", PEM_BODY),
    (
        "pem_truncated",
        f"ValueError: could not parse {PEM_TRUNCATED}",
        "ValueError: could not parse [REDACTED:private_key]",
        PEM_BODY[:100],
    ),
    (
        "password_pair",
        f"login failed: user=bob password={PASSWORD} retries=3",
        "login failed: user=bob password=[REDACTED:password] retries=3",
        PASSWORD,
    ),
    (
        "token_query_string",
        "GET /callback?code=42&access_token=a1B2c3D4e5F6g7H8&state=x",
        "GET /callback?code=42&access_token=[REDACTED:token]&state=x",
        "a1B2c3D4e5F6g7H8",
    ),
    (
        "secret_yaml_line",
        "db:\n  client_secret: c0rrecthorse\n  port: 5432",
        "db:\n  client_secret: [REDACTED:secret]\n  port: 5432",
        "c0rrecthorse",
    ),
    (
        "password_json_in_text",
        f'body {{"username": "bob", "password": "{PASSWORD}"}}',
        'body {"username": "bob", "password": "[REDACTED:password]"}',
        PASSWORD,
    ),
    (
        "password_escaped_json",
        f'"{{\\"password\\": \\"{PASSWORD}\\", \\"n\\": 1}}"',
        '"{\\"password\\": \\"[REDACTED:password]\\", \\"n\\": 1}"',
        PASSWORD,
    ),
    ("api_key_header", "X-Api-Key: 7f3kQ9zLm2Pw", "X-Api-Key: [REDACTED:api_key]", "7f3kQ9zLm2Pw"),
    (
        "camel_case_token",
        'config {accessToken: "opaque-Val-99"}',
        'config {accessToken: "[REDACTED:token]"}',
        "opaque-Val-99",
    ),
    (
        "cli_flag",
        f"psql --password={PASSWORD} -h db",
        "psql --password=[REDACTED:password] -h db",
        PASSWORD,
    ),
    (
        "cookie_header",
        "Cookie: sessionid=9a8b7c6d5e; csrftoken=Zx81Qw",
        "Cookie: [REDACTED:cookie]",
        "9a8b7c6d5e",
    ),
    ("yaml_plain_word_password", "password: letmein", "password: [REDACTED:password]", "letmein"),
    (
        "set_cookie_header",
        "Set-Cookie: sid=Qm9vNzY1; Path=/; HttpOnly",
        "Set-Cookie: [REDACTED:cookie]",
        "Qm9vNzY1",
    ),
    (
        "proxy_authorization",
        f"Proxy-Authorization: Basic {BASIC}",
        "Proxy-Authorization: Basic [REDACTED:authorization]",
        BASIC,
    ),
    (
        "aws_secret_json",
        f'{{"AccessKeyId": "x", "SecretAccessKey": "{AWS_SECRET}"}}',
        '{"AccessKeyId": "x", "SecretAccessKey": "[REDACTED:aws_secret_key]"}',
        AWS_SECRET,
    ),
    (
        "unterminated_quote",
        f'log cut: {{"api_key": "{PASSWORD}\nnext line',
        'log cut: {"api_key": "[REDACTED:api_key]\nnext line',
        PASSWORD,
    ),
    (
        "password_in_url_with_at",
        "amqp://guest:p@ss%word@rabbit:5672/",
        "amqp://guest:[REDACTED:url_password]@rabbit:5672/",
        "p@ss%word",
    ),
    (
        "azure_account_key",
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={AZURE_ACCOUNT_KEY};"
        "EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:secret];"
        "EndpointSuffix=core.windows.net",
        AZURE_ACCOUNT_KEY,
    ),
    (
        "azure_sas",
        f"403 on https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig={AZURE_SAS_SIG} x",
        "403 on https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=[REDACTED:azure_sas_signature] x",
        AZURE_SAS_SIG,
    ),
    (
        "pypi",
        f"twine upload -u __token__ -p {PYPI} dist/*",
        "twine upload -u __token__ -p [REDACTED:pypi_token] dist/*",
        PYPI,
    ),
    (
        "shopify",
        f"401 from shop admin with {SHOPIFY}",
        "401 from shop admin with [REDACTED:shopify_token]",
        SHOPIFY,
    ),
    (
        "digitalocean",
        f"doctl auth init -t {DIGITALOCEAN}",
        "doctl auth init -t [REDACTED:digitalocean_token]",
        DIGITALOCEAN,
    ),
    (
        "vault",
        f"permission denied for {VAULT} at secret/data/x",
        "permission denied for [REDACTED:vault_token] at secret/data/x",
        VAULT,
    ),
    (
        "telegram",
        f"GET https://api.telegram.org/bot{TELEGRAM_ID}:{TELEGRAM_SECRET}/getMe 401",
        f"GET https://api.telegram.org/bot{TELEGRAM_ID}:[REDACTED:telegram_bot_token]/getMe 401",
        TELEGRAM_SECRET,
    ),
    ("mailgun", f"mailgun rejected {MAILGUN}", "mailgun rejected [REDACTED:mailgun_key]", MAILGUN),
    (
        "gitlab_deploy",
        f"fetch with {GITLAB_DEPLOY} failed",
        "fetch with [REDACTED:gitlab_token] failed",
        GITLAB_DEPLOY,
    ),
    (
        "twilio_after_sid",
        f'Client("{TWILIO_SID}", "{TWILIO_TOKEN}") raised 20003',
        f'Client("{TWILIO_SID}", "[REDACTED:twilio_secret]") raised 20003',
        TWILIO_TOKEN,
    ),
    (
        "databricks",
        f"DATABRICKS_HOST=x {DATABRICKS} rejected",
        "DATABRICKS_HOST=x [REDACTED:databricks_token] rejected",
        DATABRICKS,
    ),
    (
        "azure_client_secret",
        f"AADSTS7000215: Invalid client secret provided: {AZURE_CLIENT_SECRET}",
        "AADSTS7000215: Invalid client secret provided: [REDACTED:azure_client_secret]",
        AZURE_CLIENT_SECRET,
    ),
    (
        "url_encoded_password",
        "POST body=user%3Dbob%26password%3DTr0ub4dor%2526x%26keep%3D1 failed",
        "POST body=user%3Dbob%26password%3D[REDACTED:password]%26keep%3D1 failed",
        "Tr0ub4dor%2526x",
    ),
    (
        "cli_flag_space",
        "docker login --username bot --password hunter2x registry.example",
        "docker login --username bot --password [REDACTED:password] registry.example",
        "hunter2x",
    ),
    (
        "cli_flag_space_quoted",
        f"az login --client-secret '{PASSWORD}' --tenant t",
        "az login --client-secret '[REDACTED:secret]' --tenant t",
        PASSWORD,
    ),
    (
        "aws_secret_after_id",
        f"Credentials('{AWS_AKIA}', '{AWS_SECRET}')",
        "Credentials('[REDACTED:aws_access_key_id]', '[REDACTED:aws_secret_key]')",
        AWS_SECRET,
    ),
    (
        "gcp_private_key_id",
        f'{{"type": "service_account", "private_key_id": "{GCP_KEY_ID}", "project_id": "p"}}',
        '{"type": "service_account", "private_key_id": "[REDACTED:private_key_id]", "project_id": "p"}',
        GCP_KEY_ID,
    ),
    (
        "gcp_private_key_escaped",
        '{"private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + PEM_BODY[:64]
        + '\\n-----END PRIVATE KEY-----\\n", "client_email": "x@p.iam.gserviceaccount.com"}',
        '{"private_key": "[REDACTED:private_key]\\n", "client_email": "x@p.iam.gserviceaccount.com"}',
        PEM_BODY[:64],
    ),
]

# (name, input): must come back unchanged.
LOOKALIKES = [
    ("git_sha", f"HEAD is now at {SHA1} fix retries"),
    ("sha256", f"sha256:{SHA256}"),
    ("md5", f"md5 {MD5} mismatch"),
    ("uuid", f"request_id={UUID} session_count=3"),
    ("ordinary_ids", "user_12345 placed order-987654 (ticket TASK-4411)"),
    ("tokenizer", "tokenizer = AutoTokenizer.from_pretrained('gpt2')"),
    ("token_counts", "token_count=512 max_tokens=1024 tokens_used: 300"),
    ("password_reset_url", "password_reset_url=https://example.com/account/reset"),
    ("sk_in_words", "task-sk-1 and risk-sk-assessment and desk-sk-2"),
    ("sk_short", "prefix sk-abc123 is too short"),
    ("sk_slug", "see sk-release-notes-for-the-april-launch-and-more"),
    ("bearer_prose", "The API expects a Bearer token in the Authorization header."),
    ("bearer_prose_2", "Bearer authentication is required for /v1/chat"),
    ("authorization_no_token", "Authorization: Bearer"),
    ("url_user_no_password", "cloned https://user@github.com/acme/repo.git"),
    ("url_with_port", "http://localhost:8000/api/v1/failures?limit=20"),
    ("akia_too_short", "key AKIA1234ABCD is truncated"),
    ("asia_word", "ASIA-PACIFIC-SOUTHEAST-2 outage"),
    ("basic_not_credential", "Basic SGVsbG8gd29ybGQ= is just 'Hello world'"),
    ("basic_prose", "Basic troubleshooting steps did not help"),
    ("stripe_publishable", "pk_live_51HqLyjWDarjtT1zdp7dcXbVwP4hE"),
    ("invalid_token_prose", "Invalid token: expired"),
    ("cookie_prose", "cookie: invalid format"),
    (
        "type_annotations",
        "def login(user: str, password: str, token: Optional[str] = None) -> bool:",
    ),
    ("code_expression", "token = os.environ.get('API_TOKEN')"),
    ("pwd_env_var", "PWD=/home/agent/project SHLVL=1"),
    ("masked_password", "password: ******** (masked)"),
    ("null_token", '{"token": null, "password": ""}'),
    ("secret_name", "secret_name=prod/db-creds secret_arn=arn:aws:secretsmanager:x"),
    ("bypass", "bypass=true passes=3"),
    ("prefix_mentions", "tokens look like ghp_, github_pat_, xoxb-, hf_, npm_ or AIza"),
    ("hf_function", "hf_hub_download(repo_id='gpt2')"),
    ("jwt_header_only", "header eyJhbGciOiJIUzI1NiJ9 only"),
    ("time_and_ratio", "at 12:30:45 ratio 3:2"),
    ("already_redacted", "password=[REDACTED:password] Bearer [REDACTED:jwt]"),
    ("twilio_sid_alone", f"account {TWILIO_SID} suspended, request {MD5}"),
    ("md5_after_sid_two_words", f"{TWILIO_SID} sent message {MD5}"),
    ("cli_metavar", "usage: deploy [--password PASSWORD] [--token TOKEN]"),
    ("cli_prose", "pass --password to the command, or --token with $GH_TOKEN"),
    (
        "cli_switch_then_argument",
        "ansible-playbook --ask-vault-password site.yml; curl --no-auth http://x/",
    ),
    ("cli_password_file", "psql --password-file /run/secrets/db --token-count 5"),
    ("sig_short", "worker received sig=15 (SIGTERM)"),
    ("telegram_like_time", "at 1700000000123:AAbbccddeeffgghhiijjkkllmmnnoopp1 bad"),
    ("key_value_words", "key-value store key-rotation mailgun-key-id"),
    ("prefix_only_mentions", "pypi-simple shpat_ dop_v1_ hvs. gldt- dapi"),
    ("rule_line", "-" * 60 + " separator"),
    (
        "arn_with_secret_field",
        "GetSecretValue on arn:aws:secretsmanager:us-east-1:1234:secret:prod/db-AbCd",
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "expected", "secret"), SECRETS, ids=[s[0] for s in SECRETS]
)
def test_secret_is_redacted(name: str, text: str, expected: str, secret: str) -> None:
    out = scrub_text(text)
    assert secret in text  # the fixture really contains the secret
    assert secret not in out
    assert out == expected


@pytest.mark.parametrize(("name", "text"), LOOKALIKES, ids=[s[0] for s in LOOKALIKES])
def test_lookalike_is_untouched(name: str, text: str) -> None:
    assert scrub_text(text) == text


def test_table_sizes() -> None:
    assert len(SECRETS) >= 25
    assert len(LOOKALIKES) >= 25
    assert len({s[0] for s in SECRETS}) == len(SECRETS)
    assert len({s[0] for s in LOOKALIKES}) == len(LOOKALIKES)


@pytest.mark.parametrize(
    ("name", "text", "expected", "secret"), SECRETS, ids=[s[0] for s in SECRETS]
)
def test_scrub_text_is_idempotent(name: str, text: str, expected: str, secret: str) -> None:
    once = scrub_text(text)
    assert scrub_text(once) == once


def test_every_rule_is_exercised_by_the_table_or_the_corpus() -> None:
    produced = "".join(scrub_text(t) for _, t, _, _ in SECRETS) + "".join(
        scrub_text(before + secret + after) for _, before, secret, after in FORMATS + FORMATS_MORE
    )
    # secret_pair and cli_flag name their markers after the key (password, token...), and
    # command_password after what it finds (a password).
    missing = [
        r.name
        for r in RULES
        if f"[REDACTED:{r.name}]" not in produced
        and r.name not in ("secret_pair", "cli_flag", "command_password")
    ]
    assert missing == []


def test_surrounding_text_is_kept_with_several_secrets() -> None:
    text = f"a {GH_PAT} b {AWS_AKIA} c password={PASSWORD} d"
    assert scrub_text(text) == (
        "a [REDACTED:github_token] b [REDACTED:aws_access_key_id] c password=[REDACTED:password] d"
    )


def test_many_secrets_of_different_kinds_in_one_message() -> None:
    # Earlier rules shorten/lengthen the text before later rules run, so
    # their anchor positions must be shifted correctly.
    text = (
        f"HTTPError 401 headers={{'Authorization': 'Bearer {JWT}'}} "
        f"db=postgres://app:{PASSWORD}@db:5432/x key={OPENAI_PROJ} password=hunter2 done"
    )
    assert scrub_text(text) == (
        "HTTPError 401 headers={'Authorization': 'Bearer [REDACTED:jwt]'} "
        "db=postgres://app:[REDACTED:url_password]@db:5432/x key=[REDACTED:openai_key] "
        "password=[REDACTED:password] done"
    )


def test_non_ascii_text_whose_lowercase_changes_length() -> None:
    # "İ".lower() is two characters, so trigger positions would be off by
    # one; the engine must fall back to a plain regex search.
    text = f"İstanbul İİ worker: token={GH_PAT[:10]}x9Z and {GH_PAT} and password=hunter2"
    assert len(text.lower()) != len(text)
    assert scrub_text(text) == (
        "İstanbul İİ worker: token=[REDACTED:token] and [REDACTED:github_token] "
        "and password=[REDACTED:password]"
    )


def test_neighbours_of_an_id_that_are_not_its_secret() -> None:
    # A git SHA next to an AWS key id has no upper case, an MD5 two words
    # after a Twilio SID is not written as its token: both are kept.
    assert scrub_text(f"{AWS_AKIA} {SHA1}") == f"[REDACTED:aws_access_key_id] {SHA1}"
    assert scrub_text(f"{TWILIO_SID}: sent {MD5}") == f"{TWILIO_SID}: sent {MD5}"


def test_empty_and_trigger_free_text() -> None:
    assert scrub_text("") == ""
    plain = "ZeroDivisionError: division by zero in worker 3"
    assert scrub_text(plain) is plain  # fast path returns the same object


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("password", "password"),
        ("DB_PASSWORD", "password"),
        ("passwd", "password"),
        ("pwd", "password"),
        ("secret", "secret"),
        ("client_secret", "secret"),
        ("token", "token"),
        ("access_token", "token"),
        ("refreshToken", "token"),
        ("api_key", "api_key"),
        ("apikey", "api_key"),
        ("X-Api-Key", "api_key"),
        ("Authorization", "authorization"),
        ("auth", "authorization"),
        ("cookie", "cookie"),
        ("Set-Cookie", "cookie"),
        ("private_key", "private_key"),
        ("credentials", "credentials"),
        ("session", "session"),
        ("session_id", "session"),
        ("token_count", None),
        ("max_tokens", None),
        ("tokens_used", None),
        ("tokenizer", None),
        ("password_policy_url", None),
        ("password_reset_url", None),
        ("secret_name", None),
        ("cache_key", None),
        ("user_id", None),
        ("auth_type", None),
        ("private_key_id", "private_key_id"),
        ("AccountKey", "secret"),
        ("key_id", None),
        ("", None),
    ],
)
def test_secret_key_kind(key: str, kind: str | None) -> None:
    assert secret_key_kind(key) == kind


def test_scrub_value_nested_and_non_mutating() -> None:
    original = {
        "error": f"401 for key {OPENAI_LEGACY}",
        "password": "hunter2",
        "Authorization": f"Bearer {BEARER}",
        "token_count": 512,
        "max_tokens": 1024,
        "password_reset_url": "https://example.com/reset?token=abcdef123456",
        "request": {
            "headers": {"X-Api-Key": "k-1", "Accept": "application/json"},
            "body": [{"access_token": "tok-2", "note": f"user {UUID}"}, "plain", 3, None, True],
        },
        "set-cookie": ["theme=dark", "sessionid=zzz", "uid=7f3a9c2e41b8"],
        "credentials": {"username": "bob", "private_key": PEM_RSA},
        "token": 7,
        "secret": False,
        "auth": None,
        "pwd": "/srv/app",
        "session": "",
    }
    snapshot = copy.deepcopy(original)

    result = scrub_value(original)

    assert original == snapshot  # input untouched
    assert result == {
        "error": "401 for key [REDACTED:openai_key]",
        "password": "[REDACTED:password]",
        "Authorization": "[REDACTED:authorization]",
        "token_count": 512,
        "max_tokens": 1024,
        "password_reset_url": "https://example.com/reset?token=[REDACTED:token]",
        "request": {
            "headers": {"X-Api-Key": "[REDACTED:api_key]", "Accept": "application/json"},
            "body": [
                {"access_token": "[REDACTED:token]", "note": f"user {UUID}"},
                "plain",
                3,
                None,
                True,
            ],
        },
        "set-cookie": ["theme=dark", "[REDACTED:cookie]", "[REDACTED:cookie]"],
        "credentials": {"username": "bob", "private_key": "[REDACTED:private_key]"},
        "token": 7,
        "secret": False,
        "auth": None,
        "pwd": "/srv/app",
        "session": "",
    }
    # Copies, not the same containers.
    assert result is not original
    assert result["request"] is not original["request"]
    assert result["request"]["body"] is not original["request"]["body"]


def test_scrub_value_scalars_and_top_level() -> None:
    assert scrub_value(f"x {GH_PAT}") == "x [REDACTED:github_token]"
    assert scrub_value([f"{AWS_AKIA}", 1.5]) == ["[REDACTED:aws_access_key_id]", 1.5]
    for scalar in (None, True, False, 0, 42, 3.25):
        assert scrub_value(scalar) is scalar


def test_scrub_value_is_idempotent() -> None:
    data = {"password": "x", "nested": [{"api_key": "y", "msg": f"Bearer {BEARER}"}]}
    once = scrub_value(data)
    assert once == {
        "password": "[REDACTED:password]",
        "nested": [{"api_key": "[REDACTED:api_key]", "msg": "Bearer [REDACTED:bearer_token]"}],
    }
    assert scrub_value(once) == once


def test_scrub_value_deep_nesting_does_not_recurse() -> None:
    depth = 5000  # far beyond the recursion limit: proves the walk is iterative
    data: dict = {"password": "leaf"}
    for _ in range(depth):
        data = {"child": [data]}
    out = scrub_value(data)
    for _ in range(depth):
        out = out["child"][0]
    assert out == {"password": "[REDACTED:password]"}


def test_scrub_value_shared_references_and_cycles() -> None:
    shared = {"token": "abc"}
    data: dict = {"a": shared, "b": shared}
    data["self"] = data
    out = scrub_value(data)
    assert out["a"] == {"token": "[REDACTED:token]"}
    assert out["a"] is out["b"]
    assert out["self"] is out
    assert shared == {"token": "abc"}


def test_scrub_value_service_account_file() -> None:
    # A GCP service-account JSON posted as context: the key and its id go,
    # what names the account stays.
    account = {
        "type": "service_account",
        "project_id": "acme-prod",
        "private_key_id": GCP_KEY_ID,
        "private_key": PEM_RSA.replace("RSA ", "") + "\n",
        "client_email": "agent@acme-prod.iam.gserviceaccount.com",
        "client_id": "1234567890",
    }
    assert scrub_value(account) == {
        **account,
        "private_key_id": "[REDACTED:private_key_id]",
        "private_key": "[REDACTED:private_key]",
    }


def test_scrub_value_azure_connection_string_key() -> None:
    assert scrub_value({"AccountKey": AZURE_ACCOUNT_KEY, "AccountName": "acme"}) == {
        "AccountKey": "[REDACTED:secret]",
        "AccountName": "acme",
    }
