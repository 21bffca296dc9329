"""Releases, models and prompt versions: the rule that judges which one brought a fault
(``rule``, pure) and the reads of its verdicts (``selectors``). The release job that counts the
ledger lives with the ledger (outcomes.releases)."""
