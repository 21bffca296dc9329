"""Curating patterns by hand (the admin): merge patterns a human says are one fault, and undo a
merge.

Merging goes through the pattern job's own merge (failures.store.mining.patterns_merge), so a human
merge and a mined one leave the same state: the most frequent pattern survives (or the one
that already owns the merged template), the others stay as aliases (``merged_into``) whose
templates, failures and lesson links move to the survivor.

Unmerging restores an alias as a live pattern. A merge keeps no list of what it moved, so what
goes back is worked out from the alias's own template, which the merge left as it was:

* the survivor's templates that the alias's template covers (its own shapes, and shapes first
  seen after the merge that it covers) go back to it, and so do the failures whose message
  has one of those templates (each message is normalised again; a failure whose template no
  longer matches because the engine's rules changed since it was stored stays put);
* lesson links the merge copied to the survivor stay there too (the survivor may have had them
  before; the lesson admin unlinks what is wrong), and outcomes keep the pattern they were
  stored with;
* the survivor keeps its template, widened by the merge; a shape never seen before that both
  cover goes to the more frequent pattern, as for any two live patterns, and the pattern job
  may merge the two again if the engine groups their templates.
"""

from dataclasses import dataclass

from django.db import transaction

from failures.models import Failure, FailurePattern, FailureTemplate
from failures.patterns import PatternGrouper, fingerprint_of, template_of
from failures.patterns.tokens import compatible, context, join, merge, split
from failures.store.counts import patterns_recount
from failures.store.mining import patterns_merge
from failures.store.patterns import pattern_live

# Failures read and re-pointed per round when an alias is restored: bounds memory and the size
# of each UPDATE on a pattern with hundreds of thousands of failures.
UNMERGE_CHUNK = 5000


@dataclass(frozen=True)
class MergeResult:
    survivor: FailurePattern
    merged: int  # patterns folded into the survivor
    template: str  # the survivor's template now


@dataclass(frozen=True)
class UnmergeResult:
    pattern: FailurePattern
    survivor: FailurePattern  # the live pattern it had been merged into
    templates: int  # message shapes moved back
    failures: int  # failures moved back


def patterns_merge_selected(*, patterns, user=None) -> MergeResult:
    """Merge the chosen patterns (aliases count as the pattern they were merged into) into one."""
    live = sorted({pattern_live(pattern=p).pk for p in patterns})
    if len(live) < 2:
        raise ValueError("choose at least two patterns that are not already one")
    with transaction.atomic():
        survivor, merged = patterns_merge(
            pattern_ids=set(live), template=pattern_template_merged(pattern_ids=live)
        )
        if survivor is None:
            # The merged template is another live pattern's already: keep the most frequent
            # pattern's own template, which no other pattern can own.
            top = FailurePattern.objects.filter(pk__in=live).order_by("-event_count", "pk")[0]
            survivor, merged = patterns_merge(pattern_ids=set(live), template=top.template)
            # That template is the fingerprint of one of the patterns folded, so one survives.
            assert survivor is not None
        survivor.refresh_from_db()
    return MergeResult(survivor=survivor, merged=merged, template=survivor.template)


def pattern_template_merged(*, pattern_ids) -> str:
    """The template for these patterns as one: the engine's, when it groups all their message
    shapes together; else the most frequent one's widened over the others where they line up
    token by token; else that one's template as it is."""
    patterns = list(
        FailurePattern.objects.filter(pk__in=pattern_ids).order_by("-event_count", "pk")
    )
    shapes = list(
        FailureTemplate.objects.filter(pattern_id__in=pattern_ids)
        .order_by("created_at", "pk")
        .values_list("template", flat=True)
    )
    grouper = PatternGrouper()
    keys = [grouper.add(shape) for shape in [*shapes, *(p.template for p in patterns)]]
    roots = {grouper.resolve(key) for key in keys}
    if len(roots) == 1:
        return grouper.pattern_template(roots.pop())
    return _widened([split(p.template) for p in patterns])


def _widened(templates: list[tuple[str, ...]]) -> str:
    first, widened = templates[0], templates[0]
    for tokens in templates[1:]:
        if len(tokens) != len(widened):
            return join(first)
        widened = merge(widened, tokens)
    # A template that kept fewer than half of its literal words would cover almost any message
    # of its length (all variables covers everything), and take over unrelated new failures.
    if context(widened) * 2 < context(first) or not context(widened):
        return join(first)
    return join(widened)


def pattern_unmerge(*, pattern: FailurePattern, user=None) -> UnmergeResult:
    """Restore a merged-away pattern, with its message shapes and their failures (see the
    module's docstring for what cannot be restored)."""
    with transaction.atomic():
        alias = FailurePattern.objects.select_for_update().get(pk=pattern.pk)
        if alias.merged_into_id is None:
            raise ValueError(f"pattern {alias.pk} is not merged into another")
        survivor = FailurePattern.objects.select_for_update().get(
            pk=pattern_live(pattern=alias).pk
        )
        shape = split(alias.template)
        moved = [
            t
            for t in FailureTemplate.objects.filter(pattern=survivor)
            if _covers(shape, split(t.template))
        ]
        FailureTemplate.objects.filter(pk__in=[t.pk for t in moved]).update(pattern=alias)
        failures = _failures_move(survivor, alias, {t.fingerprint for t in moved})
        FailurePattern.objects.filter(pk=alias.pk).update(merged_into=None)
        _counters_refresh([alias.pk, survivor.pk])
        alias.refresh_from_db()
        survivor.refresh_from_db()
    return UnmergeResult(pattern=alias, survivor=survivor, templates=len(moved), failures=failures)


def _covers(shape: tuple[str, ...], tokens: tuple[str, ...]) -> bool:
    """The alias's template stands for this message shape (as in pattern_covering)."""
    return compatible(shape, tokens) and merge(shape, tokens) == shape


def _failures_move(source: FailurePattern, target: FailurePattern, fingerprints: set) -> int:
    """Re-point the source's failures whose message has one of these templates; how many."""
    moved, after = 0, 0
    while fingerprints:
        rows = list(
            Failure.objects.filter(pattern=source, pk__gt=after)
            .order_by("pk")
            .values_list("pk", "error")[:UNMERGE_CHUNK]
        )
        if not rows:
            break
        ids = [pk for pk, error in rows if fingerprint_of(template_of(error)) in fingerprints]
        moved += Failure.objects.filter(pk__in=ids).update(pattern=target)
        after = rows[-1][0]
    return moved


def _counters_refresh(pattern_ids: list[int]) -> None:
    """Recount from the failures; a pattern left with none has nothing to count."""
    patterns_recount(pattern_ids=pattern_ids)
    empty = set(pattern_ids) - set(
        Failure.objects.filter(pattern_id__in=pattern_ids)
        .values_list("pattern_id", flat=True)
        .distinct()
    )
    FailurePattern.objects.filter(pk__in=empty).update(
        event_count=0, agent_count=0, task_count=0, resolved_count=0, unsafe_count=0
    )
