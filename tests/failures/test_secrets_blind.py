"""The scrubber over two corpora written blind, each by a writer who had not read the scrubber
or its rules: secret formats taken from gitleaks', detect-secrets' and GitHub's published lists
with fake values, each in a line an agent might send, and look-alikes that must be left alone.

* tests/failures/secrets_blind_corpus.py: 290 formats, 108 look-alikes. First contact: 276
  caught (95.2%), 4 look-alikes touched.
* tests/failures/secrets_blind_corpus_2.py: 232 formats and 144 look-alikes repeating none of
  the first's (its writer had seen the first corpus and its list of misses). First contact:
  193 caught (83.2%), 16 look-alikes touched. The rules it taught are general (config-file
  lines, SQL, login calls, crypt hashes, masks and templates, record keys), each with cases of
  both sides in the maintained corpus (tests/failures/scrub_corpus_more.py).

Their figures are reported apart from tests/failures/scrub_corpus.py's, which was written beside
the rules. Every case is kept: those the scrubber misses today are listed with why, so the
printed figures stay honest and a change in either direction (a new miss, or a known one now
handled) fails the test until the lists say so.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from config.scrubbing import scrub_text, scrub_value
from tests.failures import secrets_blind_corpus, secrets_blind_corpus_2

# The targets for a held-out corpus: at least 95% caught, at most one false positive.
# Formats no rule covers yet; each is a case the scrubber must learn, not one to drop.
KNOWN_MISSES_1 = {
    # An API key in a query parameter or header whose name no rule knows (appid=, code=,
    # X-Honeycomb-Team:), and a DSN's key before the "@".
    "api_key_query_parameter",
    "azure_function_key_query",
    "honeycomb_api_key_header",
    "sentry_dsn_with_key",
    # Passwords after flags no rule knows (ldapsearch -w, plink -pw, wpa_supplicant's psk=,
    # PowerShell's ConvertTo-SecureString -String).
    "ldapsearch_w_flag",
    "plink_pw_flag",
    "wpa_supplicant_psk",
    "powershell_securestring_plaintext",
    # Framework settings named SECRET_KEY written as code (app.config[...] = "..."), and a
    # Vault token of the legacy s. form given to a command.
    "flask_secret_key",
    "vault_legacy_token_login",
    # A value split over lines: a Java properties continuation, a YAML folded scalar.
    "properties_value_continued_next_line",
    "stripe_key_split_in_yaml_folded_scalar",
}
KNOWN_MISSES_2 = {
    # A key passed positionally to a client, with no prefix of its own and no name beside it
    # (Cohere's 40 characters, Rollbar's 32 hex), or after a short flag many tools use for
    # other things (codecov's -t).
    "cohere_key_positional_client_v2",
    "rollbar_token_positional_init",
    "codecov_token_cli_flag",
    # A secret named only by the structure around it: a Terraform variable block's default,
    # a command's output on the next line (argocd admin initial-password, cat master.key), a
    # column of sf's table, a list of accounts holding a 64-hex Ethereum key (shaped as a
    # transaction hash, which is a look-alike).
    "terraform_variable_default_password",
    "argocd_initial_admin_password_output",
    "rails_master_key_cat",
    "salesforce_access_token_sf_org_display",
    "ethereum_private_key_hardhat_accounts",
    # A namespaced XML element with attributes (<wsse:Password Type="...">).
    "soap_wsse_password_text",
    # "otpauth://...?secret=": the scan declines "auth" inside "otpauth", and a declined match
    # covers the rest of the URL, so the secret= after it is not tried (the scan stays linear).
    "totp_seed_otpauth_uri",
}
# Look-alikes the scrubber touches today: in the second corpus, a TLS session id printed by
# openssl s_client, under the name a web session's id has (Session-ID), a credential elsewhere.
CORPORA = {
    "first": (secrets_blind_corpus, KNOWN_MISSES_1, set()),
    "second": (secrets_blind_corpus_2, KNOWN_MISSES_2, {"tls_session_id_s_client"}),
}
# A piece of a multi-line secret (a PEM body line, a continued value) this long must not stay.
PIECE_CHARS = 8


def _pieces(secret: str) -> list[str]:
    """The secret, or for one written over several lines each of its lines, trimmed of the
    quotes, commas and escapes that join them."""
    lines = [line.strip(' \t",\\') for line in secret.splitlines()]
    return [line for line in lines if len(line) >= PIECE_CHARS] or [secret]


def _left(corpus: ModuleType, text: str, name: str) -> bool:
    """Whether a piece of the secret survives scrubbing ``text``, alone or as a context value."""
    pieces = _pieces(corpus.SECRET_VALUES[name])
    outs = [scrub_text(text), str(scrub_value({"context": {"detail": text}, "list": [text]}))]
    return any(piece in out for out in outs for piece in pieces)


@pytest.mark.parametrize("name", CORPORA)
def test_corpus_sizes(name: str) -> None:
    corpus, misses, false_positives = CORPORA[name]
    assert len(corpus.SECRETS) >= 150 and len(corpus.LOOKALIKES) >= 60
    assert {secret for secret, _, _ in corpus.SECRETS} == set(corpus.SECRET_VALUES)
    assert misses <= set(corpus.SECRET_VALUES)
    assert false_positives <= {look_alike for look_alike, _ in corpus.LOOKALIKES}


@pytest.mark.parametrize("name", CORPORA)
def test_blind_corpus_caught_and_look_alikes_kept(name: str) -> None:
    corpus, misses, false_positives = CORPORA[name]
    missed = sorted(secret for secret, _, text in corpus.SECRETS if _left(corpus, text, secret))
    touched = sorted(look for look, text in corpus.LOOKALIKES if scrub_text(text) != text)
    caught = len(corpus.SECRETS) - len(missed)
    print(
        f"\n{name} blind corpus: caught {caught}/{len(corpus.SECRETS)} "
        f"({100 * caught / len(corpus.SECRETS):.1f}%); false positives "
        f"{len(touched)}/{len(corpus.LOOKALIKES)}"
    )
    print(f"missed: {', '.join(missed) or 'none'}\ntouched: {', '.join(touched) or 'none'}")
    assert set(missed) == misses
    assert set(touched) == false_positives
