"""What humans do to lessons in the admin: approve, reject, edit, accept or dismiss proposals,
write and delete lessons, merge duplicates and link lessons to failure patterns. Every change is
kept in the lesson's history (LessonCuration) and reaches checks at once."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .effectiveness import effectiveness_recompute
from .links import Worked, pattern_links_decide, pattern_links_learn
from .models import (
    Application,
    Lesson,
    LessonCuration,
    LessonProposal,
    PatternLink,
    PatternLinkEvidence,
)
from .services import lesson_text_clean, lessons_changed, proposal_digest

_CURATED_FIELDS = ("status", "resolution", "resolution_code", "error_type", "skill_name")


def _snapshot(lesson: Lesson) -> dict:
    return {name: getattr(lesson, name) for name in _CURATED_FIELDS}


def _curate(lesson: Lesson, *, user, action: str, changes: dict) -> Lesson:
    with transaction.atomic():
        lesson = Lesson.objects.select_for_update().get(pk=lesson.pk)
        before = _snapshot(lesson)
        for name, value in changes.items():
            setattr(lesson, name, value)
        lesson.reviewed_by, lesson.reviewed_at = user, timezone.now()
        lesson.save()
        LessonCuration.objects.create(
            lesson=lesson, action=action, user=user, before=before, after=_snapshot(lesson)
        )
        lessons_changed()
    return lesson


def lesson_approve(*, lesson: Lesson, user) -> Lesson:
    """Mark a lesson approved: agents may rely on it, and it ranks first in checks."""
    return _curate(
        lesson,
        user=user,
        action=LessonCuration.Action.APPROVE,
        changes={"status": Lesson.Status.APPROVED},
    )


def lesson_reject(*, lesson: Lesson, user) -> Lesson:
    """Mark a lesson rejected: it never appears in check answers again."""
    return _curate(
        lesson,
        user=user,
        action=LessonCuration.Action.REJECT,
        changes={"status": Lesson.Status.REJECTED},
    )


def lesson_edit(*, lesson: Lesson, user, **changes) -> Lesson:
    """Change a lesson's text or classification, keeping the previous values in its history."""
    unknown = set(changes) - set(_CURATED_FIELDS)
    if unknown:
        raise ValueError(f"cannot edit {', '.join(sorted(unknown))}")
    changes = {k: lesson_text_clean(v) if isinstance(v, str) else v for k, v in changes.items()}
    return _curate(lesson, user=user, action=LessonCuration.Action.EDIT, changes=changes)


def proposal_accept(*, proposal: LessonProposal, user) -> Lesson:
    """Make a proposed resolution the lesson's resolution."""
    with transaction.atomic():
        lesson = _curate(
            proposal.lesson,
            user=user,
            action=LessonCuration.Action.ACCEPT_PROPOSAL,
            changes={
                "resolution": proposal.resolution,
                "resolution_code": proposal.resolution_code,
            },
        )
        LessonProposal.objects.filter(pk=proposal.pk).update(status=LessonProposal.Status.ACCEPTED)
    return lesson


def proposal_dismiss(*, proposal: LessonProposal, user) -> None:
    """Close a proposal without changing the lesson; the dismissal is kept in its history."""
    with transaction.atomic():
        LessonProposal.objects.filter(pk=proposal.pk).update(
            status=LessonProposal.Status.DISMISSED
        )
        LessonCuration.objects.create(
            lesson=proposal.lesson,
            action=LessonCuration.Action.DISMISS_PROPOSAL,
            user=user,
            before={"proposal": proposal.resolution},
            after={},
        )


def lesson_create(*, user, approve: bool = True, **fields) -> Lesson:
    """A lesson written by a human (admin): scrubbed, marked source human and, when ``approve``
    (the writer may review lessons), approved with the writer as its reviewer. Its history
    starts with the writing."""
    cleaned = {k: lesson_text_clean(v) if isinstance(v, str) else v for k, v in fields.items()}
    reviewed = (
        {"status": Lesson.Status.APPROVED, "reviewed_by": user, "reviewed_at": timezone.now()}
        if approve
        else {"status": Lesson.Status.UNVERIFIED}
    )
    with transaction.atomic():
        lesson = Lesson.objects.create(**cleaned, **reviewed, source=Lesson.Source.HUMAN)
        LessonCuration.objects.create(
            lesson=lesson,
            action=LessonCuration.Action.WRITE,
            user=user,
            before={},
            after=_snapshot(lesson),
        )
        lessons_changed()
    return lesson


