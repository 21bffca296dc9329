"""lessons.services and lessons.curation: record-or-increment, proposals, curation history and
the seeded patterns."""

import pytest

from config.api.agents import writer_of
from config.api.services import api_key_create
from lessons.curation import (
    lesson_approve,
    lesson_edit,
    lesson_reject,
    proposal_accept,
    proposal_dismiss,
)
from lessons.models import Lesson, LessonCuration, LessonProposal
from lessons.services import lesson_record, lessons_seed
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db


def record(**overrides):
    fields = {"error_pattern": "api_429", "error_type": "rate_limit", "resolution": "wait 60s"}
    return lesson_record(**{**fields, **overrides})


def test_first_record_creates_an_unverified_agent_lesson():
    recorded = record(skill_name="fetch", context={"provider": "openai"})
    assert (recorded.created, recorded.proposal) == (True, None)
    assert recorded.lesson.status == "unverified"
    lesson = Lesson.objects.get(pk=recorded.lesson.pk)
    assert (lesson.occurrences, lesson.source, lesson.skill_name) == (1, "agent", "fetch")
    assert lesson.context == {"provider": "openai"}


def test_recording_again_counts_an_occurrence():
    record()
    first_seen = Lesson.objects.get().last_occurred
    recorded = record()
    assert recorded.created is False and recorded.lesson.occurrences == 2
    lesson = Lesson.objects.get()
    assert lesson.occurrences == 2 and lesson.last_occurred >= first_seen


def test_an_unverified_lesson_takes_the_newer_resolution():
    record()
    record(resolution="switch provider")
    assert Lesson.objects.get().resolution == "switch provider"
    assert not LessonProposal.objects.exists()


def test_another_keys_resolution_for_an_unverified_lesson_is_a_proposal():
    """Record-or-increment is no way to rewrite another key's lesson: its text stays, the
    other key's becomes a proposal (counted when sent again); its own writer still edits it."""
    writer = api_key_create(name="writer", scope="write").key
    other = api_key_create(name="other", scope="write").key
    record(writer=writer_of(writer))
    first = record(resolution="delete the cache", proposed_by="other", writer=writer_of(other))
    record(resolution="delete the cache", proposed_by="other", writer=writer_of(other))
    lesson = Lesson.objects.get()
    assert (lesson.resolution, lesson.status, lesson.occurrences) == ("wait 60s", "unverified", 3)
    proposal = LessonProposal.objects.get()
    assert first.proposal == proposal
    assert (proposal.resolution, proposal.api_key, proposal.times_proposed) == (
        "delete the cache",
        other,
        2,
    )
    record(resolution="wait for the retry-after", writer=writer_of(writer))
    assert Lesson.objects.get().resolution == "wait for the retry-after"
    assert LessonProposal.objects.count() == 1


def test_an_approved_lesson_keeps_its_text_and_gets_a_proposal():
    LessonFactory(error_pattern="api_429", resolution="human text", status="approved")
    recorded = record(resolution="agent text", proposed_by="agent-7")
    lesson = Lesson.objects.get()
    assert lesson.resolution == "human text"
    proposal = LessonProposal.objects.get()
    assert (proposal.resolution, proposal.proposed_by, proposal.status) == (
        "agent text",
        "agent-7",
        "pending",
    )
    assert recorded.proposal == proposal


def test_the_same_proposal_is_counted_not_duplicated():
    LessonFactory(error_pattern="api_429", resolution="human text", status="approved")
    record(resolution="agent text")
    record(resolution="agent text")
    record(resolution="human text")  # the approved text itself is not a proposal
    assert LessonProposal.objects.get().times_proposed == 2
    assert Lesson.objects.get().occurrences == 4


def test_a_rejected_lesson_is_counted_and_kept_rejected():
    LessonFactory(error_pattern="api_429", status="rejected")
    record(resolution="try again")
    lesson = Lesson.objects.get()
    assert lesson.status == "rejected" and lesson.occurrences == 2
    assert LessonProposal.objects.count() == 1


def test_approve_and_reject_keep_who_and_when(admin_user):
    lesson = LessonFactory()
    lesson_approve(lesson=lesson, user=admin_user)
    lesson.refresh_from_db()
    assert lesson.status == "approved" and lesson.reviewed_by == admin_user
    assert lesson.reviewed_at is not None
    lesson_reject(lesson=lesson, user=admin_user)
    history = list(LessonCuration.objects.order_by("at").values_list("action", "before", "after"))
    assert [h[0] for h in history] == ["approve", "reject"]
    assert history[1][1]["status"] == "approved" and history[1][2]["status"] == "rejected"


def test_edit_keeps_the_previous_text(admin_user):
    lesson = LessonFactory(resolution="old")
    lesson_edit(lesson=lesson, user=admin_user, resolution="new")
    curation = LessonCuration.objects.get()
    assert (curation.before["resolution"], curation.after["resolution"]) == ("old", "new")
    with pytest.raises(ValueError):
        lesson_edit(lesson=lesson, user=admin_user, occurrences=99)


def test_accepting_a_proposal_replaces_the_resolution(admin_user):
    LessonFactory(error_pattern="api_429", resolution="old", status="approved")
    record(resolution="better")
    proposal = LessonProposal.objects.get()
    proposal_accept(proposal=proposal, user=admin_user)
    assert Lesson.objects.get().resolution == "better"
    proposal.refresh_from_db()
    assert proposal.status == "accepted"
    assert LessonCuration.objects.get().action == "accept_proposal"


def test_dismissing_a_proposal_leaves_the_lesson(admin_user):
    LessonFactory(error_pattern="api_429", resolution="old", status="approved")
    record(resolution="worse")
    proposal_dismiss(proposal=LessonProposal.objects.get(), user=admin_user)
    assert Lesson.objects.get().resolution == "old"
    assert LessonProposal.objects.get().status == "dismissed"


def test_seed_is_idempotent_and_approved():
    assert lessons_seed() == 5
    assert lessons_seed() == 0
    seeded = Lesson.objects.all()
    assert seeded.count() == 5
    assert {l.status for l in seeded} == {"approved"} and {l.source for l in seeded} == {"seed"}
    assert Lesson.objects.get(error_pattern="api_429_rate_limit").error_type == "rate_limit"
