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
    # An API key in a query parameter or header whose name no rule knows (appid=, code=,
    # X-Honeycomb-Team:), and a DSN's key before the "@".
    "api_key_query_parameter", "azure_function_key_query", "honeycomb_api_key_header",
    "sentry_dsn_with_key",
    # Password hashes and passwords after flags no rule knows (htpasswd lines, ldapsearch -w,
    # plink -pw, wpa_supplicant's psk=, PowerShell's ConvertTo-SecureString -String).
    "htpasswd_apr1_line", "htpasswd_bcrypt_line", "ldapsearch_w_flag", "plink_pw_flag",
    "wpa_supplicant_psk", "powershell_securestring_plaintext",
    # Framework settings named SECRET_KEY written as code (app.config[...] = "..."), and a
    # Vault token of the legacy s. form given to a command.
    "flask_secret_key", "vault_legacy_token_login",
    # A value split over lines: a Java properties continuation, a YAML folded scalar.
    "properties_value_continued_next_line", "stripe_key_split_in_yaml_folded_scalar",
}
# Look-alikes the scrubber touches today.
KNOWN_FALSE_POSITIVES: set[str] = set()
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
