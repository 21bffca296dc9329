"""Every write to lessons: record-or-increment, proposals, curation, the seeded patterns and
applications (whether a lesson worked)."""
import hashlib
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone

from config.api.idempotency import run_idempotent
from config.jobs import publish
from failures.scrubbing import scrub_text, scrub_value
from failures.services import pattern_for_message, pattern_held

from .known_patterns import KNOWN_PATTERNS
from .match_index import match_index_bump
from .models import Application, Lesson, LessonCuration, LessonProposal
from .tasks import effectiveness_recompute_task


def _clean(text: str | None, max_length: int | None = None) -> str | None:
    """Scrub secrets; a redaction marker may be longer than what it hides, so cut to fit."""
    if text is None:
        return None
    text = scrub_text(text)
    return text[:max_length] if max_length else text


def lesson_record(
    *,
    error_pattern: str,
    error_type: str,
    resolution: str,
    skill_name: str | None = None,
    context: dict | None = None,
    resolution_code: str | None = None,
    proposed_by: str = "",
    error_message: str | None = None,
    event_id: UUID | None = None,
    payload: dict | None = None,
) -> tuple[int, dict, bool]:
    """Record a lesson or count one more occurrence of its pattern; ``(status, body, replayed)``.

    ``error_message``, a sample of the error, links the lesson to that message's failure
    pattern, so checks for any message of the same pattern find it.
    Race-free: the increment is one UPDATE with ``occurrences + 1`` and a losing concurrent INSERT
    falls back to it, so N calls always add exactly N. A replayed ``event_id`` changes nothing.
    """
    fields = {
        "error_pattern": _clean(error_pattern, 200),
        "error_type": _clean(error_type, 100),
        "skill_name": _clean(skill_name, 100),
        "context": scrub_value(context or {}),
        "resolution": _clean(resolution),
        "resolution_code": _clean(resolution_code),
    }
    return run_idempotent(
        operation="lesson_record", event_id=event_id, payload=payload or fields,
        action=lambda: _record(fields, proposed_by=proposed_by, error_message=error_message),
    )


def _record(fields: dict, *, proposed_by: str, error_message: str | None) -> tuple[int, dict]:
    pattern = fields["error_pattern"]
    if not _increment(pattern):
        try:
            with transaction.atomic():
                lesson = Lesson.objects.create(**fields, source=Lesson.Source.AGENT)
        except IntegrityError:  # another request created it first: count ours on top
            _increment(pattern)
        else:
            _link_pattern(lesson, error_message)
            _index_changed()
            return 201, {"created": True, "id": str(lesson.id), "status": lesson.status}
    # The UPDATE above holds the row lock until commit, so this read sees our own count.
    lesson = Lesson.objects.get(error_pattern=pattern)
    _link_pattern(lesson, error_message)
    proposal = _offer_resolution(lesson, fields, proposed_by=proposed_by)
    body = {"updated": True, "id": str(lesson.id), "occurrences": lesson.occurrences,
            "status": lesson.status}
    if proposal is not None:
        body["proposal_id"] = proposal.id
    return 200, body


def _index_changed() -> None:
    """Tell checks in every process that lessons changed: now, and again once committed (a
    process that rebuilt in between would otherwise miss the uncommitted rows)."""
    match_index_bump()
    transaction.on_commit(match_index_bump)


def _link_pattern(lesson: Lesson, error_message: str | None) -> None:
    """Link the lesson to the message's pattern, held so that a concurrent merge cannot leave
    the link on the merged-away pattern (see failures.services.pattern_held)."""
    if error_message:
        lesson.patterns.add(pattern_held(pattern_for_message(
            message=scrub_text(error_message), error_type=lesson.error_type)))


def _increment(pattern: str) -> bool:
    updated = Lesson.objects.filter(error_pattern=pattern).update(
        occurrences=F("occurrences") + 1, last_occurred=Now()
    )
    return updated > 0


def _offer_resolution(lesson: Lesson, fields: dict, *, proposed_by: str):
    """An unreviewed lesson takes the newer text; a reviewed one keeps it as a proposal."""
    new = (fields["resolution"], fields["resolution_code"])
    if new == (lesson.resolution, lesson.resolution_code):
        return None
    if lesson.status == Lesson.Status.UNVERIFIED:
        Lesson.objects.filter(pk=lesson.pk).update(resolution=new[0], resolution_code=new[1])
        lesson.resolution, lesson.resolution_code = new
        return None
    return _proposal_upsert(lesson, *new, proposed_by=proposed_by)


def _proposal_digest(resolution: str, resolution_code: str | None) -> str:
    joined = f"{resolution}\x00{resolution_code or ''}"
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def _proposal_upsert(lesson, resolution, resolution_code, *, proposed_by) -> LessonProposal:
    digest = _proposal_digest(resolution, resolution_code)
    pending = LessonProposal.objects.filter(
        lesson=lesson, digest=digest, status=LessonProposal.Status.PENDING
    )
    if not pending.update(times_proposed=F("times_proposed") + 1):
        try:
            with transaction.atomic():
                return LessonProposal.objects.create(
                    lesson=lesson, resolution=resolution, resolution_code=resolution_code,
                    digest=digest, proposed_by=proposed_by,
                )
        except IntegrityError:
            pending.update(times_proposed=F("times_proposed") + 1)
    return pending.get()


