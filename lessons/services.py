"""Every write to lessons by agents and the system: record-or-increment, proposals, the seeded
patterns and applications (whether a lesson worked). What humans do to lessons in the admin is in
lessons.curation."""

import hashlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone

from config.jobs import publish
from config.scrubbing import scrubbed
from config.writers import ANYONE, Writer, agent_check
from failures.store.patterns import pattern_for_message, pattern_held

from .known_patterns import KNOWN_PATTERNS
from .links import Worked, pattern_link_worded, pattern_links_learn
from .match_index import match_index_bump
from .models import Application, Lesson, LessonProposal
from .tasks import effectiveness_recompute_task


def lesson_text_clean(text: str | None, max_length: int | None = None) -> str | None:
    """What a human typed in the admin, scrubbed as agents' text is (config.api.fields)."""
    return None if text is None else scrubbed(text, max_length)


@dataclass(frozen=True)
class LessonRecorded:
    """What lesson_record did: created ``lesson``, or counted one more occurrence of it (and
    kept a differing resolution as ``proposal``, unless it was its writer's to change)."""

    lesson: Lesson
    created: bool
    proposal: LessonProposal | None = None

    @property
    def updated(self) -> bool:
        return not self.created


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
    error_messages: list[str] | None = None,
    writer: Writer = ANYONE,
) -> LessonRecorded:
    """Record a lesson or count one more occurrence of its pattern.
    The text comes scrubbed of secrets (the API's fields scrub what agents send).
    ``writer``'s key is recorded as the writer of a new lesson or proposal; a lesson names no
    agent, so any write key may record one. A differing resolution replaces the text of an
    unverified lesson only when the same key wrote it; otherwise it becomes a proposal for a
    curator.

    ``error_message``, a sample of the error, and each of ``error_messages`` (other wordings
    of the same fault) are wordings of that message's failure pattern (lessons.links): the
    lesson's writer's wordings link it at once, so checks for any message of the pattern find
    it, but rank it after approved lessons while it is unverified; another key's count towards
    linking it; a link a curator removed stays removed.
    Race-free: the increment is one UPDATE with ``occurrences + 1`` and a losing concurrent INSERT
    falls back to it, so N calls always add exactly N.
    """
    fields = {
        "error_pattern": error_pattern,
        "error_type": error_type,
        "skill_name": skill_name,
        "context": context or {},
        "resolution": resolution,
        "resolution_code": resolution_code,
    }
    samples = [text for text in [error_message, *(error_messages or [])] if text]
    with transaction.atomic(savepoint=False):  # inside a view's idempotent answer: no savepoint
        return _record(fields, proposed_by=proposed_by, samples=samples, writer=writer)


def _record(
    fields: dict, *, proposed_by: str, samples: list[str], writer: Writer
) -> LessonRecorded:
    pattern = fields["error_pattern"]
    if not _increment(pattern):
        try:
            with transaction.atomic():
                lesson = Lesson.objects.create(
                    **fields, source=Lesson.Source.AGENT, api_key_id=writer.key_id
                )
        except IntegrityError:  # another request created it first: count ours on top
            _increment(pattern)
        else:
            _link_patterns(lesson, samples, writer=writer)
            lessons_changed()
            return LessonRecorded(lesson=lesson, created=True)
    # The UPDATE above holds the row lock until commit, so this read sees our own count.
    lesson = Lesson.objects.get(error_pattern=pattern)
    if _link_patterns(lesson, samples, writer=writer):
        lessons_changed()
    proposal = _offer_resolution(lesson, fields, proposed_by=proposed_by, writer=writer)
    return LessonRecorded(lesson=lesson, created=False, proposal=proposal)


def lessons_changed() -> None:
    """Tell checks in every process that lessons changed, as this transaction commits."""
    match_index_bump()


def _link_patterns(lesson: Lesson, samples: list[str], *, writer: Writer) -> bool:
    """Count each sample message as ``writer``'s wording of its pattern for the lesson
    (lessons.links), the pattern held so that a concurrent merge cannot leave the link on the
    merged-away pattern (see failures.store.patterns.pattern_held). Whether the patterns the
    check reads changed. Links are locked in pattern order, as reports lock them
    (lessons.links.pattern_links_learn), so the two never deadlock."""
    own = lesson_written_by(lesson, writer)
    pattern_ids = {
        pattern_held(pattern=pattern_for_message(message=message, error_type=lesson.error_type)).pk
        for message in samples
    }
    changed = False
    for pattern_id in sorted(pattern_ids):
        changed |= pattern_link_worded(
            lesson=lesson,
            pattern_id=pattern_id,
            api_key_id=writer.key_id,
            own=own,
        )
    return changed


def _increment(pattern: str) -> bool:
    updated = Lesson.objects.filter(error_pattern=pattern).update(
        occurrences=F("occurrences") + 1, last_occurred=Now()
    )
    return updated > 0


