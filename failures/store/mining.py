"""The pattern job: regroup stored templates with the engine and merge the patterns it joins.

The write path links a new message shape to an existing pattern only when that pattern's
variables already cover it. Seeing that four shapes differ only in one word needs all of
them at once, which is this job's part: it replays every template through PatternGrouper and
merges the stored patterns that the engine puts in one group, keeping the merged-away rows as
aliases (``merged_into``) so that ids and fingerprints handed out earlier still resolve.
"""

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from failures.models import Failure, FailurePattern, FailureTemplate
from failures.patterns import PatternGrouper, fingerprint_of
from failures.patterns.tokens import split
from failures.signals import patterns_merged
from failures.store.counts import patterns_recount
from failures.store.patterns import pattern_head


@dataclass(frozen=True)
class MiningResult:
    templates: int
    merged: int  # patterns folded into another
    widened: int  # patterns whose template gained variables


def patterns_mine() -> MiningResult:
    """Regroup every live template and merge the patterns that belong together."""
    rows = list(
        FailureTemplate.objects.filter(pattern__merged_into__isnull=True)
        .order_by("created_at", "id")
        .values_list("template", "pattern_id")
    )
    grouper = PatternGrouper()
    assigned = [(grouper.add(template), pattern_id) for template, pattern_id in rows]
    groups: dict[str, set[int]] = defaultdict(set)
    for fingerprint, pattern_id in assigned:
        groups[grouper.resolve(fingerprint)].add(pattern_id)
    merged = widened = 0
    for fingerprint, pattern_ids in groups.items():
        template = grouper.pattern_template(fingerprint)
        with transaction.atomic():
            survivor, folded = patterns_merge(pattern_ids=pattern_ids, template=template)
        merged += folded
        widened += int(survivor is not None)
    return MiningResult(templates=len(rows), merged=merged, widened=widened)


def patterns_merge(*, pattern_ids: set[int], template: str) -> tuple[FailurePattern | None, int]:
    """Fold the patterns into one carrying ``template``; return (changed survivor, folded). The
    patterns are locked in id order, as every writer locks them (outcomes.services); the most
    frequent survives."""
    locked = FailurePattern.objects.select_for_update().filter(pk__in=pattern_ids).order_by("pk")
    patterns = sorted(locked, key=lambda pattern: (-pattern.event_count, pattern.pk))
    fingerprint = fingerprint_of(template)
    owner = FailurePattern.objects.filter(fingerprint=fingerprint).first()
    if owner is not None and owner.pk not in pattern_ids:
        return None, 0  # the merged shape is already another live pattern's; leave it be
    survivor = owner or patterns[0]
    others = [p.pk for p in patterns if p.pk != survivor.pk]
    if not others and survivor.template == template:
        return None, 0
    if others:
        FailureTemplate.objects.filter(pattern_id__in=others).update(pattern=survivor)
        Failure.objects.filter(pattern_id__in=others).update(pattern=survivor)
        patterns_merged.send(sender=FailurePattern, merged=others, survivor=survivor.pk)
        # Aliases of an alias too: every alias stays one hop from its live pattern (failures.live).
        FailurePattern.objects.filter(Q(pk__in=others) | Q(merged_into_id__in=others)).update(
            merged_into=survivor
        )
    tokens = split(template)
    FailurePattern.objects.filter(pk=survivor.pk).update(
        template=template,
        fingerprint=fingerprint,
        token_count=len(tokens),
        head=pattern_head(tokens),
    )
    patterns_recount(pattern_ids=[survivor.pk])
    return survivor, len(others)
