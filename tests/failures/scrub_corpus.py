"""A corpus of secret formats and of look-alikes, as data, for test_scrub_corpus.py.

Every secret is generated to its real shape (prefix, alphabet, length) from a fixed seed, never
pasted: no real key is used and no secret scanner mistakes this file for a leak.  Each format is
(name, before, secret, after): the text is before + secret + after, the secret is exactly the
span a scrubber should replace, and before and after must come back untouched.  Where an id is
written next to its secret (AWS, Twilio), the id sits in ``before`` when it is kept and inside
the secret span when it is redacted too.
"""

from __future__ import annotations

import base64
import random
import string
from urllib.parse import quote

ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
UPPER_B32 = string.ascii_uppercase + "234567"


def fake(alphabet: str, length: int, seed: str) -> str:
    """Random-looking string of ``alphabet``, stable across runs, holding every character
    class (digit, upper, lower) the alphabet has, as real random keys of these lengths do."""
    rng = random.Random(seed)
    classes = [
        cls for cls in (str.isdigit, str.isupper, str.islower) if any(cls(c) for c in alphabet)
    ]
    for _ in range(1000):
        out = "".join(rng.choice(alphabet) for _ in range(length))
        if all(any(cls(c) for c in out) for cls in classes):
            return out
    raise AssertionError(f"could not generate a fake for seed {seed!r}")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def pem(label: str, seed: str, newline: str = "\n") -> str:
    body = newline.join(fake(B64, 64, f"{seed}{i}") for i in range(4))
    return f"-----BEGIN {label}-----{newline}{body}{newline}-----END {label}-----"


AKIA = "AKIA" + fake(UPPER_B32, 16, "c-akia")
AWS_SECRET = fake(B64, 40, "c-aws-secret")
TWILIO_SID = "AC" + fake(HEX, 32, "c-twilio-sid")
TWILIO_KEY_SID = "SK" + fake(HEX, 32, "c-twilio-key-sid")
TELEGRAM_ID = "6" + fake(string.digits, 9, "c-telegram-id")
PASSWORD = "Tr0ub4dor-" + fake(ALNUM, 6, "c-password")
JWT = ".".join(
    [
        b64url(b'{"alg":"RS256","typ":"JWT"}'),
        b64url(b'{"sub":"agent-7","exp":1900000000}'),
        fake(B64URL, 86, "c-jwt"),
    ]
)
BASIC = base64.b64encode(b"deploy-bot:" + PASSWORD.encode()).decode()