def lessons_delete(*, lessons) -> int:
    """Delete lessons (admin); checks stop proposing them at once."""
    with transaction.atomic():
        deleted = Lesson.objects.filter(pk__in=[lesson.pk for lesson in lessons]).delete()[0]
        lessons_changed()
    return deleted


# --- merging duplicates --------------------------------------------------------------------------

_MERGE_SNAPSHOT = (
    "error_pattern",
    "error_type",
    "skill_name",
    "status",
    "source",
    "occurrences",
    "applications_count",
    "resolution",
    "resolution_code",
)


def lessons_merge(*, survivor: Lesson, duplicates: list[Lesson], user) -> Lesson:
    """Fold duplicate lessons into ``survivor``: occurrences add up, applications, pattern links
    and proposals move over, a differing resolution is kept as a proposal, the duplicates go."""
    dup_ids = sorted({d.pk for d in duplicates} - {survivor.pk})
    if not dup_ids:
        raise ValueError("choose at least one other lesson to merge into the survivor")
    with transaction.atomic():
        # One lock order for every merge (by id), so two concurrent merges cannot deadlock.
        locked = {
            lesson.pk: lesson
            for lesson in Lesson.objects.select_for_update()
            .filter(pk__in=[survivor.pk, *dup_ids])
            .order_by("pk")
        }
        survivor, dups = locked[survivor.pk], [locked[pk] for pk in dup_ids if pk in locked]
        added = sum(d.occurrences for d in dups)
        Application.objects.filter(lesson_id__in=dup_ids).update(lesson=survivor)
        _merge_pattern_links(survivor, dup_ids)
        _merge_candidates(survivor, dup_ids)
        _merge_proposals(survivor, dups)
        Lesson.objects.filter(pk=survivor.pk).update(
            occurrences=F("occurrences") + added,
            last_occurred=max([survivor.last_occurred, *(d.last_occurred for d in dups)]),
        )
        before = {**_snapshot(survivor), "occurrences": survivor.occurrences}
        LessonCuration.objects.create(
            lesson=survivor,
            action=LessonCuration.Action.MERGE,
            user=user,
            before={**before, "duplicates": [_merge_snapshot(d) for d in dups]},
            after={**before, "occurrences": survivor.occurrences + added},
        )
        Lesson.objects.filter(pk__in=dup_ids).delete()
        lessons_changed()
    # Applications moved, so the survivor's measured effectiveness is stale until rescored.
    effectiveness_recompute(lesson_ids=[survivor.pk])
    survivor.refresh_from_db()
    return survivor


def _merge_snapshot(lesson: Lesson) -> dict:
    return {"id": str(lesson.pk), **{name: getattr(lesson, name) for name in _MERGE_SNAPSHOT}}


def _merge_pattern_links(survivor: Lesson, dup_ids: list) -> None:
    """The duplicates' patterns become the survivor's, except those a curator took off it. A
    pattern a duplicate answered on its writer's wording alone (sampled) and the survivor did
    not answer stays sampled: a merge vouches for no link (lessons.links)."""
    links = Lesson.patterns.through
    own = PatternLink.objects.filter(lesson=survivor)
    known = set(
        links.objects.filter(lesson_id=survivor.pk).values_list("failurepattern_id", flat=True)
    ) | set(own.values_list("pattern_id", flat=True))
    pattern_ids = set(
        links.objects.filter(lesson_id__in=dup_ids).values_list("failurepattern_id", flat=True)
    ) - set(own.filter(state=PatternLink.State.REMOVED).values_list("pattern_id", flat=True))
    links.objects.bulk_create(
        [links(lesson_id=survivor.pk, failurepattern_id=pk) for pk in sorted(pattern_ids)],
        ignore_conflicts=True,
    )
    theirs = PatternLink.objects.filter(lesson_id__in=dup_ids)
    sampled = (
        set(theirs.filter(state=PatternLink.State.SAMPLED).values_list("pattern_id", flat=True))
        - set(theirs.exclude(state=PatternLink.State.SAMPLED).values_list("pattern_id", flat=True))
    ) & pattern_ids
    PatternLink.objects.bulk_create(
        [
            PatternLink(lesson=survivor, pattern_id=pk, state=PatternLink.State.SAMPLED)
            for pk in sorted(sampled - known)
        ],
        ignore_conflicts=True,
    )


