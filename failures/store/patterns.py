"""The pattern store's core: the pattern of a message, found or created the first time (its
template linked to it), and the live pattern of one merged away, read or held for a write that
links to it. Failure records (failures.records), lessons and the pattern jobs all file messages
here."""

from django.db import IntegrityError, transaction
from django.db.models import Subquery

from failures.live import live_pattern
from failures.models import FailurePattern, FailureTemplate
from failures.patterns import WILDCARD, fingerprint_of, template_of
from failures.patterns.tokens import compatible, merge, split

# How many patterns of the right length and head a new template is tried against; the most
# frequent first. Bounded so that a pathological head (``<*>``) cannot make a write slow.
COVER_CANDIDATES = 200
# A merge may commit while a write waits for a pattern's lock: look again at most this often.
MAX_LOCK_TRIES = 16


def pattern_head(tokens: tuple[str, ...]) -> str:
    """The first token, or ``*`` when it is a variable; indexed for cover lookups."""
    first = tokens[0] if tokens else ""
    return "*" if WILDCARD in first else first[:200]


def pattern_live(*, pattern: FailurePattern) -> FailurePattern:
    """The live pattern of ``pattern`` (failures.live), as committed now when it was merged."""
    if pattern.merged_into_id is None:
        return pattern
    return FailurePattern.objects.get(
        pk=Subquery(FailurePattern.objects.filter(pk=pattern.pk).values(live=live_pattern()))
    )


def pattern_held(*, pattern: FailurePattern) -> FailurePattern:
    """The live pattern of ``pattern``, kept from being merged away until the caller's
    transaction ends, for a write that links to it. Its row is locked, so a merge waits for
    the caller's commit and then re-points what the caller linked; a merge that committed
    while this waited shows as the newest row, and the pattern merged into is taken (and
    held) instead."""
    for _ in range(MAX_LOCK_TRIES):
        held = FailurePattern.objects.select_for_update(no_key=True).filter(pk=pattern.pk)
        with transaction.atomic(savepoint=False):  # the caller's, if it has one
            live = held.values_list(live_pattern(), flat=True).first()
        if live is None:  # the pattern itself is gone: as a lookup of it would say
            raise FailurePattern.DoesNotExist(f"pattern {pattern.pk} does not exist")
        if live == pattern.pk:
            return pattern
        pattern = FailurePattern.objects.get(pk=live)
    return pattern


def pattern_for_message(*, message: str, error_type: str = "") -> FailurePattern:
    """The pattern of a message, creating its template and pattern the first time."""
    template = template_of(message)
    fingerprint = fingerprint_of(template)
    known = FailureTemplate.objects.select_related("pattern").filter(fingerprint=fingerprint)
    found = known.first()
    if found is not None:
        return pattern_live(pattern=found.pattern)
    pattern = pattern_covering(template=template) or _pattern_create(
        template, fingerprint, error_type
    )
    try:
        with transaction.atomic():
            FailureTemplate.objects.create(
                fingerprint=fingerprint, template=template, pattern=pattern
            )
    except IntegrityError:  # a concurrent writer linked the same template first
        return pattern_live(pattern=known.get().pattern)
    return pattern


def pattern_covering(*, template: str) -> FailurePattern | None:
    """An existing live pattern whose variables already cover this template, if any."""
    tokens = split(template)
    candidates = (
        FailurePattern.objects.filter(
            merged_into__isnull=True,
            token_count=len(tokens),
            head__in=[pattern_head(tokens), "*"],
            template__contains=WILDCARD,
        )
        .order_by("-event_count")
        .values_list("pk", "template")[:COVER_CANDIDATES]
    )
    for pk, their_template in candidates:  # only the text is read until one fits
        theirs = split(their_template)
        if compatible(theirs, tokens) and merge(theirs, tokens) == theirs:
            return FailurePattern.objects.get(pk=pk)
    return None


def _pattern_create(template: str, fingerprint: str, error_type: str) -> FailurePattern:
    tokens = split(template)
    try:
        with transaction.atomic():
            return FailurePattern.objects.create(
                fingerprint=fingerprint,
                template=template,
                error_type=error_type[:100],
                token_count=len(tokens),
                head=pattern_head(tokens),
            )
    except IntegrityError:
        return pattern_live(pattern=FailurePattern.objects.get(fingerprint=fingerprint))


def patterns_for(messages: list[tuple[str, str]]) -> dict[str, FailurePattern]:
    """The live pattern of each distinct message; one query when every template is known."""
    templates = {message: template_of(message) for message, _ in messages}
    fingerprints = {message: fingerprint_of(template) for message, template in templates.items()}
    known = {
        template.fingerprint: template.pattern
        for template in FailureTemplate.objects.filter(
            fingerprint__in=set(fingerprints.values())
        ).select_related("pattern")
    }
    found = {}
    # In a fixed order, so two writers creating the same new patterns cannot deadlock.
    for message, error_type in sorted(set(messages)):
        if message in found:
            continue
        pattern = known.get(fingerprints[message])
        found[message] = (
            pattern_live(pattern=pattern)
            if pattern is not None
            else pattern_for_message(message=message, error_type=error_type)
        )
    return found