def _offer_resolution(lesson: Lesson, fields: dict, *, proposed_by: str, writer: Writer):
    """An unreviewed lesson takes its writer's newer text; anyone else's, and any text for a
    reviewed lesson, is kept as a proposal: no key overwrites what another key wrote."""
    new = (fields["resolution"], fields["resolution_code"])
    if new == (lesson.resolution, lesson.resolution_code):
        return None
    if lesson.status == Lesson.Status.UNVERIFIED and lesson_written_by(lesson, writer):
        Lesson.objects.filter(pk=lesson.pk).update(resolution=new[0], resolution_code=new[1])
        lesson.resolution, lesson.resolution_code = new
        return None
    return _proposal_upsert(lesson, *new, proposed_by=proposed_by, writer=writer)


def lesson_written_by(lesson: Lesson, writer: Writer) -> bool:
    """Whether ``writer`` wrote ``lesson`` (a writer without a key: written by the admin, a job
    or a command, and asked about for such a caller)."""
    return lesson.api_key_id == writer.key_id


def proposal_digest(resolution: str, resolution_code: str | None) -> str:
    joined = f"{resolution}\x00{resolution_code or ''}"
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()


def _proposal_upsert(
    lesson, resolution, resolution_code, *, proposed_by, writer: Writer
) -> LessonProposal:
    digest = proposal_digest(resolution, resolution_code)
    pending = LessonProposal.objects.filter(
        lesson=lesson, digest=digest, status=LessonProposal.Status.PENDING
    )
    if not pending.update(times_proposed=F("times_proposed") + 1):
        try:
            with transaction.atomic():
                return LessonProposal.objects.create(
                    lesson=lesson,
                    resolution=resolution,
                    resolution_code=resolution_code,
                    digest=digest,
                    proposed_by=proposed_by,
                    api_key_id=writer.key_id,
                )
        except IntegrityError:
            pending.update(times_proposed=F("times_proposed") + 1)
    return pending.get()


def lessons_seed() -> int:
    """Create the known patterns that are missing, approved and marked as seeded; return how
    many."""
    created = 0
    with transaction.atomic():
        for known in KNOWN_PATTERNS:
            _, was_created = Lesson.objects.get_or_create(
                error_pattern=known["error_pattern"],
                defaults={**known, "status": Lesson.Status.APPROVED, "source": Lesson.Source.SEED},
            )
            created += was_created
        lessons_changed()
    return created


def applications_record(*, entries: list[dict]) -> list[Application]:
    """Store applications (each a dict of Application fields: lesson_id, worked, agent, task_id,
    failure, applied_at, api_key_id; and ``pattern_ids``, the patterns of the failures it fixed,
    when they are not its ``failure``'s) and have the lessons rescored once this commits. One
    that worked is evidence that its lesson answers those patterns (lessons.links). Caller owns
    the transaction."""
    now = timezone.now()
    fixed = [entry.pop("pattern_ids", None) for entry in entries]
    rows = Application.objects.bulk_create(
        [
            Application(applied_at=entry.pop("applied_at", None) or now, **entry)
            for entry in entries
        ]
    )
    pattern_links_learn(
        reports=[
            Worked(
                lesson_id=row.lesson_id,
                pattern_id=pattern_id,
                application_id=row.pk,
                agent=row.agent or (row.failure.agent if row.failure else ""),
                seen_at=row.applied_at,
                api_key_id=row.api_key_id,
            )
            # bulk_create answers the rows it was given, in their order: one for each entry.
            for row, pattern_ids in zip(rows, fixed, strict=True)
            if row.worked
            for pattern_id in (
                pattern_ids
                if pattern_ids is not None
                else [row.failure.pattern_id]
                if row.failure
                else []
            )
        ]
    )
    lesson_ids = sorted({str(row.lesson_id) for row in rows})
    if lesson_ids:
        publish(effectiveness_recompute_task, lesson_ids=lesson_ids)
    return rows


def application_report_check(*, agent: str = "", failure=None, writer: Writer = ANYONE) -> None:
    """Raise Forbidden when ``writer`` is bound to other agents than ``agent`` or the agent
    of ``failure``; an application naming no agent is allowed. A view runs it before a replay
    can answer, so a key never reads another agent's stored answer."""
    if agent:
        agent_check(writer, agent)
    if failure is not None:
        agent_check(writer, failure.agent, field="failure_id")


def application_report(
    *,
    lesson: Lesson,
    worked: bool,
    agent: str = "",
    task_id: str = "",
    failure=None,
    applied_at=None,
    writer: Writer = ANYONE,
) -> Application:
    """Record that ``lesson`` was applied and whether it worked, as written by ``writer``
    (checked first by application_report_check)."""
    application_report_check(agent=agent, failure=failure, writer=writer)
    with transaction.atomic(savepoint=False):
        [row] = applications_record(
            entries=[
                {
                    "lesson_id": lesson.pk,
                    "worked": worked,
                    "agent": agent,
                    "task_id": task_id,
                    "failure": failure,
                    "applied_at": applied_at,
                    "api_key_id": writer.key_id,
                }
            ]
        )
    return row
