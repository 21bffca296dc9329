"""Every write to failures and patterns: record, resolve, and link a message to its pattern."""
from collections import Counter
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Case, DateTimeField, F, Value, When
from django.db.models.functions import Greatest, Least
from django.utils import timezone

from .models import Failure, FailurePattern, FailureTemplate
from .patterns import WILDCARD, fingerprint_of, template_of
from .patterns.tokens import compatible, merge, split
from .scrubbing import scrub_text, scrub_value

# How many patterns of the right length and head a new template is tried against; the most
# frequent first. Bounded so that a pathological head (``<*>``) cannot make a write slow.
COVER_CANDIDATES = 200
# A pattern merged into another which was merged in turn: follow at most this many links.
MAX_ALIAS_HOPS = 16


def pattern_head(tokens: tuple[str, ...]) -> str:
    """The first token, or ``*`` when it is a variable; indexed for cover lookups."""
    first = tokens[0] if tokens else ""
    return "*" if WILDCARD in first else first[:200]


def pattern_live(pattern: FailurePattern) -> FailurePattern:
    """Follow merge aliases to the pattern that is current now."""
    for _ in range(MAX_ALIAS_HOPS):
        if pattern.merged_into_id is None:
            return pattern
        pattern = FailurePattern.objects.get(pk=pattern.merged_into_id)
    return pattern


def pattern_for_message(*, message: str, error_type: str = "") -> FailurePattern:
    """The pattern of a message, creating its template and pattern the first time."""
    template = template_of(message)
    fingerprint = fingerprint_of(template)
    known = FailureTemplate.objects.select_related("pattern").filter(fingerprint=fingerprint)
    found = known.first()
    if found is not None:
        return pattern_live(found.pattern)
    pattern = pattern_covering(template) or _pattern_create(template, fingerprint, error_type)
    try:
        with transaction.atomic():
            FailureTemplate.objects.create(fingerprint=fingerprint, template=template,
                                           pattern=pattern)
    except IntegrityError:  # a concurrent writer linked the same template first
        return pattern_live(known.get().pattern)
    return pattern


def pattern_covering(template: str) -> FailurePattern | None:
    """An existing live pattern whose variables already cover this template, if any."""
    tokens = split(template)
    candidates = FailurePattern.objects.filter(
        merged_into__isnull=True, token_count=len(tokens),
        head__in=[pattern_head(tokens), "*"], template__contains=WILDCARD,
    ).order_by("-event_count")[:COVER_CANDIDATES]
    for pattern in candidates:
        theirs = split(pattern.template)
        if compatible(theirs, tokens) and merge(theirs, tokens) == theirs:
            return pattern
    return None


def _pattern_create(template: str, fingerprint: str, error_type: str) -> FailurePattern:
    tokens = split(template)
    try:
        with transaction.atomic():
            return FailurePattern.objects.create(
                fingerprint=fingerprint, template=template, error_type=error_type[:100],
                token_count=len(tokens), head=pattern_head(tokens),
            )
    except IntegrityError:
        return pattern_live(FailurePattern.objects.get(fingerprint=fingerprint))


def _text(value: str | None, limit: int | None = None) -> str:
    cleaned = scrub_text(value or "")
    return cleaned[:limit] if limit else cleaned


def failure_record(
    *, agent: str, task: str, error: str, error_type: str = "unknown",
    occurred_at: datetime | None = None, title: str = "", task_description: str = "",
    task_type: str = "", skill_name: str = "", retry_safe: bool | None = None,
    retry_after: int | None = None, side_effects: list | None = None, recovery_hint: str = "",
    attempt_count: int = 1, checkpoint: dict | None = None,
) -> Failure:
    """Store one failure (secrets scrubbed) under its pattern and count it. Caller owns the
    transaction (see failures.answers.failure_report, which adds idempotency)."""
    error = _text(error)
    pattern = pattern_for_message(message=error, error_type=error_type)
    occurred_at = occurred_at or timezone.now()
    _pattern_count(pattern, agent=agent, task=task, occurred_at=occurred_at,
                   retry_safe=retry_safe, retry_after=retry_after)
    return Failure.objects.create(
        occurred_at=occurred_at, agent=agent, task=task,
        task_description=_text(task_description), task_type=task_type, skill_name=skill_name,
        title=_text(title, 200), error=error, error_type=error_type, retry_safe=retry_safe,
        retry_after=retry_after, side_effects=scrub_value(side_effects or []),
        recovery_hint=_text(recovery_hint), attempt_count=attempt_count,
        checkpoint=scrub_value(checkpoint) if checkpoint is not None else None, pattern=pattern,
    )


def _pattern_count(pattern, *, agent, task, occurred_at, retry_safe, retry_after) -> None:
    """One more event. New agents and tasks are counted here; patterns_refresh recounts exactly."""
    seen = Failure.objects.filter(pattern=pattern)
    moment = Value(occurred_at, output_field=DateTimeField())
    changes = {
        "event_count": F("event_count") + 1,
        "agent_count": F("agent_count") + int(not seen.filter(agent=agent).exists()),
        "task_count": F("task_count") + int(not seen.filter(task=task).exists()),
        "unsafe_count": F("unsafe_count") + int(retry_safe is False),
        # A new pattern (no events yet) takes the failure's own time, not its row's creation.
        "first_seen": Case(When(event_count=0, then=moment),
                           default=Least(F("first_seen"), moment)),
        "last_seen": Case(When(event_count=0, then=moment),
                          default=Greatest(F("last_seen"), moment)),
    }
    if retry_after is not None:
        changes["retry_after"] = Value(retry_after)
    FailurePattern.objects.filter(pk=pattern.pk).update(**changes)


def failures_resolve(*, agent: str, task: str, status: str = Failure.Status.RESOLVED) -> int:
    """Close the open failures of an agent's task (a later success, or given up); return how many."""
    if status not in (Failure.Status.RESOLVED, Failure.Status.ABANDONED):
        raise ValueError("status must be resolved or abandoned")
    with transaction.atomic():
        open_failures = Failure.objects.select_for_update().filter(
            agent=agent, task=task, status=Failure.Status.OPEN)
        per_pattern = Counter(open_failures.values_list("pattern_id", flat=True))
        closed = open_failures.update(status=status, resolved_at=timezone.now())
        if status == Failure.Status.RESOLVED and per_pattern:
            FailurePattern.objects.filter(pk__in=per_pattern).update(resolved_count=F(
                "resolved_count") + Case(*[When(pk=pk, then=Value(n))
                                           for pk, n in per_pattern.items()], default=Value(0)))
    return closed