FORMATS: list[tuple[str, str, str, str]] = [
    # --- AI providers
    ("openai_legacy", "OPENAI_API_KEY=", "sk-" + fake(ALNUM, 48, "c-oai"), ""),
    (
        "openai_project",
        "401 Incorrect API key provided: ",
        "sk-proj-" + fake(B64URL, 156, "c-proj"),
        ". See docs.",
    ),
    ("openai_service_account", "key ", "sk-svcacct-" + fake(B64URL, 120, "c-svc"), " revoked"),
    ("anthropic_api", "x-api-key: ", "sk-ant-api03-" + fake(B64URL, 93, "c-ant") + "AA", ""),
    (
        "anthropic_admin",
        "using ",
        "sk-ant-admin01-" + fake(B64URL, 93, "c-antadm") + "AA",
        " for usage",
    ),
    (
        "huggingface_user",
        "HfHubHTTPError 401 with ",
        "hf_" + fake(string.ascii_letters, 34, "c-hf"),
        "",
    ),
    (
        "huggingface_org",
        "token ",
        "api_org_" + fake(string.ascii_letters, 34, "c-hforg"),
        " invalid",
    ),
    # --- AWS
    ("aws_access_key_id", "InvalidClientTokenId: ", AKIA, " is not valid"),
    (
        "aws_sts_key_id_json",
        '{"AccessKeyId": "',
        "ASIA" + fake(UPPER_B32, 16, "c-asia"),
        '", "Expiration": "x"}',
    ),
    ("aws_secret_labelled", "aws_secret_access_key = ", AWS_SECRET, ""),
    ("aws_secret_json", '{"SecretAccessKey": "', fake(B64, 40, "c-aws2"), '"}'),
    ("aws_secret_after_id", "Credentials('", f"{AKIA}', '{AWS_SECRET}", "')"),
    ("aws_credentials_csv", "Access key ID,Secret access key\n", f"{AKIA},{AWS_SECRET}", "\n"),
    ("aws_session_token", "AWS_SESSION_TOKEN=", "FwoGZXIvYXdzE" + fake(B64, 300, "c-sts"), ""),
    # --- GitHub, GitLab
    (
        "github_classic_url",
        "git clone https://",
        "ghp_" + fake(ALNUM, 36, "c-ghp"),
        "@github.com/acme/repo.git",
    ),
    ("github_oauth", "gh auth token printed ", "gho_" + fake(ALNUM, 36, "c-gho"), ""),
    (
        "github_fine_grained",
        "using ",
        "github_pat_" + fake(ALNUM, 22, "c-ghf1") + "_" + fake(ALNUM, 59, "c-ghf2"),
        " for the API",
    ),
    ("github_app_installation", "GITHUB_TOKEN=", "ghs_" + fake(ALNUM, 36, "c-ghs"), ""),
    (
        "gitlab_personal",
        "remote: HTTP Basic: Access denied for ",
        "glpat-" + fake(B64URL, 20, "c-glpat"),
        "",
    ),
    ("gitlab_deploy", "fetch with ", "gldt-" + fake(B64URL, 20, "c-gldt"), " failed"),
    ("gitlab_runner", "runner token ", "glrt-" + fake(B64URL, 20, "c-glrt"), " rejected"),
    (
        "gitlab_runner_registration",
        "gitlab-runner register --registration-token ",
        "GR1348941" + fake(B64URL, 20, "c-gr"),
        "",
    ),
    # --- Chat
    (
        "slack_bot",
        "slack_sdk error (token=",
        "xoxb-2"
        + fake(string.digits, 11, "c-sb1")
        + "-3"
        + fake(string.digits, 12, "c-sb2")
        + "-"
        + fake(ALNUM, 24, "c-sb3"),
        "): not_authed",
    ),
    (
        "slack_user",
        "users.info failed for ",
        "xoxp-2"
        + fake(string.digits, 11, "c-sp1")
        + "-"
        + fake(string.digits, 12, "c-sp2")
        + "-"
        + fake(HEX, 32, "c-sp3"),
        "",
    ),
    (
        "slack_app",
        "SLACK_APP_TOKEN is ",
        "xapp-1-A"
        + fake(UPPER_B32, 10, "c-xa1")
        + "-"
        + fake(string.digits, 13, "c-xa2")
        + "-"
        + fake(HEX, 64, "c-xa3"),
        "",
    ),
    (
        "slack_webhook",
        "POST https://hooks.slack.com/services/",
        "T"
        + fake(UPPER_B32, 8, "c-sh1")
        + "/B"
        + fake(UPPER_B32, 10, "c-sh2")
        + "/"
        + fake(ALNUM, 24, "c-sh3"),
        " returned 404",
    ),
    (
        "telegram_bot_url",
        f"GET https://api.telegram.org/bot{TELEGRAM_ID}:",
        "AA" + fake(B64URL, 33, "c-tg"),
        "/getMe 401",
    ),
    (
        "telegram_bot_prose",
        f"bot token {TELEGRAM_ID}:",
        "AA" + fake(B64URL, 33, "c-tg2"),
        " was revoked",
    ),
    # --- Payments, commerce, mail
    ("stripe_secret", 'stripe.api_key = "', "sk_live_" + fake(ALNUM, 99, "c-sk"), '"'),
    ("stripe_restricted", "Invalid API Key provided: ", "rk_test_" + fake(ALNUM, 24, "c-rk"), ""),
    ("stripe_webhook_secret", "endpoint secret ", "whsec_" + fake(ALNUM, 32, "c-wh"), " rejected"),
    (
        "shopify_access_token",
        "401 from the shop admin API with ",
        "shpat_" + fake(HEX, 32, "c-shpat"),
        "",
    ),
    (
        "shopify_shared_secret",
        "webhook HMAC check with ",
        "shpss_" + fake(HEX, 32, "c-shpss"),
        " failed",
    ),
    (
        "sendgrid",
        "sendgrid key ",
        "SG." + fake(B64URL, 22, "c-sg1") + "." + fake(B64URL, 43, "c-sg2"),
        " revoked",
    ),
    ("mailgun_legacy", "mailgun rejected ", "key-" + fake(HEX, 32, "c-mg"), ""),
    (
        "mailgun_labelled",
        "MAILGUN_API_KEY=",
        fake(HEX, 32, "c-mg2") + "-" + fake(HEX, 8, "c-mg3") + "-" + fake(HEX, 8, "c-mg4"),
        "",
    ),
    ("twilio_auth_after_sid", f'Client("{TWILIO_SID}", "', fake(HEX, 32, "c-tw"), '")'),
    (
        "twilio_curl_user",
        f"curl -u {TWILIO_SID}:",
        fake(HEX, 32, "c-tw2"),
        " https://api.twilio.com/x",
    ),
    (
        "twilio_api_key_secret",
        f"Client('{TWILIO_KEY_SID}', '",
        fake(ALNUM, 32, "c-tw3"),
        "', sid)",
    ),
    ("twilio_labelled", "TWILIO_AUTH_TOKEN=", fake(HEX, 32, "c-tw4"), ""),
    # --- Cloud and infrastructure
    (
        "google_api_key",
        "GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key=",
        "AIza" + fake(B64URL, 35, "c-aiza"),
        "",
    ),
    ("google_oauth_token", "credentials.token was ", "ya29." + fake(B64URL, 120, "c-ya29"), ""),
    (
        "gcp_private_key_id",
        '{"type": "service_account", "private_key_id": "',
        fake(HEX, 40, "c-gcpid"),
        '", "project_id": "p"}',
    ),
    (
        "gcp_private_key",
        '{"private_key": "',
        pem("PRIVATE KEY", "c-gcp", "\\n"),
        '\\n", "client_email": "x@p.iam.gserviceaccount.com"}',
    ),
    (
        "azure_storage_account_key",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=",
        fake(B64, 86, "c-azk") + "==",
        ";EndpointSuffix=core.windows.net",
    ),
    (
        "azure_sas_signature",
        "403 on https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=",
        quote(fake(B64, 43, "c-sas") + "=", safe=""),
        " (expired?)",
    ),
    (
        "azure_service_bus_key",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=",
        fake(B64, 43, "c-sb") + "=",
        "",
    ),
    (
        "azure_ad_client_secret",
        "AADSTS7000215: Invalid client secret provided: ",
        fake(ALNUM, 3, "c-aad1") + "8Q~" + fake(ALNUM + "_~.-", 34, "c-aad2"),
        "",
    ),
    ("digitalocean_personal", "doctl auth init -t ", "dop_v1_" + fake(HEX, 64, "c-dop"), ""),
    ("digitalocean_oauth", "Authorization: Bearer ", "doo_v1_" + fake(HEX, 64, "c-doo"), ""),
    ("vault_service", "X-Vault-Token: ", "hvs." + fake(B64URL, 90, "c-hvs"), ""),
    ("vault_batch", "token ", "hvb." + fake(B64URL, 120, "c-hvb"), " expired"),
    ("vault_legacy_labelled", "VAULT_TOKEN=", "s." + fake(ALNUM, 24, "c-vs"), ""),
    ("databricks", "workspace rejected ", "dapi" + fake(HEX, 32, "c-dapi"), ""),
    # --- Package registries
    (
        "pypi_upload",
        "twine upload -u __token__ -p ",
        "pypi-AgEIcHlwaS5vcmc" + fake(B64URL, 150, "c-pypi"),
        " dist/*",
    ),
    (
        "pypi_pypirc",
        "[pypi]\n  username = __token__\n  password = ",
        "pypi-AgEIcHlwaS5vcmc" + fake(B64URL, 150, "c-pypi2"),
        "\n",
    ),
    ("npm_token", "//npm.internal.example/:_authToken=", "npm_" + fake(ALNUM, 36, "c-npm"), ""),
    (
        "npm_legacy_uuid",
        "//npm.internal.example/:_authToken=",
        "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
        "\n",
    ),
    # --- Web credentials
    ("jwt", "decoded ", JWT, " failed: exp"),
    ("authorization_bearer", "Authorization: Bearer ", fake(B64URL, 40, "c-bearer"), ""),
    ("authorization_basic", "headers={'Authorization': 'Basic ", BASIC, "'}"),
    ("bearer_free_text", "retrying with Bearer ", fake(B64URL, 40, "c-bearer2"), " after 401"),
    ("basic_free_text", "sent Basic ", BASIC, " to the proxy"),
    (
        "cookie_header",
        "Cookie: ",
        "sessionid=" + fake(HEX, 32, "c-sid") + "; csrftoken=" + fake(ALNUM, 32, "c-csrf"),
        "",
    ),
    ("api_key_header", "X-Api-Key: ", fake(ALNUM, 32, "c-xapi"), ""),
    # --- Passwords
    (
        "url_password_postgres",
        "could not connect to postgres://app:",
        PASSWORD,
        "@db.internal:5432/hindsight",
    ),
    ("url_password_redis", "redis://:", PASSWORD, "@cache:6379/0 refused"),
    ("url_password_mongodb_srv", "mongodb+srv://admin:", PASSWORD, "@cluster0.example.net/db"),
    (
        "url_encoded_password",
        "POST body=user%3Dbob%26password%3D",
        "Tr0ub4dor%2526x",
        "%26keep%3D1 failed",
    ),
    (
        "cli_password_space",
        "docker login --username bot --password ",
        PASSWORD,
        " registry.example",
    ),
    ("cli_password_equals", "psql --password=", PASSWORD, " -h db"),
    ("cli_token_quoted", 'terraform login --token "', fake(B64URL, 40, "c-tf"), '" app'),
    ("password_json", '{"username": "bob", "password": "', PASSWORD, '"}'),
    ("password_yaml", "db:\n  password: ", PASSWORD, "\n  port: 5432"),
    ("django_secret_key", "DJANGO_SECRET_KEY=", fake(ALNUM + "!@#%^*(-_=+)", 50, "c-dj"), ""),
    ("short_flag_password", "docker login -u bot -p ", PASSWORD, " registry.example"),
    # --- Private keys
    ("pem_rsa", "key file:\n", pem("RSA PRIVATE KEY", "c-rsa"), "\nloaded"),
    ("pem_openssh", "", pem("OPENSSH PRIVATE KEY", "c-ossh"), "\n"),
    ("pem_ec", "loaded ", pem("EC PRIVATE KEY", "c-ec"), " ok"),
    ("pgp_private_key", "gpg import of ", pem("PGP PRIVATE KEY BLOCK", "c-pgp"), " failed"),
]

