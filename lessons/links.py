"""Which failure patterns a lesson answers, learned from the fleet's reports that it worked.

Another library words the same fault differently, and no string measure finds that wording;
the fleet's reports do. A report that a lesson worked for a failure whose pattern it is not
linked to makes that pattern a candidate link of the lesson, with its evidence (each report
once, and the agents that sent them). A candidate that worked HINDSIGHT_LINK_MIN_SUCCESSES
times for at least HINDSIGHT_LINK_MIN_AGENTS agents is confirmed: it joins ``Lesson.patterns``,
which the check reads. A failed application is no evidence. A link a curator removed stays
removed, whatever is reported later, until a curator links it again (lessons.curation).
"""
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from failures.models import FailurePattern
from failures.records.services import pattern_held

from .match_index import match_index_bump
from .models import Lesson, PatternLink, PatternLinkEvidence


@dataclass(frozen=True)
class Worked:
    """A report that a lesson worked for a failure of a pattern: the application that said so,
    the agent it worked for ("" when unnamed), and when."""

    lesson_id: object
    pattern_id: int
    application_id: int
    agent: str
    seen_at: datetime


def pattern_links_learn(*, reports: list[Worked]) -> None:
    """Count each report into the link of its lesson and pattern (a candidate, made the first
    time) and confirm the links that now have enough evidence. Caller owns the transaction.

    Exact under concurrency: each link's row is locked before its evidence is written and
    counted, in one order (lesson, pattern), so concurrent reporters count one after the other
    and neither deadlocks; an application is evidence once (a unique constraint)."""
    grouped = defaultdict(list)
    for report in reports:
        # The live pattern, held so a concurrent merge cannot strand the link on an alias.
        live = pattern_held(pattern=FailurePattern(pk=report.pattern_id)).pk
        grouped[(str(report.lesson_id), live)].append(report)
    confirmed = False
    for lesson_id, pattern_id in sorted(grouped):
        confirmed |= _learn_one(lesson_id, pattern_id, grouped[(lesson_id, pattern_id)])
    if confirmed:
        match_index_bump()


def _learn_one(lesson_id, pattern_id: int, reports: list[Worked]) -> bool:
    """Count the reports into one link; whether that confirmed it."""
    linked = Lesson.patterns.through.objects.filter(
        lesson_id=lesson_id, failurepattern_id=pattern_id).exists()
    if not linked:  # a pattern linked otherwise (a sample message, a curator) needs no evidence
        PatternLink.objects.bulk_create([PatternLink(lesson_id=lesson_id, pattern_id=pattern_id)],
                                        ignore_conflicts=True)
    link = PatternLink.objects.select_for_update().filter(
        lesson_id=lesson_id, pattern_id=pattern_id).first()
    if link is None or link.state == PatternLink.State.REMOVED:
        return False
    PatternLinkEvidence.objects.bulk_create([
        PatternLinkEvidence(link=link, application_id=report.application_id,
                            agent=report.agent, seen_at=report.seen_at)
        for report in reports], ignore_conflicts=True)
    _recount(link)
    if link.state != PatternLink.State.CANDIDATE or not _enough(link):
        return False
    link.state = PatternLink.State.CONFIRMED
    link.save(update_fields=["state"])
    link.lesson.patterns.add(pattern_id)
    return True


def _recount(link: PatternLink) -> None:
    counts = link.evidence.aggregate(
        successes=Count("pk"), agents=Count("agent", distinct=True, filter=~Q(agent="")),
        first_seen=Min("seen_at"), last_seen=Max("seen_at"))
    for name, value in counts.items():
        setattr(link, name, value)
    link.save(update_fields=list(counts))


def _enough(link: PatternLink) -> bool:
    """The fleet's evidence suffices to link without a curator (see the module's docstring)."""
    return (link.successes >= settings.HINDSIGHT_LINK_MIN_SUCCESSES
            and link.agents >= settings.HINDSIGHT_LINK_MIN_AGENTS)


def pattern_links_decide(*, lesson: Lesson, confirmed=(), removed=(), user=None) -> None:
    """Record a curator's decision on these pattern ids: ``confirmed`` ones are linked by hand,
    ``removed`` ones are not to be linked again by evidence. The caller changes
    ``Lesson.patterns`` to match (lessons.curation.lesson_patterns_set), in its transaction."""
    now = timezone.now()
    for state, pattern_ids in ((PatternLink.State.CONFIRMED, confirmed),
                               (PatternLink.State.REMOVED, removed)):
        for pattern_id in sorted(pattern_ids):
            PatternLink.objects.update_or_create(
                lesson=lesson, pattern_id=pattern_id,
                defaults={"state": state, "decided_by": user, "decided_at": now})


def pattern_link_sampled(*, lesson: Lesson, pattern_id: int) -> None:
    """Link the pattern of a sample message an agent recorded the lesson with, unless a curator
    removed that link; a candidate of it is confirmed. Caller owns the transaction."""
    decided = PatternLink.objects.filter(lesson=lesson, pattern_id=pattern_id)
    if decided.filter(state=PatternLink.State.REMOVED).exists():
        return
    lesson.patterns.add(pattern_id)
    decided.filter(state=PatternLink.State.CANDIDATE).update(state=PatternLink.State.CONFIRMED)
