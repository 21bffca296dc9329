"""More of the scrubbing corpus (see scrub_corpus.py): provider formats from the public rule sets
of secret scanners (gitleaks, detect-secrets, the secret-scanning provider lists), names written
as one word, passwords on command lines and in config files, and the structures a token hides in
(glued to the text before it, split by an invisible character, behind a terminal escape, on the
next line).  Values are generated to each format's shape, never pasted."""

from __future__ import annotations

import base64
import string

from tests.failures.scrub_corpus import AKIA, ALNUM, AWS_SECRET, B64, B64URL, HEX, PASSWORD, fake

LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
GHP = "ghp_" + fake(ALNUM, 36, "m-ghp")
HSK = "hsk_" + fake(B64URL, 43, "m-hsk")


def f(name: str, before: str, secret: str, after: str = "") -> tuple[str, str, str, str]:
    return (name, before, secret, after)


PROVIDERS = [
    f("hindsight_key_env", "HINDSIGHT_KEY=", HSK),
    f("hindsight_key_prose", "401 for key ", "hsk_" + fake(B64URL, 43, "m-hsk2"), " (revoked)"),
    f(
        "discord_bot_token",
        "discord.errors.LoginFailure with ",
        "MT"
        + fake(ALNUM, 24, "m-dc1")
        + "."
        + fake(B64URL, 6, "m-dc2")
        + "."
        + fake(B64URL, 38, "m-dc3"),
        "",
    ),
    f(
        "discord_webhook",
        "POST https://discord.com/api/webhooks/1234567890123456789/",
        fake(B64URL, 68, "m-dcw"),
        " 401",
    ),
    f(
        "new_relic_user_key",
        "NEW_RELIC_API_KEY is ",
        "NRAK-" + fake(UPPER_ALNUM, 27, "m-nrak"),
        " invalid",
    ),
    f("new_relic_insert_key", "insert key ", "NRII-" + fake(B64URL, 32, "m-nrii"), ""),
    f("new_relic_license_key", "license_key: ", fake(HEX, 36, "m-nral") + "NRAL", ""),
    f("sentry_user_token", "sentry-cli rejected ", "sntryu_" + fake(HEX, 64, "m-sntu"), ""),
    f("sentry_org_token", "SENTRY_AUTH ", "sntrys_eyJ" + fake(B64URL, 120, "m-snts"), ""),
    f(
        "age_secret_key",
        "# created\n",
        "AGE-SECRET-KEY-1" + fake("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, "m-age"),
        "\n",
    ),
    f("alibaba_access_key", "aliyun id ", "LTAI" + fake(ALNUM, 20, "m-ltai"), " denied"),
    f(
        "atlassian_api_token",
        "jira auth with ",
        "ATATT3" + fake(B64URL, 180, "m-atatt"),
        " failed",
    ),
    f("bitbucket_app_password", "bitbucket ", "ATBB" + fake(ALNUM, 32, "m-atbb"), " rejected"),
    f("clojars_token", "lein deploy with ", "CLOJARS_" + fake(LOWER_ALNUM, 60, "m-clj"), ""),
    f(
        "cloudflare_origin_ca",
        "origin ca key ",
        "v1.0-" + fake(HEX, 24, "m-cf1") + "-" + fake(HEX, 146, "m-cf2"),
        "",
    ),
    f("contentful_pat", "contentful: ", "CFPAT-" + fake(B64URL, 43, "m-cfpat"), " expired"),
    f(
        "defined_networking",
        "dnclient ",
        "dnkey-" + fake(LOWER_ALNUM, 26, "m-dn1") + "-" + fake(LOWER_ALNUM, 52, "m-dn2"),
        "",
    ),
    f("doppler_service_token", "doppler run with ", "dp.st.prd." + fake(ALNUM, 43, "m-dop"), ""),
    f("doppler_personal", "doppler ", "dp.pt." + fake(ALNUM, 43, "m-dpt"), " revoked"),
    f(
        "dropbox_short_lived",
        "dropbox.exceptions.AuthError for ",
        "sl." + fake(B64URL, 138, "m-dbx"),
        "",
    ),
    f("duffel_token", "duffel ", "duffel_test_" + fake(B64URL, 43, "m-duf"), ""),
    f(
        "dynatrace_token",
        "Api-Token ",
        "dt0c01." + fake(UPPER_ALNUM, 24, "m-dt1") + "." + fake(UPPER_ALNUM, 64, "m-dt2"),
        "",
    ),
    f("easypost_key", "EasyPost::Error for ", "EZAK" + fake(ALNUM, 54, "m-ezak"), ""),
    f("facebook_token", "graph API said token ", "EAAC" + fake(ALNUM, 150, "m-fb"), " expired"),
    f("square_access_token", "square ", "EAAA" + fake(B64URL, 60, "m-sq"), " unauthorized"),
    f("square_oauth_secret", "oauth secret ", "sq0csp-" + fake(B64URL, 43, "m-sqc"), ""),
    f(
        "flutterwave_secret",
        "flutterwave ",
        "FLWSECK_TEST-" + fake("abcdefgh0123456789", 32, "m-flw") + "-X",
        "",
    ),
    f("frameio_token", "frame.io ", "fio-u-" + fake(B64URL, 64, "m-fio"), ""),
    f("grafana_cloud_token", "grafana ", "glc_" + fake(ALNUM, 60, "m-glc"), ""),
    f(
        "grafana_service_account",
        "grafana sa ",
        "glsa_" + fake(ALNUM, 32, "m-glsa1") + "_" + fake(HEX, 8, "m-glsa2"),
        "",
    ),
    f("grafana_api_key", "grafana legacy ", "eyJrIjoi" + fake(ALNUM, 72, "m-gak"), ""),
    f("heroku_token", "heroku ", "HRKU-" + fake(B64URL, 60, "m-hrku"), " invalid"),
    f("linear_api_key", "linear ", "lin_api_" + fake(ALNUM, 40, "m-lin"), ""),
    f(
        "mapbox_secret",
        "mapbox ",
        "sk.eyJ" + fake(B64URL, 60, "m-mb1") + "." + fake(B64URL, 22, "m-mb2"),
        "",
    ),
    f(
        "teams_webhook",
        "POST https://acme.webhook.office.com/webhookb2/",
        fake(HEX, 8, "m-tw1")
        + "@"
        + fake(HEX, 8, "m-tw2")
        + "/IncomingWebhook/"
        + fake(HEX, 32, "m-tw3"),
        " 400",
    ),
    f("nuget_key", "dotnet nuget push -k ", "oy2" + fake(LOWER_ALNUM, 43, "m-nuget"), ""),
    f("planetscale_token", "pscale ", "pscale_tkn_" + fake(B64URL, 43, "m-ps"), ""),
    f(
        "postman_key",
        "postman ",
        "PMAK-" + fake(HEX, 24, "m-pm1") + "-" + fake(HEX, 34, "m-pm2"),
        "",
    ),
    f("prefect_key", "prefect cloud login -k ", "pnu_" + fake(ALNUM, 36, "m-pnu"), ""),
    f("pulumi_token", "pulumi login with ", "pul-" + fake(HEX, 40, "m-pul"), ""),
    f("readme_key", "readme ", "rdme_" + fake(LOWER_ALNUM, 70, "m-rdme"), ""),
    f("rubygems_key", "gem push with ", "rubygems_" + fake(HEX, 48, "m-gem"), ""),
    f("scalingo_token", "scalingo ", "tk-us-" + fake(B64URL, 48, "m-scal"), ""),
    f(
        "brevo_key",
        "brevo ",
        "xkeysib-" + fake(HEX, 64, "m-br1") + "-" + fake(ALNUM, 16, "m-br2"),
        "",
    ),
    f("shippo_token", "shippo ", "shippo_live_" + fake(HEX, 40, "m-shippo"), ""),
    f("typeform_token", "typeform ", "tfp_" + fake(B64URL, 59, "m-tfp"), ""),
    f("yandex_api_key", "yc ", "AQVN" + fake(B64URL, 36, "m-aqvn"), " denied"),
    f(
        "onepassword_service_account",
        "OP_SERVICE_ACCOUNT ",
        "ops_eyJ" + fake(ALNUM, 260, "m-ops"),
        "",
    ),
    f("flyio_token", "fly deploy: ", "fo1_" + fake(B64URL, 43, "m-fly"), " unauthorized"),
    f(
        "harness_pat",
        "harness ",
        "pat."
        + fake(B64URL, 22, "m-h1")
        + "."
        + fake(ALNUM, 24, "m-h2")
        + "."
        + fake(ALNUM, 20, "m-h3"),
        "",
    ),
    f("infracost_key", "infracost ", "ico-" + fake(ALNUM, 32, "m-ico"), ""),
    f(
        "notion_token",
        "notion ",
        "ntn_" + fake("0123456789", 11, "m-ntn1") + fake(ALNUM, 35, "m-ntn2"),
        "",
    ),
    f("notion_legacy_token", "notion client ", "secret_" + fake(ALNUM, 43, "m-nsec"), ""),
    f("replicate_token", "replicate ", "r8_" + fake(ALNUM, 37, "m-r8"), ""),
    f("groq_key", "groq.AuthenticationError with ", "gsk_" + fake(ALNUM, 52, "m-gsk"), ""),
    f("perplexity_key", "perplexity ", "pplx-" + fake(ALNUM, 48, "m-pplx"), ""),
    f("xai_key", "xai ", "xai-" + fake(ALNUM, 80, "m-xai"), ""),
    f("openrouter_key", "openrouter ", "sk-or-v1-" + fake(HEX, 64, "m-or"), ""),
    f("deepseek_key", "deepseek 401 for ", "sk-" + fake(HEX, 32, "m-ds"), ""),
    f("elevenlabs_key", "xi-api ", "sk_" + fake(HEX, 48, "m-el"), ""),
    f(
        "pinecone_key",
        "pinecone ",
        "pcsk_" + fake(ALNUM, 10, "m-pc1") + "_" + fake(ALNUM, 60, "m-pc2"),
        "",
    ),
    f("supabase_pat", "supabase login ", "sbp_" + fake(HEX, 40, "m-sbp"), ""),
    f("buildkite_token", "buildkite ", "bkua_" + fake(HEX, 40, "m-bk"), ""),
    f(
        "circleci_token",
        "circleci ",
        "CCIPAT_" + fake(ALNUM, 22, "m-cc1") + "_" + fake(HEX, 40, "m-cc2"),
        "",
    ),
    f("docker_hub_pat", "docker login with ", "dckr_pat_" + fake(B64URL, 27, "m-dckr"), " failed"),
    f("jfrog_api_key", "artifactory ", "AKCp" + fake(ALNUM, 69, "m-akcp"), ""),
    f("jfrog_reference_token", "jfrog ", "cmVmdGtu" + fake(ALNUM, 56, "m-ref"), ""),
    f("octopus_key", "octo ", "API-" + fake(UPPER_ALNUM, 28, "m-oct"), " rejected"),
    f(
        "launchdarkly_sdk_key",
        "ld ",
        "sdk-"
        + fake(HEX, 8, "m-ld1")
        + "-"
        + fake(HEX, 4, "m-ld2")
        + "-"
        + fake(HEX, 4, "m-ld3")
        + "-"
        + fake(HEX, 4, "m-ld4")
        + "-"
        + fake(HEX, 12, "m-ld5"),
        "",
    ),
    f(
        "langsmith_key",
        "langsmith ",
        "lsv2_pt_" + fake(HEX, 32, "m-ls1") + "_" + fake(HEX, 10, "m-ls2"),
        "",
    ),
    f(
        "tailscale_key",
        "tailscale up --authkey=",
        "tskey-auth-" + fake(ALNUM, 12, "m-ts1") + "-" + fake(ALNUM, 30, "m-ts2"),
        "",
    ),
    f("render_key", "render ", "rnd_" + fake(ALNUM, 32, "m-rnd"), ""),
    f(
        "resend_key",
        "resend ",
        "re_" + fake(ALNUM, 8, "m-re1") + "_" + fake(ALNUM, 24, "m-re2"),
        "",
    ),
    f("netlify_token", "netlify ", "nfp_" + fake(ALNUM, 36, "m-nfp"), ""),
    f(
        "zapier_webhook",
        "POST https://hooks.zapier.com/hooks/catch/123456/",
        fake(ALNUM, 7, "m-zap"),
        "/ 410",
    ),
    f(
        "firebase_fcm_key",
        "fcm ",
        "AAAA" + fake(B64URL, 7, "m-fcm1") + ":" + fake(B64URL, 140, "m-fcm2"),
        "",
    ),
    f("twitter_bearer", "twitter ", "A" * 22 + fake(ALNUM, 90, "m-twb"), ""),
    f("adobe_client_secret", "adobe ", "p8e-" + fake(ALNUM, 32, "m-p8e"), ""),
    f("sonarqube_token", "sonar-scanner -Dsonar.login=", "squ_" + fake(HEX, 40, "m-sq"), ""),
    f("woocommerce_secret", "woocommerce ", "cs_" + fake(HEX, 40, "m-wc"), ""),
    f(
        "google_oauth_client_secret",
        "client secret ",
        "GOCSPX-" + fake(B64URL, 28, "m-goc"),
        " invalid",
    ),
    f("google_refresh_token", "refresh ", "1//0" + fake(B64URL, 100, "m-g1"), " revoked"),
    f(
        "braintree_token",
        "braintree ",
        "access_token$production$" + fake(LOWER_ALNUM, 16, "m-bt1") + "$" + fake(HEX, 32, "m-bt2"),
        "",
    ),
    f(
        "terraform_cloud_token",
        "terraform ",
        fake(ALNUM, 14, "m-tf1") + ".atlasv1." + fake(B64URL, 67, "m-tf2"),
        "",
    ),
    f("mailchimp_key", "mailchimp ", fake(HEX, 32, "m-mc") + "-us6", ""),
    f(
        "azure_devops_pat",
        "az devops ",
        fake(ALNUM, 52, "m-az1")
        + "JQQJ99"
        + fake(ALNUM, 18, "m-az2")
        + "AZDO"
        + fake(ALNUM, 4, "m-az3"),
        "",
    ),
    f("slack_config_token", "slack ", "xoxe.xoxp-1-" + fake(UPPER_ALNUM, 163, "m-xoxe"), ""),
    f(
        "putty_private_key",
        "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1",
        "\n" + fake(B64, 44, "m-putty"),
        "\nPrivate-MAC: ab",
    ),
    f("gitlab_runner_auth", "runner ", "glrt-t1_" + fake(B64URL, 20, "m-glrt"), ""),
    f(
        "aws_session_token_bare",
        "ExpiredToken for ",
        "IQoJb3JpZ2luX2VjE" + fake(B64, 300, "m-iqo"),
        "",
    ),
    f("aws_a3t_key_id", "key id ", "A3T" + fake(UPPER_ALNUM, 17, "m-a3t"), " denied"),
    f(
        "kube_client_key_data",
        "users:\n- user:\n    client-key-data: ",
        base64.b64encode(
            b"-----BEGIN RSA PRIVATE KEY-----\n" + fake(B64, 64, "m-kube").encode()
        ).decode(),
        "\n",
    ),
    f(
        "pem_private_key_base64",
        "secret data ",
        base64.b64encode(
            b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + fake(B64, 70, "m-b64pem").encode()
        ).decode(),
        "",
    ),
]

PW = "Zq7" + fake(ALNUM, 11, "m-pw")
NAMES = [  # a secret named by a key written as one word, or in a config file's own form
    f("one_word_secretkey", "secretkey=", fake(ALNUM, 32, "m-sk1")),
    f("one_word_accesstoken", "accesstoken=", fake(ALNUM, 40, "m-at1"), "&x=1"),
    f("one_word_apitoken", '{"apitoken": "', fake(ALNUM, 32, "m-apit"), '"}'),
    f("one_word_authtoken", "authtoken: ", fake(HEX, 40, "m-autht")),
    f("one_word_clientsecret", "clientsecret=", fake(ALNUM, 24, "m-cs1")),
    f("one_word_privatekey", "privatekey = ", fake(B64, 44, "m-pk1")),
    f("one_word_dbpassword", "dbpassword=", PW),
    f("one_word_refreshtoken", "refreshtoken: ", fake(B64URL, 48, "m-rt1")),
    f("pgpassword_env", "PGPASSWORD=", PW, " psql -h db -U app"),
    f("mysql_pwd_env", "MYSQL_PWD=", PW),
    f("db_pass_env", "DB_PASS=", PW, "\nDB_PORT=5432"),
    f("smtp_pass_yaml", "smtp:\n  pass: ", PW, "\n"),
    f("x_auth_token_header", "X-Auth-Token: ", fake(ALNUM, 32, "m-xat")),
    f("dd_app_key", "DD_APP_KEY=", fake(HEX, 40, "m-ddapp")),
    f("datadog_api_key_header", "DD-API-KEY: ", fake(HEX, 32, "m-ddapi")),
    f("license_key", "LICENSE_KEY=", fake(UPPER_ALNUM, 25, "m-lic")),
    f("encryption_key_json", '{"encryption_key": "', fake(B64, 44, "m-enc"), '"}'),
    f("weak_name_signing_secret_value", "webhook_signing_secret_v2=", fake(ALNUM, 32, "m-wss")),
    f("cache_key_secret_like", "session_secret_key_base=", fake(HEX, 64, "m-skb")),
    f("jdbc_password", "jdbc:postgresql://db:5432/app?user=app&password=", PW, "&ssl=true"),
    f("odbc_pwd", "Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=", PW, ";"),
    f("connection_string_password", "Server=db;Database=app;User Id=sa;Password=", PW, ";"),
    f("docker_env_password", 'docker run -e "POSTGRES_PASSWORD=', PW, '" postgres'),
    f("ini_password", "[database]\npassword = ", PW, "\n"),
    f("properties_password", "spring.datasource.password=", PW, "\n"),
    f("powershell_env", '$env:API_KEY = "', fake(ALNUM, 32, "m-ps1"), '"'),
    f("short_name_pw", "DB_PW=", PW, ""),
    f("short_name_creds", "creds: ", fake(ALNUM, 24, "m-creds"), ""),
    f("apim_subscription_key", "Ocp-Apim-Subscription-Key: ", fake(HEX, 32, "m-apim"), ""),
    f(
        "azure_devops_pat_env",
        "AZURE_DEVOPS_EXT_PAT=",
        fake("abcdefghijklmnopqrstuvwxyz234567", 52, "m-adopat"),
        "",
    ),
    f("pgpass_line", "# ~/.pgpass\ndb.internal:5432:app:deploy:", PW, "\n"),
]
COMMANDS = [
    f("curl_user_password", "curl -u deploy:", PW, " https://api.example.com/x"),
    f("curl_user_long", "curl --user deploy:", PW, " https://api.example.com/x"),
    f("mysql_p_glued", "mysql -h db -u root -p", PW, " app"),
    f("mysql_p_space", "mysql -u root -p ", PW, " -e 'select 1'"),
    f("mysqldump_p", "mysqldump -uroot -p", PW, " app > dump.sql"),
    f("sshpass", "sshpass -p '", PW, "' ssh deploy@host"),
    f("redis_cli_a", "redis-cli -h cache -a ", PW, " ping"),
    f("sqlcmd_capital_p", "sqlcmd -S db -U sa -P ", PW, " -Q 'SELECT 1'"),
    f("mongosh_p", "mongosh --host db -u admin -p ", PW, " --authenticationDatabase admin"),
    f("helm_registry_login", "helm registry login ghcr.io -u bot -p ", PW, ""),
    f("keytool_storepass", "keytool -list -keystore ks.jks -storepass ", PW, ""),
    f("openssl_passin", "openssl pkcs12 -in c.p12 -passin pass:", PW, " -nodes"),
    f("netrc_line", "machine api.example.com login deploy password ", PW, "\n"),
    f("xml_password_element", "<connection><password>", PW, "</password></connection>"),
    f("xml_appsettings", '<add key="SmtpPassword" value="', PW, '" />'),
    f("json_name_value", '{"name": "STRIPE_SECRET", "value": "', fake(ALNUM, 30, "m-nv"), '"}'),
    f("k8s_env_yaml", "env:\n  - name: DB_PASSWORD\n    value: ", PW, "\n"),
    f("powershell_securestring", 'ConvertTo-SecureString "', PW, '" -AsPlainText -Force'),
    f("requests_auth_tuple", "requests.get(url, auth=('deploy', '", PW, "'))"),
    f("http_basic_auth_class", 'HTTPBasicAuth("deploy", "', PW, '")'),
    f("php_define", "define('DB_PASSWORD', '", PW, "');"),
    f(
        "setdefault_env",
        'os.environ.setdefault("OPENAI_API_KEY", "',
        fake(ALNUM, 40, "m-sd"),
        '")',
    ),
    f("aws_configure_set", "aws configure set aws_secret_access_key ", fake(B64, 40, "m-acs"), ""),
]
STRUCTURES = [
    f("glued_after_hyphen", "deploy-", "ghp_" + fake(ALNUM, 36, "m-g1"), " failed"),
    f("glued_after_ansi", "token \x1b[31m", "ghp_" + fake(ALNUM, 36, "m-g2"), "\x1b[0m rejected"),
    f("glued_after_ansi_word", "auth\x1b[1m", "glpat-" + fake(B64URL, 20, "m-g3"), "\x1b[0m"),
    f("glued_after_url_equals", "next=%2Fcb%3Ft%3D", "ghp_" + fake(ALNUM, 36, "m-g4"), "%26x%3D1"),
    f(
        "glued_after_url_quote",
        "body=%7B%22k%22%3A%22",
        "xoxb-2" + fake("0123456789", 11, "m-g5") + "-" + fake(ALNUM, 24, "m-g6"),
        "%22%7D",
    ),
    f(
        "glued_after_unicode_escape",
        "{\\u0022t\\u0022: \\u0022",
        "npm_" + fake(ALNUM, 36, "m-g7"),
        "\\u0022}",
    ),
    f("glued_after_hex_escape", "b'\\x22", "sk_live_" + fake(ALNUM, 40, "m-g8"), "\\x22'"),
    f(
        "zero_width_inside_token",
        "token ",
        "ghp_" + fake(ALNUM, 18, "m-z1") + "\u200b" + fake(ALNUM, 18, "m-z2"),
        " leaked",
    ),
    f("zero_width_inside_key_name", "pass\u200bword=", PW, ""),
    f(
        "soft_hyphen_inside_token",
        "key ",
        "sk-ant-api03-" + fake(B64URL, 40, "m-z3") + "\u00ad" + fake(B64URL, 55, "m-z4"),
        "",
    ),
    f(
        "bidi_inside_token",
        "x ",
        "glpat-" + fake(B64URL, 10, "m-z5") + "\u202e" + fake(B64URL, 10, "m-z6"),
        "",
    ),
    f("yaml_block_value", "password: |\n  ", PW, "\n"),
    f("shell_continued_value", "export API_TOKEN=\\\n    ", fake(ALNUM, 32, "m-cont"), "\n"),
    f("aws_secret_next_line", "aws_access_key_id=", f"{AKIA}\n" + fake(B64, 40, "m-awsn"), "\n"),
    f("aws_secret_after_id_newline", "", f"{AKIA}\n{AWS_SECRET}", "\n"),
    f("aws_secret_spaced_label", "Secret access key: ", fake(B64, 40, "m-awsl"), ""),
    f("hindsight_key_glued", "HINDSIGHT_KEY\x1b[2m=", "hsk_" + fake(B64URL, 43, "m-hskg"), ""),
    # Beside the forms a look-alike takes: a prompt's quote followed by a value, a dotted
    # password, a session cookie among preferences, a secret cookie's name with a word value.
    f("quoted_label_then_value", '"password: "', PW, '""'),
    f("dotted_password", "password = ", "hunter2." + fake(ALNUM, 8, "m-dot"), ""),
    f(
        "session_cookie_among_preferences",
        "Cookie: ",
        "theme=dark; sid=" + fake(ALNUM, 24, "m-sid") + "; lang=en",
        "",
    ),
    f("session_cookie_word_value", "Set-Cookie: ", "sessionid=correcthorse; Path=/", ""),
    # A config file's own line, SQL, a login call, a tool's user%password, a crypt hash.
    f(
        "redis_requirepass_line",
        "bind 0.0.0.0\nrequirepass ",
        fake(ALNUM, 32, "m-rp"),
        "\nmaxmemory 2gb",
    ),
    f("license_key_line", "AccountID 1029384\nLicenseKey ", fake(ALNUM, 40, "m-lk"), "\n"),
    f("sql_identified_by", "CREATE USER 'etl'@'%' IDENTIFIED BY '", PW, "';"),
    f("sql_with_password", "ALTER USER app WITH PASSWORD '", PW, "';"),
    f("login_call_password", 'server.login("alerts@acme.io", "', PW, '")'),
    f("smbclient_user_percent", "smbclient //fs01/share -U 'ACME\\jdoe%", PW, "' -c 'ls'"),
    f("sqlplus_user_slash", "sqlplus -s system/", PW, "@//ora01:1521/ORCL @x.sql"),
    f("go_mysql_dsn", 'dsn := "shop:', PW, '@tcp(mysql:3306)/shop"'),
    f("nmcli_password_quoted", 'nmcli dev wifi connect "office" password "', PW, '" ifname wlan0'),
    f(
        "shadow_sha512",
        "jdoe:",
        "$6$" + fake(ALNUM, 16, "m-salt") + "$" + fake(ALNUM, 86, "m-sha"),
        ":19860:0:99999:7:::",
    ),
    f("bcrypt_hash", "admin:", "$2y$10$" + fake(ALNUM, 53, "m-bc"), ""),
    f("mandrill_key", "mandrill.Mandrill('", "md-" + fake(ALNUM, 22, "m-md"), "')"),
    f("statsig_secret", 'Statsig.initialize("', "secret-" + fake(ALNUM, 43, "m-ss"), '")'),
    f(
        "checkout_sandbox_key",
        'secret_key("',
        "sk_sbox_" + fake("abcdefghijklmnopqrstuvwxyz0123456789", 26, "m-ck"),
        '")',
    ),
    f("mollie_key", '$mollie->setApiKey("', "live_" + fake(ALNUM, 29, "m-ml") + "7", '");'),
    f("mnemonic_env", 'MNEMONIC="', "air art announce anger aisle alert artefact ability", '"'),
    f(
        "ssh2_private_key",
        "",
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n"
        + fake(B64, 64, "m-ssh2")
        + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        "\n",
    ),
    f(
        "openvpn_static_key",
        "",
        "-----BEGIN OpenVPN Static key V1-----\n"
        + fake(HEX, 32, "m-ovpn")
        + "\n-----END OpenVPN Static key V1-----",
        "\n",
    ),
    f(
        "mapbox_secret_under_token_name",
        "accessToken = '",
        "sk.eyJ" + fake(B64URL, 60, "m-mbs") + "." + fake(B64URL, 22, "m-mbs2"),
        "'",
    ),
]
FORMATS_MORE = PROVIDERS + NAMES + COMMANDS + STRUCTURES

SSH_PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + fake(B64, 43, "l-ssh") + " deploy@ci"
LOOKALIKES_MORE = [
    ("uuid4", "event 9b2f6c1e-4a7d-4e8b-9c3a-2f1e0d5c6b7a stored"),
    ("public_ssh_key", SSH_PUB),
    ("public_key_field", f"public_key: {SSH_PUB}"),
    (
        "pgp_public_block",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBF"
        + fake(B64, 60, "l-pgp")
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
    ),
    (
        "pem_certificate",
        "-----BEGIN CERTIFICATE-----\nMIID"
        + fake(B64, 60, "l-cert")
        + "\n-----END CERTIFICATE-----",
    ),
    ("placeholder_dollar_brace", "api_key=${API_KEY}"),
    ("placeholder_angle", "token: <YOUR_TOKEN>"),
    ("placeholder_stars", "password=****"),
    ("placeholder_env_ref", "export GITHUB_TOKEN=$GH_TOKEN"),
    ("placeholder_template", 'password: "{{ .Values.db.password }}"'),
    ("placeholder_caps_name", "OPENAI_API_KEY=YOUR_OPENAI_API_KEY"),
    ("max_tokens", "max_tokens=4096 temperature=0.2"),
    ("password_policy", "password_policy=strict min_length=12"),
    ("getpass_prompt", "Password: "),
    ("ssh_passphrase_prompt", "Enter passphrase for key '/home/agent/.ssh/id_ed25519':"),
    ("sudo_prompt", "[sudo] password for agent:"),
    ("mysql_prompt_flag", "mysql -u root -p"),
    ("docker_uid_gid", "docker run -u 1000:1000 alpine id"),
    ("git_push_upstream", "git push -u origin feature/token-refresh"),
    ("password_stdin", "echo $PW | docker login --password-stdin -u bot registry.example"),
    ("keyerror", "KeyError: 'user_id'"),
    ("token_type_bearer", '{"token_type": "Bearer", "expires_in": 3600}'),
    ("keyboard_layout", "keyboard_layout=us monkey=banana"),
    ("cache_key", "cache_key=user:42:profile"),
    ("tokenizer_model", "tokenizer: gpt2"),
    ("secret_ref", "secretKeyRef: {name: db-creds, key: password}"),
    (
        "pk_mapbox_public",
        "mapbox pk.eyJ" + fake(B64URL, 60, "l-mb") + "." + fake(B64URL, 22, "l-mb2"),
    ),
    ("k8s_pod", "pod web-5f7c9d8b6-qwxyz CrashLoopBackOff"),
    ("image_digest", "image@sha256:" + fake(HEX, 64, "l-dig")),
    ("github_commit_url", "https://github.com/acme/api/commit/" + fake(HEX, 40, "l-commit")),
    ("x_request_id", "X-Request-Id: 5f0e3c1a-8b2d-4f6e-9a7c-1d3b5e7f9a0b"),
    ("session_count", "sessions=12 session_count=3 passes=4"),
    ("ansi_colored_log", "\x1b[32mINFO\x1b[0m token refreshed for agent-7"),
    ("netrc_prose", "the password for login is wrong"),
    ("keypass_prose", "keytool needs -storepass to open it"),
    ("actions_expression", 'token = "${{ secrets.GITHUB_TOKEN }}"'),
    ("ansible_template", "password: {{ vault_db_password }}"),
    ("token_null", '{"token": null, "refresh_token": ""}'),
    ("secret_manager_path", "projects/p/secrets/db-password/versions/3"),
    ("token_file_flag", "--token-file /var/run/secrets/kubernetes.io/serviceaccount/token"),
    ("password_length_message", "Password must be at least 8 characters"),
    ("etc_passwd_line", "grep: /etc/passwd:1:root:x:0:0:root:/root:/bin/bash"),
    ("mysql_using_password", "Access denied for user 'root'@'localhost' (using password: YES)"),
    ("env_lookup_in_code", "apiKey: process.env.API_KEY"),
    ("yaml_vault_tag", "secret: !vault |"),
    (
        "kube_ca_data",
        "certificate-authority-data: "
        + base64.b64encode(
            b"-----BEGIN CERTIFICATE-----\nMIIC" + fake(B64, 60, "l-ca").encode()
        ).decode(),
    ),
    ("file_path_json", '{"file_path": "src/auth/token_store.py", "files": ["src/keys.py"]}'),
    ("getpass_prompt_call", 'password = getpass.getpass("Password: ")'),
    ("input_prompt", "token = input('API token: ').strip()"),
    ("settings_reference", "SECRET_KEY = settings.SECRET_KEY"),
    ("attribute_reference", "client = Client(api_key=self.api_key, timeout=30)"),
    ("stripe_publishable_under_key", "stripeKey = 'pk_live_" + fake(ALNUM, 40, "l-pkl") + "'"),
    (
        "mapbox_public_under_token",
        "mapboxgl.accessToken = 'pk.eyJ"
        + fake(B64URL, 60, "l-mbp")
        + "."
        + fake(B64URL, 22, "l-mbp2")
        + "';",
    ),
    ("preference_cookies", "Set-Cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax"),
    ("analytics_cookie", "Cookie: lang=en-US; _ga=GA1.2.1234567890.1700000000"),
    ("cleared_session_cookie", "Set-Cookie: session=; Path=/; Max-Age=0; HttpOnly"),
    ("masked_token_prefix", "  - Token: gho_************"),
    ("masked_url_password", "url=postgresql+psycopg://app:***@pg-primary:5432/orders"),
    ("placeholder_url_password", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DB"),
    ("helm_template_value", "    value: {{ .Values.openai.apiKey | quote }}"),
    ("command_substitution", 'export GITHUB_TOKEN="$(cat /run/secrets/github_token)"'),
    ("fstring_bearer", 'headers = {"Authorization": f"Bearer {settings.api_key}"}'),
    ("ratelimit_reset_time", "anthropic-ratelimit-tokens-reset: 2024-05-17T10:13:00Z"),
    ("token_prefix_in_code", 'api_key = "hsk_" + secrets.token_urlsafe(30)'),
    ("variable_passed_on", "return Settings(token=token)"),
    ("idempotency_key_header", "Idempotency-Key: 7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"),
    (
        "recaptcha_site_key",
        '<div class="g-recaptcha" data-sitekey="6LcR4xwpAAAAAJq9Xk3mN7pQ2sT5vW8y"></div>',
    ),
    ("razorpay_key_id", "var options = { key: 'rzp_live_Lk8Jh3Gf2Ds1Aq', amount: 50000 };"),
    ("password_prose_line", "Password required\npassword: required for this step"),
    ("key_file_label", "key file:\n/etc/ssl/private/app.key"),
]
