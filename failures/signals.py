"""What failures tells the apps built on it, without importing them.

``patterns_merged`` is sent inside a merge's transaction, once the merged patterns' failures and
templates point at the survivor: ``merged`` (their ids) and ``survivor`` (its id). Lessons carry
their links over to the survivor (lessons.links.links_follow_merge), the ledger its failed
outcomes' patterns (outcomes.services.outcomes_follow_merge).
"""

from django.dispatch import Signal

patterns_merged = Signal()
