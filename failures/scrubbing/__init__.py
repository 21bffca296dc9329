from .engine import RULES, Rule, scrub_text, scrub_value, secret_key_kind

__all__ = ["RULES", "Rule", "scrub_text", "scrub_value", "secret_key_kind"]