# --- curation by humans ---------------------------------------------------------------------------

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
        _index_changed()
    return lesson


def lesson_approve(*, lesson: Lesson, user) -> Lesson:
    """Mark a lesson approved: agents may rely on it, and it ranks first in checks."""
    return _curate(lesson, user=user, action=LessonCuration.Action.APPROVE,
                   changes={"status": Lesson.Status.APPROVED})


def lesson_reject(*, lesson: Lesson, user) -> Lesson:
    """Mark a lesson rejected: it never appears in check answers again."""
    return _curate(lesson, user=user, action=LessonCuration.Action.REJECT,
                   changes={"status": Lesson.Status.REJECTED})


def lesson_edit(*, lesson: Lesson, user, **changes) -> Lesson:
    """Change a lesson's text or classification, keeping the previous values in its history."""
    unknown = set(changes) - set(_CURATED_FIELDS)
    if unknown:
        raise ValueError(f"cannot edit {', '.join(sorted(unknown))}")
    changes = {k: _clean(v) if isinstance(v, str) else v for k, v in changes.items()}
    return _curate(lesson, user=user, action=LessonCuration.Action.EDIT, changes=changes)


def proposal_accept(*, proposal: LessonProposal, user) -> Lesson:
    """Make a proposed resolution the lesson's resolution."""
    with transaction.atomic():
        lesson = _curate(proposal.lesson, user=user, action=LessonCuration.Action.ACCEPT_PROPOSAL,
                         changes={"resolution": proposal.resolution,
                                  "resolution_code": proposal.resolution_code})
        LessonProposal.objects.filter(pk=proposal.pk).update(
            status=LessonProposal.Status.ACCEPTED
        )
    return lesson


def proposal_dismiss(*, proposal: LessonProposal, user) -> None:
    """Close a proposal without changing the lesson; the dismissal is kept in its history."""
    with transaction.atomic():
        LessonProposal.objects.filter(pk=proposal.pk).update(
            status=LessonProposal.Status.DISMISSED
        )
        LessonCuration.objects.create(
            lesson=proposal.lesson, action=LessonCuration.Action.DISMISS_PROPOSAL, user=user,
            before={"proposal": proposal.resolution}, after={},
        )


def lessons_seed() -> int:
    """Create the known patterns that are missing, approved and marked as seeded; return how many."""
    created = 0
    with transaction.atomic():
        for known in KNOWN_PATTERNS:
            _, was_created = Lesson.objects.get_or_create(
                error_pattern=known["error_pattern"],
                defaults={**known, "status": Lesson.Status.APPROVED,
                          "source": Lesson.Source.SEED},
            )
            created += was_created
        _index_changed()
    return created


def lesson_create(*, user, **fields) -> Lesson:
    """A lesson written by a human (admin): scrubbed, marked source human."""
    cleaned = {k: _clean(v) if isinstance(v, str) else v for k, v in fields.items()}
    with transaction.atomic():
        lesson = Lesson.objects.create(**cleaned, source=Lesson.Source.HUMAN)
        _index_changed()
    return lesson


def lessons_delete(*, lessons) -> int:
    """Delete lessons (admin); checks stop proposing them at once."""
    with transaction.atomic():
        deleted = Lesson.objects.filter(pk__in=[l.pk for l in lessons]).delete()[0]
        _index_changed()
    return deleted


def applications_record(entries: list[dict]) -> list[Application]:
    """Store applications (each a dict of Application fields: lesson_id, worked, agent, task_id,
    failure, applied_at) and have the lessons rescored once this commits."""
    now = timezone.now()
    rows = Application.objects.bulk_create([
        Application(applied_at=entry.pop("applied_at", None) or now, **entry)
        for entry in entries])
    lesson_ids = sorted({str(row.lesson_id) for row in rows})
    if lesson_ids:
        publish(effectiveness_recompute_task, lesson_ids=lesson_ids)
    return rows


def application_report(*, lesson: Lesson, worked: bool, agent: str = "", task_id: str = "",
                       failure=None, applied_at=None, event_id: UUID | None = None,
                       payload: dict | None = None) -> tuple[int, dict, bool]:
    """Record that ``lesson`` was applied and whether it worked, once per event id."""
    def action():
        [row] = applications_record([dict(
            lesson_id=lesson.pk, worked=worked, agent=agent, task_id=task_id, failure=failure,
            applied_at=applied_at)])
        return 201, {"id": row.pk, "lesson": str(lesson.pk), "worked": row.worked,
                     "agent": row.agent, "task_id": row.task_id,
                     "failure_id": row.failure_id, "applied_at": row.applied_at}

    return run_idempotent(operation="application_record", event_id=event_id,
                          payload=payload or {}, action=action)