SHA1 = "3f786850e387550fdab836ed7e6dc881de23001b"
SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
MD5 = "d41d8cd98f00b204e9800998ecf8427e"
UUID = "123e4567-e89b-12d3-a456-426614174000"
# A PNG's first bytes (signature, IHDR chunk), then fixed pseudo-random pixel bytes.
PNG = base64.b64encode(
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + random.Random("png").randbytes(180)
).decode()

# (name, text): must come back unchanged.
LOOKALIKES: list[tuple[str, str]] = [
    ("git_sha", f"HEAD is now at {SHA1} fix retries"),
    ("git_short_sha", "commit 3f78685 (HEAD -> main, origin/main)"),
    ("sha256_digest", f"sha256:{SHA256}"),
    ("docker_digest", f"pulled acme/api@sha256:{SHA256}"),
    ("pip_hash", f"requests==2.32.3 --hash=sha256:{SHA256}"),
    ("md5", f"md5 {MD5} mismatch"),
    ("etag", f'ETag: "{SHA1}"'),
    ("uuid", f"request_id={UUID} session_count=3"),
    ("uuid_in_url", f"GET https://api.example.com/v1/users/{UUID}/sessions 404"),
    ("base64_image", f'<img src="data:image/png;base64,{PNG}">'),
    (
        "npm_integrity",
        "integrity sha512-" + base64.b64encode(random.Random("sri").randbytes(64)).decode(),
    ),
    ("arn_role", "AccessDenied for arn:aws:iam::123456789012:role/deploy-bot"),
    (
        "arn_secret",
        "GetSecretValue on arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf failed",
    ),
    ("pod_name", "pod api-7d9f8b6c4d-x2k9p OOMKilled in namespace prod"),
    ("stripe_publishable_live", "pk_live_" + fake(ALNUM, 99, "l-pk")),
    ("stripe_publishable_test", "Stripe.js loaded with pk_test_" + fake(ALNUM, 24, "l-pkt")),
    ("invalid_token_prose", "Invalid token: expired"),
    ("csrf_prose", "CSRF token missing or incorrect."),
    ("authorization_missing", "Authorization header missing"),
    ("password_prose", "The password is too short"),
    ("token_counts", "token_count=512 max_tokens=1024 tokens_used: 300"),
    ("password_reset_url", "password_reset_url=https://example.com/account/reset"),
    ("tokenizer", "tokenizer = AutoTokenizer.from_pretrained('gpt2')"),
    ("bearer_prose", "Bearer authentication is required for /v1/chat"),
    ("basic_prose", "Basic troubleshooting steps did not help"),
    ("cli_metavar", "usage: deploy [--password PASSWORD] [--token TOKEN]"),
    ("cli_password_file", "psql --password-file /run/secrets/db --token-count 5"),
    (
        "cli_switches",
        "ansible-playbook --ask-vault-password site.yml; curl --no-auth http://x/health",
    ),
    ("cli_env_reference", "docker login --password $REGISTRY_PASSWORD registry.example"),
    ("signal", "worker received sig=15 (SIGTERM)"),
    ("twilio_sid_alone", f"account {TWILIO_SID} suspended"),
    ("twilio_message_sid", "message SM" + fake(HEX, 32, "l-sm") + " undelivered"),
    ("akia_mention", "keys starting AKIA are long-term, ASIA temporary"),
    (
        "prefix_mentions",
        "tokens look like ghp_, glpat-, xoxb-, hf_, npm_, shpat_, dop_v1_, hvs. or AIza",
    ),
    ("key_words", "key-value store, key-rotation policy, s3://bucket/key-prefix/object"),
    ("pwd_env", "PWD=/home/agent/project SHLVL=1"),
    ("secret_name", "secret_name=prod/db-creds AccountName=devstoreaccount1"),
    ("timestamp_and_ip", "2026-11-25T11:30:00Z connect to 10.0.3.17:5432 failed"),
    ("long_numbers", "order 1234567890123 failed at 1700000000:123"),
    ("rule_line", "-" * 60),
    ("hf_function", "hf_hub_download(repo_id='gpt2')"),
    ("email", "user bob.smith@example.com not found"),
    ("semver", "version 1.2.3+build.45 on python 3.11.7"),
]
