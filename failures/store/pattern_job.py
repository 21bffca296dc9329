"""The incremental pattern job: new templates merged into patterns, counts of touched patterns.

``patterns_mine`` (failures.store.mining) replays every template; this job looks only at what
arrived since its watermarks (failures.store.jobstate):

* templates created since the last run are regrouped with the engine (PatternGrouper) together
  with the live patterns they could join, those of the same token count and head (as
  ``pattern_covering`` narrows the write path); stored patterns the engine puts in one group are
  merged, the merged-away ones kept as aliases;
* patterns that got failures since the last run are recounted exactly from their failures
  (``patterns_recount``, through the ``(pattern, agent)`` and ``(pattern, task)`` indexes);
  patterns without new failures are not touched.

Its cost follows the new templates and failures (and the size of the patterns they touch), not
the history. Running it again with nothing new changes nothing. A variable in the first token
(patterns whose heads differ) is only found by the full ``mine_patterns`` regroup.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from failures.live import live_pattern
from failures.models import Failure, FailurePattern, FailureTemplate, JobState
from failures.patterns import PatternGrouper
from failures.patterns.tokens import split
from failures.store.counts import patterns_recount
from failures.store.jobstate import watermark_settled
from failures.store.mining import patterns_merge
from failures.store.patterns import COVER_CANDIDATES, pattern_head

JOB = "patterns_update"


@dataclass(frozen=True)
class PatternUpdate:
    templates: int  # new templates regrouped
    failures: int  # new failures looked at
    merged: int  # patterns folded into another
    widened: int  # patterns whose template gained variables
    recounted: int  # patterns whose counts were recomputed


def patterns_update(*, now: datetime | None = None) -> PatternUpdate:
    """Merge the templates created since the last run into patterns and recount the patterns
    that got failures since then; ``now`` is when the run happens (tests move it forward)."""
    now = now or timezone.now()
    with transaction.atomic():
        state = JobState.locked(JOB)
        templates = FailureTemplate.objects.filter(pk__gt=state.template_watermark)
        failures = Failure.objects.filter(pk__gt=state.failure_watermark)
        new = list(
            templates.order_by("pk").values_list("template", "pattern_id", "pattern__template")
        )
        merged, widened = _templates_merge(new)
        touched = dict(
            failures.annotate(live=live_pattern("pattern"))
            .values("live")
            .annotate(n=Count("id"))
            .values_list("live", "n")
        )
        recounted = patterns_recount(pattern_ids=sorted(touched)) if touched else 0
        state.template_watermark = watermark_settled(
            rows=templates, time_field="created_at", now=now, current=state.template_watermark
        )
        state.failure_watermark = watermark_settled(
            rows=failures, time_field="recorded_at", now=now, current=state.failure_watermark
        )
        state.ran_at = now
        state.save()
    return PatternUpdate(
        templates=len(new),
        failures=sum(touched.values()),
        merged=merged,
        widened=widened,
        recounted=recounted,
    )


def _templates_merge(new: list[tuple[str, int, str]]) -> tuple[int, int]:
    """Regroup new ``(template, pattern id, pattern template)`` rows with their candidate
    patterns; merge what the engine joins. Returns (patterns folded, patterns widened)."""
    if not new:
        return 0, 0
    stored = {pattern_id: template for _, pattern_id, template in new}
    stored.update(_candidates({template for template, _, _ in new}))
    grouper = PatternGrouper()
    assigned = [(grouper.add(template), pk) for pk, template in sorted(stored.items())]
    assigned += [(grouper.add(template), pattern_id) for template, pattern_id, _ in new]
    groups: dict[str, set[int]] = defaultdict(set)
    for fingerprint, pattern_id in assigned:
        groups[grouper.resolve(fingerprint)].add(pattern_id)
    merged = widened = 0
    for fingerprint, pattern_ids in sorted(groups.items()):
        template = grouper.pattern_template(fingerprint)
        if len(pattern_ids) == 1 and stored[next(iter(pattern_ids))] == template:
            continue  # one pattern, shape unchanged: nothing to write
        survivor, folded = patterns_merge(pattern_ids=pattern_ids, template=template)
        merged += folded
        widened += int(survivor is not None)
    return merged, widened


def _candidates(templates: set[str]) -> dict[int, str]:
    """Live patterns a new template could join: same token count, and the same head or a
    variable one (any head when the template's own head is variable); the most frequent
    COVER_CANDIDATES per key, so one pathological head cannot make the job slow."""
    keys = {(len(tokens), pattern_head(tokens)) for tokens in map(split, templates)}
    found: dict[int, str] = {}
    for count, head in sorted(keys):
        heads = Q() if head == "*" else Q(head__in=[head, "*"])
        rows = FailurePattern.objects.filter(heads, merged_into__isnull=True, token_count=count)
        found.update(
            rows.order_by("-event_count", "pk").values_list("pk", "template")[:COVER_CANDIDATES]
        )
    return found