def _merge_candidates(survivor: Lesson, dup_ids: list) -> None:
    """The duplicates' candidate links become the survivor's, their evidence counted again (it
    may now confirm them); the survivor's own removals stand, the duplicates' go with them."""
    evidence = PatternLinkEvidence.objects.filter(
        link__lesson_id__in=dup_ids,
        link__state=PatternLink.State.CANDIDATE,
        application__isnull=False,
    ).select_related("link")
    reports = []
    for each in evidence.order_by("pk"):
        assert each.application_id is not None  # application__isnull=False above
        reports.append(
            Worked(
                lesson_id=survivor.pk,
                pattern_id=each.link.pattern_id,
                application_id=each.application_id,
                agent=each.agent,
                seen_at=each.seen_at,
                api_key_id=each.api_key_id,
            )
        )
    pattern_links_learn(reports=reports)


def _merge_proposals(survivor: Lesson, dups: list[Lesson]) -> None:
    """Proposals move to the survivor (a text it already has pending is counted, not doubled);
    each duplicate's own resolution, when it differs, becomes a pending proposal too."""
    pending = LessonProposal.Status.PENDING
    for proposal in LessonProposal.objects.filter(lesson__in=dups, status=pending).order_by("pk"):
        if _proposal_count(survivor, proposal.digest, proposal.times_proposed):
            proposal.delete()
        else:
            LessonProposal.objects.filter(pk=proposal.pk).update(lesson=survivor)
    # Closed proposals are history and move as they are (only pending ones must be unique).
    LessonProposal.objects.filter(lesson__in=dups).update(lesson=survivor)
    for dup in dups:
        text = (dup.resolution, dup.resolution_code)
        if text == (survivor.resolution, survivor.resolution_code):
            continue
        if not _proposal_count(survivor, proposal_digest(*text), 1):
            LessonProposal.objects.create(
                lesson=survivor,
                resolution=text[0],
                resolution_code=text[1],
                digest=proposal_digest(*text),
                proposed_by=f"merged {dup.error_pattern}"[:100],
            )


def _proposal_count(lesson: Lesson, digest: str, times: int) -> bool:
    """Count ``times`` more on the lesson's pending proposal of this text; False if it has none.
    The caller holds the lesson's row lock, so no concurrent writer adds one in between."""
    return bool(
        LessonProposal.objects.filter(
            lesson=lesson,
            digest=digest,
            status=LessonProposal.Status.PENDING,
        ).update(times_proposed=F("times_proposed") + times)
    )


def lesson_patterns_set(*, lesson: Lesson, patterns, user=None) -> None:
    """Make ``patterns`` exactly the failure patterns this lesson answers; the change is kept in
    the lesson's history. A pattern taken off stays off (the fleet's evidence does not link it
    again, see lessons.links) until a curator links it again."""
    with transaction.atomic():
        before = sorted(lesson.patterns.values_list("pk", flat=True))
        after = sorted({pattern.pk for pattern in patterns})
        if before == after:
            return
        lesson.patterns.set(after)
        pattern_links_decide(
            lesson=lesson,
            confirmed=set(after) - set(before),
            removed=set(before) - set(after),
            user=user,
        )
        LessonCuration.objects.create(
            lesson=lesson,
            action=LessonCuration.Action.EDIT,
            user=user,
            before={"patterns": before},
            after={"patterns": after},
        )
        lessons_changed()


def lesson_pattern_link(*, lesson: Lesson, pattern, user=None) -> None:
    """Link one more failure pattern to a lesson, so checks of that pattern find it."""
    current = list(lesson.patterns.all())
    lesson_patterns_set(lesson=lesson, patterns=[*current, pattern], user=user)


def lesson_pattern_unlink(*, lesson: Lesson, pattern, user=None) -> None:
    """Stop a lesson answering a failure pattern (a wrong link made by hand or by a merge)."""
    remaining = [p for p in lesson.patterns.all() if p.pk != pattern.pk]
    lesson_patterns_set(lesson=lesson, patterns=remaining, user=user)


def pattern_link_confirm(*, link: PatternLink, user) -> None:
    """Link a candidate (or a removed link) by hand: checks of its pattern find the lesson."""
    lesson_pattern_link(lesson=link.lesson, pattern=link.pattern, user=user)


def pattern_link_remove(*, link: PatternLink, user) -> None:
    """Take a link off, confirmed or candidate; later evidence does not bring it back."""
    with transaction.atomic():
        if link.lesson.patterns.filter(pk=link.pattern_id).exists():
            lesson_pattern_unlink(lesson=link.lesson, pattern=link.pattern, user=user)
            return
        pattern_links_decide(lesson=link.lesson, removed={link.pattern_id}, user=user)
        LessonCuration.objects.create(
            lesson=link.lesson,
            action=LessonCuration.Action.EDIT,
            user=user,
            before={"candidate": link.pattern_id},
            after={"removed": link.pattern_id},
        )
