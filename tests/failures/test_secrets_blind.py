"""The scrubber over a corpus written blind (tests/failures/secrets_blind_corpus.py): secret
formats taken from gitleaks', detect-secrets' and GitHub's published lists with fake values,
each in a line an agent might send, and look-alikes that must be left alone.

Its figures are reported apart from tests/failures/scrub_corpus.py's, which was written beside
the rules. Every case is kept: those the scrubber misses today are listed in KNOWN_MISSES and
KNOWN_FALSE_POSITIVES, so the printed figures stay honest and a change in either direction (a
new miss, or a known one now handled) fails the test until the lists say so.
"""

from __future__ import annotations

from config.scrubbing import scrub_text, scrub_value
from tests.failures.secrets_blind_corpus import LOOKALIKES, SECRET_VALUES, SECRETS

# The targets for a held-out corpus: at least 95% caught, at most one false positive.
# Formats no rule covers yet; each is a case the scrubber must learn, not one to drop.
KNOWN_MISSES = {
    "aws_bedrock_long_lived_api_key", "azure_function_key_query", "alibaba_access_key_id_env",
    "oracle_ocir_auth_token_docker_login", "oracle_oci_config_pass_phrase", "discord_webhook_url",
    "microsoft_teams_webhook", "datadog_app_key_header", "newrelic_insert_key",
    "newrelic_browser_key_snippet", "newrelic_license_key_env", "sentry_dsn_with_key",
    "pagerduty_events_routing_key", "honeycomb_api_key_header", "dockerhub_pat_password_stdin",
    "vault_legacy_token_login", "heroku_api_key_v2_netrc", "cloudflare_origin_ca_key",
    "fastly_api_token_purge", "artifactory_api_key_header", "age_secret_key_file",
    "nuget_config_cleartext_password", "launchdarkly_sdk_key", "sshpass_password_flag",
    "ansible_ssh_pass_inventory", "plink_pw_flag", "pgpassword_env_psql", "secretkey_one_word",
    "accesstoken_one_word", "curl_user_colon_password", "mysql_p_quoted", "mysql_p_glued",
    "netrc_password", "pgpass_line", "docker_login_password_flag", "htpasswd_apr1_line",
    "htpasswd_bcrypt_line", "properties_value_continued_next_line", "xml_password_element",
    "rails_secret_key_base", "flask_secret_key", "openssl_passin",
    "powershell_securestring_plaintext", "api_key_query_parameter", "ldapsearch_w_flag",
    "redis_cli_a_flag", "wpa_supplicant_psk", "hindsight_key_env",
    "hindsight_key_in_error_message", "github_pat_glued_to_prefix_word",
    "github_pat_after_ansi_colour", "slack_token_url_encoded_after_22",
    "anthropic_key_json_escaped_u0022", "gitlab_pat_with_soft_hyphen",
    "stripe_key_split_in_yaml_folded_scalar",
}
# Look-alikes the scrubber touches today.
KNOWN_FALSE_POSITIVES = {
    "mapbox_public_token", "getpass_prompt", "settings_attribute_reference",
    "set_cookie_preference_only", "placeholder_shell_brace_var",
    "github_actions_secrets_expression", "placeholder_your_token_here",
}
# A piece of a multi-line secret (a PEM body line, a continued value) this long must not stay.
PIECE_CHARS = 8


def _pieces(secret: str) -> list[str]:
    """The secret, or for one written over several lines each of its lines, trimmed of the
    quotes, commas and escapes that join them."""
    lines = [line.strip(" \t\",\\") for line in secret.splitlines()]
    return [line for line in lines if len(line) >= PIECE_CHARS] or [secret]


def _left(text: str, name: str) -> bool:
    """Whether a piece of the secret survives scrubbing ``text``, alone or as a context value."""
    pieces = _pieces(SECRET_VALUES[name])
    outs = [scrub_text(text), str(scrub_value({"context": {"detail": text}, "list": [text]}))]
    return any(piece in out for out in outs for piece in pieces)


def test_corpus_sizes() -> None:
    assert len(SECRETS) >= 150 and len(LOOKALIKES) >= 60
    assert {name for name, _, _ in SECRETS} == set(SECRET_VALUES)
    assert KNOWN_MISSES <= set(SECRET_VALUES)
    assert KNOWN_FALSE_POSITIVES <= {name for name, _ in LOOKALIKES}


def test_blind_corpus_caught_and_look_alikes_kept() -> None:
    missed = sorted(name for name, _, text in SECRETS if _left(text, name))
    touched = sorted(name for name, text in LOOKALIKES if scrub_text(text) != text)
    caught = len(SECRETS) - len(missed)
    print(f"\nblind corpus: caught {caught}/{len(SECRETS)} ({100 * caught / len(SECRETS):.1f}%); "
          f"false positives {len(touched)}/{len(LOOKALIKES)}")
    print(f"missed: {', '.join(missed) or 'none'}\ntouched: {', '.join(touched) or 'none'}")
    assert set(missed) == KNOWN_MISSES
    assert set(touched) == KNOWN_FALSE_POSITIVES
