"""Patterns stored before a change of the engine, brought up to it.

Each stored message shape keeps the template the engine gave it when it was first seen, so an
upgrade of the grouping rules helps only new messages. ``patterns_retemplate`` templates every
distinct stored message again with the current engine: a shape the store does not know yet is
filed under the message's pattern, and a shape the store files under another pattern joins the
two (the current engine says they are one fault); those are merged through the one merge path
(failures.store.mining.patterns_merge), which carries failures, outcomes, lesson links and
counts to the survivor, and then the whole store is regrouped (``patterns_mine``). Templates of
the old engine stay as they were, so ids and fingerprints handed out earlier still resolve.

Running it again finds every shape known and under its pattern: it changes nothing. It only
joins; a fault the new engine would tell apart stays one pattern (a curator can unmerge).
"""

from dataclasses import dataclass

from django.db import transaction

from failures.live import live_pattern
from failures.models import Failure, FailurePattern, FailureTemplate
from failures.patterns import fingerprint_of, template_of
from failures.store.mining import MiningResult, patterns_merge, patterns_mine
from failures.store.patterns import pattern_live

CHUNK = 2000  # distinct messages read at a time


@dataclass(frozen=True)
class Retemplated:
    messages: int  # distinct stored messages templated again
    filed: int  # shapes of the current engine filed under their message's pattern
    joined: int  # patterns merged because the current engine gives them one shape
    mined: MiningResult  # the regroup of every template that follows


def patterns_retemplate() -> Retemplated:
    """Template every stored message with the current engine and merge what it joins."""
    messages = filed = 0
    joins = _Joins()
    rows = (
        Failure.objects.annotate(live=live_pattern("pattern"))
        .values_list("error", "live")
        .distinct()
        .order_by("error", "live")
    )
    for chunk in _chunks(rows.iterator(chunk_size=CHUNK)):
        messages += len(chunk)
        shapes = [
            (fingerprint_of(template), template, live)
            for template, live in ((template_of(error), live) for error, live in chunk)
        ]
        known = dict(
            FailureTemplate.objects.filter(fingerprint__in={f for f, _, _ in shapes})
            .annotate(live=live_pattern("pattern"))
            .values_list("fingerprint", "live")
        )
        for fingerprint, template, live in shapes:
            if fingerprint not in known:
                with transaction.atomic():
                    row, created = FailureTemplate.objects.get_or_create(
                        fingerprint=fingerprint,
                        defaults={"template": template, "pattern_id": live},
                    )
                filed += int(created)
                # A writer may have filed the shape meanwhile, under its own pattern.
                known[fingerprint] = live if created else pattern_live(pattern=row.pattern).pk
            if known[fingerprint] != live:
                joins.join(known[fingerprint], live)
    joined = 0
    for group in joins.groups():
        with transaction.atomic():
            survivor = (
                FailurePattern.objects.filter(pk__in=group, merged_into__isnull=True)
                .order_by("-event_count", "pk")
                .first()
            )
            if survivor is None:
                continue
            _, folded = patterns_merge(pattern_ids=set(group), template=survivor.template)
        joined += folded
    return Retemplated(messages=messages, filed=filed, joined=joined, mined=patterns_mine())


def _chunks(rows):
    chunk = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _Joins:
    """Pattern ids that belong together (a union-find)."""

    def __init__(self):
        self._parent: dict[int, int] = {}

    def _root(self, pk: int) -> int:
        while self._parent.setdefault(pk, pk) != pk:
            self._parent[pk] = self._parent[self._parent[pk]]
            pk = self._parent[pk]
        return pk

    def join(self, a: int, b: int) -> None:
        self._parent[self._root(a)] = self._root(b)

    def groups(self) -> list[list[int]]:
        found: dict[int, list[int]] = {}
        for pk in sorted(self._parent):
            found.setdefault(self._root(pk), []).append(pk)
        return [group for group in found.values() if len(group) > 1]
