"""Which failure patterns a lesson answers, learned from the fleet's reports that it worked and
from the wordings of its error that agents send with it.

Another library words the same fault differently, and no string measure finds that wording;
the fleet's reports do. A report that a lesson worked for a failure whose pattern it is not
linked to makes that pattern a candidate link of the lesson, with its evidence (each report
once, the agents and the API keys that sent them). A failed application is no evidence.

No single key steers the answers: a key names whatever agents it likes, so it is one source
however many names it sends. A candidate is confirmed (it joins ``Lesson.patterns``, which the
check reads) once it worked HINDSIGHT_LINK_MIN_SUCCESSES times for at least
HINDSIGHT_LINK_MIN_AGENTS agents and HINDSIGHT_LINK_MIN_KEYS keys, or once that many keys sent
a wording of its pattern for the lesson. A wording the lesson's own writer sends links it at
once, as sampled: the lesson matches that wording, but while it is unverified the match ranks
after every other (lessons.ranking), so its writer's words never put it above an approved
lesson; another key's wording is a candidate. A link a curator removed stays removed, whatever
is reported or sent later, until a curator links it again (lessons.curation).

When the pattern job or a curator merges patterns (the engine found them one fault), every link
follows the merged patterns to their survivor, with its evidence: reports that landed on each
wording's own pattern add up there, once each (links_follow_merge). Reports on patterns of one
wording that differ only in what they quote (the engine keeps ``"users_email_key"`` and
``"orders_pkey"`` apart: another name may call for another fix) add up too, once each, and
confirm each such link the fleet reported (failures.patterns.kin_key); a removed one stays
removed and counts for nothing.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from failures.models import FailurePattern
from failures.patterns import kin_key
from failures.store.patterns import pattern_held

from .match_index import match_index_bump
from .models import Lesson, PatternLink, PatternLinkEvidence


@dataclass(frozen=True)
class Worked:
    """A report that a lesson worked for a failure of a pattern: the application that said so,
    the agent it worked for ("" when unnamed), the key that wrote it (None without one), and
    when."""

    lesson_id: object
    pattern_id: int
    application_id: int
    agent: str
    seen_at: datetime
    api_key_id: int | None = None


def pattern_links_learn(*, reports: list[Worked]) -> None:
    """Count each report into the link of its lesson and pattern (a candidate, made the first
    time) and confirm the links that now have enough evidence. Caller owns the transaction.

    Exact under concurrency: each link's row is locked before its evidence is written and
    counted, in one order (lesson, pattern), so concurrent reporters count one after the other
    and neither deadlocks; an application is evidence once (a unique constraint)."""
    grouped: dict[str, dict[int, list[Worked]]] = defaultdict(lambda: defaultdict(list))
    for report in reports:
        # The live pattern, held so a concurrent merge cannot strand the link on an alias.
        live = pattern_held(pattern=FailurePattern(pk=report.pattern_id)).pk
        grouped[str(report.lesson_id)][live].append(report)
    confirmed = False
    for lesson_id in sorted(grouped):
        confirmed |= _learn_lesson(lesson_id, grouped[lesson_id])
    if confirmed:
        match_index_bump()


def _learn_lesson(lesson_id: str, reported: dict[int, list[Worked]]) -> bool:
    """Count one lesson's reports into its links, then its kin links' evidence together;
    whether that confirmed any. The reported links and their kin are locked in pattern order
    (the kin read first, without a lock: a link made meanwhile is counted by its own report)."""
    kin = _kin_of(lesson_id, set(reported))
    confirmed = False
    for pattern_id in sorted(set(reported) | kin):
        if pattern_id in reported:
            confirmed |= _learn_one(lesson_id, pattern_id, reported[pattern_id])
        else:
            PatternLink.objects.select_for_update().filter(
                lesson_id=lesson_id, pattern_id=pattern_id
            ).first()
    if len(reported) + len(kin) < 2:
        return confirmed  # one pattern: no kin to count together
    return _confirm_kin(lesson_id, set(reported) | kin) or confirmed


def _kin_of(lesson_id: str, pattern_ids: set[int]) -> set[int]:
    """The patterns of the lesson's links (but removed ones) that share a kin key with one of
    ``pattern_ids``, those excluded."""
    keys = {
        kin_key(template)
        for template in FailurePattern.objects.filter(pk__in=pattern_ids).values_list(
            "template", flat=True
        )
    }
    return {
        pattern_id
        for pattern_id, template in PatternLink.objects.filter(lesson_id=lesson_id)
        .exclude(state=PatternLink.State.REMOVED)
        .exclude(pattern_id__in=pattern_ids)
        .values_list("pattern_id", "pattern__template")
        if kin_key(template) in keys
    }


def _confirm_kin(lesson_id: str, pattern_ids: set[int]) -> bool:
    """Confirm the candidate and sampled links among ``pattern_ids`` whose kin's evidence
    together suffices, each report once; whether any was. The links are locked."""
    kin = defaultdict(list)
    for link in (
        PatternLink.objects.filter(lesson_id=lesson_id, pattern_id__in=pattern_ids)
        .exclude(state=PatternLink.State.REMOVED)
        .select_related("pattern")
        .order_by("pattern_id")
    ):
        kin[kin_key(link.pattern.template)].append(link)
    confirmed = False
    for links in kin.values():
        waiting = [link for link in links if link.state in _UNDECIDED]
        if len(links) < 2 or not waiting:
            continue
        reported = Q(application__isnull=False)
        counts = PatternLinkEvidence.objects.filter(link__in=links).aggregate(
            successes=Count("application", distinct=True, filter=reported),
            agents=Count("agent", distinct=True, filter=reported & ~Q(agent="")),
            keys=Count("api_key", distinct=True, filter=reported),
        )
        if not _enough(**counts, wordings=0):
            continue
        for link in waiting:
            _confirm(link)
        confirmed = True
    return confirmed


def _learn_one(lesson_id, pattern_id: int, reports: list[Worked]) -> bool:
    """Count the reports into one link; whether that confirmed it."""
    linked = Lesson.patterns.through.objects.filter(
        lesson_id=lesson_id, failurepattern_id=pattern_id
    ).exists()
    if not linked:  # a pattern linked otherwise (a sample message, a curator) needs no evidence
        PatternLink.objects.bulk_create(
            [PatternLink(lesson_id=lesson_id, pattern_id=pattern_id)], ignore_conflicts=True
        )
    link = (
        PatternLink.objects.select_for_update()
        .filter(lesson_id=lesson_id, pattern_id=pattern_id)
        .first()
    )
    if link is None or link.state == PatternLink.State.REMOVED:
        return False
    PatternLinkEvidence.objects.bulk_create(
        [
            PatternLinkEvidence(
                link=link,
                application_id=report.application_id,
                agent=report.agent,
                seen_at=report.seen_at,
                api_key_id=report.api_key_id,
            )
            for report in reports
        ],
        ignore_conflicts=True,
    )
    _recount(link)
    return _confirm_if_enough(link)


def _recount(link: PatternLink) -> None:
    reported = Q(application__isnull=False)
    counts = link.evidence.aggregate(
        successes=Count("pk", filter=reported),
        agents=Count("agent", distinct=True, filter=reported & ~Q(agent="")),
        keys=Count("api_key", distinct=True),
        wordings=Count("pk", filter=~reported),
        first_seen=Min("seen_at"),
        last_seen=Max("seen_at"),
    )
    for name, value in counts.items():
        setattr(link, name, value)
    link.save(update_fields=list(counts))


# Links the evidence may still confirm.
_UNDECIDED = (PatternLink.State.CANDIDATE, PatternLink.State.SAMPLED)


def _confirm_if_enough(link: PatternLink) -> bool:
    """Confirm a candidate or sampled link whose evidence now suffices; whether it did."""
    if link.state not in _UNDECIDED or not _enough(
        successes=link.successes, agents=link.agents, keys=link.keys, wordings=link.wordings
    ):
        return False
    _confirm(link)
    return True


def _confirm(link: PatternLink) -> None:
    link.state = PatternLink.State.CONFIRMED
    link.save(update_fields=["state"])
    Lesson.patterns.through.objects.bulk_create(
        [Lesson.patterns.through(lesson_id=link.lesson_id, failurepattern_id=link.pattern_id)],
        ignore_conflicts=True,
    )


def _enough(*, successes: int, agents: int, keys: int, wordings: int) -> bool:
    """The evidence of enough sources suffices to link without a curator (see the module's
    docstring): reports from enough agents and keys, or wordings from enough keys."""
    least_keys = settings.HINDSIGHT_LINK_MIN_KEYS
    return wordings >= least_keys or (
        successes >= settings.HINDSIGHT_LINK_MIN_SUCCESSES
        and agents >= settings.HINDSIGHT_LINK_MIN_AGENTS
        and keys >= least_keys
    )


def pattern_links_decide(*, lesson: Lesson, confirmed=(), removed=(), user=None) -> None:
    """Record a curator's decision on these pattern ids: ``confirmed`` ones are linked by hand,
    ``removed`` ones are not to be linked again by evidence. The caller changes
    ``Lesson.patterns`` to match (lessons.curation.lesson_patterns_set), in its transaction."""
    now = timezone.now()
    for state, pattern_ids in (
        (PatternLink.State.CONFIRMED, confirmed),
        (PatternLink.State.REMOVED, removed),
    ):
        for pattern_id in sorted(pattern_ids):
            PatternLink.objects.update_or_create(
                lesson=lesson,
                pattern_id=pattern_id,
                defaults={"state": state, "decided_by": user, "decided_at": now},
            )


def pattern_link_worded(
    *, lesson: Lesson, pattern_id: int, api_key_id: int | None, own: bool
) -> bool:
    """Count a wording of the lesson's error (a sample message recorded with it) of this
    pattern, sent by ``api_key_id`` (None: without a key, counted as no source), ``own`` when
    that is the lesson's writer: enough keys confirm the link; the writer's wording links it
    at once, as sampled; another key's is a candidate until then; a removed link stays removed.
    Whether the patterns the check reads changed. Caller owns the transaction."""
    if (
        Lesson.patterns.through.objects.filter(
            lesson_id=lesson.pk, failurepattern_id=pattern_id
        ).exists()
        and not PatternLink.objects.filter(lesson=lesson, pattern_id=pattern_id).exists()
    ):
        return False  # linked otherwise (a merge): nothing to learn
    PatternLink.objects.bulk_create(
        [PatternLink(lesson=lesson, pattern_id=pattern_id)], ignore_conflicts=True
    )
    link = PatternLink.objects.select_for_update().get(lesson=lesson, pattern_id=pattern_id)
    if link.state == PatternLink.State.REMOVED:
        return False
    if api_key_id is not None:
        PatternLinkEvidence.objects.bulk_create(
            [PatternLinkEvidence(link=link, api_key_id=api_key_id, seen_at=timezone.now())],
            ignore_conflicts=True,
        )
        _recount(link)
    if _confirm_if_enough(link):
        return True
    if not own or link.state != PatternLink.State.CANDIDATE:
        return False
    link.state = PatternLink.State.SAMPLED
    link.save(update_fields=["state"])
    lesson.patterns.add(pattern_id)
    return True


# Which of several links' states a merged link takes, strongest first: a curator's removal,
# then a confirmation, then a writer's wording, then a candidate.
_MERGED_STATES = (
    PatternLink.State.REMOVED,
    PatternLink.State.CONFIRMED,
    PatternLink.State.SAMPLED,
    PatternLink.State.CANDIDATE,
)


def links_follow_merge(*, merged: list[int], survivor: int, **_signal) -> None:
    """Carry the merged patterns' lesson links to their survivor, in the merge's transaction
    (failures.signals.patterns_merged). A lesson linked to a merged pattern otherwise (a sample
    message, an older merge) is linked to the survivor. A lesson's PatternLinks become one
    link of the survivor holding all their evidence, each report and each key's wording once
    (unless the survivor answers the lesson already without a link: then they are moot);
    its state is the survivor's own when a curator or the evidence decided it (confirmed or
    removed), else the strongest of theirs (_MERGED_STATES); then it is counted, and confirmed
    when the evidence now suffices. ``Lesson.patterns`` follows the link's state."""
    through = Lesson.patterns.through
    # Lessons the survivor answered already without a link of their own: nothing to learn.
    answered = set(
        through.objects.filter(failurepattern_id=survivor).values_list("lesson_id", flat=True)
    ) - set(PatternLink.objects.filter(pattern_id=survivor).values_list("lesson_id", flat=True))
    linked = set(
        through.objects.filter(failurepattern_id__in=merged).values_list("lesson_id", flat=True)
    )
    through.objects.bulk_create(
        [
            through(lesson_id=lesson_id, failurepattern_id=survivor)
            for lesson_id in sorted(linked, key=str)
        ],
        ignore_conflicts=True,
    )
    carried = defaultdict(list)
    for link in (
        PatternLink.objects.select_for_update()
        .filter(pattern_id__in=merged)
        .order_by("lesson_id", "pattern_id")
    ):
        carried[link.lesson_id].append(link)
    confirmed = False
    for lesson_id, links in carried.items():
        if lesson_id in answered:
            continue
        PatternLink.objects.bulk_create(
            [PatternLink(lesson_id=lesson_id, pattern_id=survivor)], ignore_conflicts=True
        )
        target = PatternLink.objects.select_for_update().get(
            lesson_id=lesson_id, pattern_id=survivor
        )
        PatternLinkEvidence.objects.bulk_create(
            [
                PatternLinkEvidence(
                    link=target,
                    application_id=row.application_id,
                    agent=row.agent,
                    seen_at=row.seen_at,
                    api_key_id=row.api_key_id,
                )
                for row in PatternLinkEvidence.objects.filter(link__in=links).order_by("pk")
            ],
            ignore_conflicts=True,
        )
        if target.state not in (PatternLink.State.CONFIRMED, PatternLink.State.REMOVED):
            states = {target.state} | {link.state for link in links}
            target.state = next(state for state in _MERGED_STATES if state in states)
            target.save(update_fields=["state"])
        _recount(target)
        confirmed |= _confirm_if_enough(target)
        if target.state == PatternLink.State.REMOVED:
            through.objects.filter(lesson_id=lesson_id, failurepattern_id=survivor).delete()
        elif target.state != PatternLink.State.CANDIDATE:
            through.objects.bulk_create(
                [through(lesson_id=lesson_id, failurepattern_id=survivor)], ignore_conflicts=True
            )
    PatternLink.objects.filter(pattern_id__in=merged).delete()
    if confirmed:
        match_index_bump()