# --- merging duplicates and linking patterns (admin curation) -------------------------------------

# Imported here rather than with the others: this section was added after the module's services,
# and effectiveness is only needed by the merge below.
from .effectiveness import effectiveness_recompute  # noqa: E402

_MERGE_SNAPSHOT = ("error_pattern", "error_type", "skill_name", "status", "source", "occurrences",
                   "applications_count", "resolution", "resolution_code")


def lessons_merge(*, survivor: Lesson, duplicates: list[Lesson], user) -> Lesson:
    """Fold duplicate lessons into ``survivor``: occurrences add up, applications, pattern links
    and proposals move over, a differing resolution is kept as a proposal, the duplicates go."""
    dup_ids = sorted({d.pk for d in duplicates} - {survivor.pk})
    if not dup_ids:
        raise ValueError("choose at least one other lesson to merge into the survivor")
    with transaction.atomic():
        # One lock order for every merge (by id), so two concurrent merges cannot deadlock.
        locked = {l.pk: l for l in Lesson.objects.select_for_update().filter(
            pk__in=[survivor.pk, *dup_ids]).order_by("pk")}
        survivor, dups = locked[survivor.pk], [locked[pk] for pk in dup_ids if pk in locked]
        added = sum(d.occurrences for d in dups)
        Application.objects.filter(lesson_id__in=dup_ids).update(lesson=survivor)
        _merge_pattern_links(survivor, dup_ids)
        _merge_proposals(survivor, dups)
        Lesson.objects.filter(pk=survivor.pk).update(
            occurrences=F("occurrences") + added,
            last_occurred=max([survivor.last_occurred, *(d.last_occurred for d in dups)]))
        before = {**_snapshot(survivor), "occurrences": survivor.occurrences}
        LessonCuration.objects.create(
            lesson=survivor, action=LessonCuration.Action.MERGE, user=user,
            before={**before, "duplicates": [_merge_snapshot(d) for d in dups]},
            after={**before, "occurrences": survivor.occurrences + added})
        Lesson.objects.filter(pk__in=dup_ids).delete()
        _index_changed()
    # Applications moved, so the survivor's measured effectiveness is stale until rescored.
    effectiveness_recompute(lesson_ids=[survivor.pk])
    survivor.refresh_from_db()
    return survivor


def _merge_snapshot(lesson: Lesson) -> dict:
    return {"id": str(lesson.pk), **{name: getattr(lesson, name) for name in _MERGE_SNAPSHOT}}


def _merge_pattern_links(survivor: Lesson, dup_ids: list) -> None:
    links = Lesson.patterns.through
    pattern_ids = set(links.objects.filter(lesson_id__in=dup_ids)
                      .values_list("failurepattern_id", flat=True))
    links.objects.bulk_create([links(lesson_id=survivor.pk, failurepattern_id=pk)
                               for pk in sorted(pattern_ids)], ignore_conflicts=True)


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
        if not _proposal_count(survivor, _proposal_digest(*text), 1):
            LessonProposal.objects.create(
                lesson=survivor, resolution=text[0], resolution_code=text[1],
                digest=_proposal_digest(*text), proposed_by=f"merged {dup.error_pattern}"[:100])


def _proposal_count(lesson: Lesson, digest: str, times: int) -> bool:
    """Count ``times`` more on the lesson's pending proposal of this text; False if it has none.
    The caller holds the lesson's row lock, so no concurrent writer adds one in between."""
    return bool(LessonProposal.objects.filter(
        lesson=lesson, digest=digest, status=LessonProposal.Status.PENDING,
    ).update(times_proposed=F("times_proposed") + times))


def lesson_patterns_set(*, lesson: Lesson, patterns, user=None) -> None:
    """Make ``patterns`` exactly the failure patterns this lesson answers; the change is kept in
    the lesson's history."""
    with transaction.atomic():
        before = sorted(lesson.patterns.values_list("pk", flat=True))
        after = sorted({pattern.pk for pattern in patterns})
        if before == after:
            return
        lesson.patterns.set(after)
        LessonCuration.objects.create(lesson=lesson, action=LessonCuration.Action.EDIT,
                                      user=user, before={"patterns": before},
                                      after={"patterns": after})
        _index_changed()


def lesson_pattern_link(*, lesson: Lesson, pattern, user=None) -> None:
    """Link one more failure pattern to a lesson, so checks of that pattern find it."""
    current = list(lesson.patterns.all())
    lesson_patterns_set(lesson=lesson, patterns=[*current, pattern], user=user)


def lesson_pattern_unlink(*, lesson: Lesson, pattern, user=None) -> None:
    """Stop a lesson answering a failure pattern (a wrong link made by hand or by a merge)."""
    remaining = [p for p in lesson.patterns.all() if p.pk != pattern.pk]
    lesson_patterns_set(lesson=lesson, patterns=remaining, user=user)
