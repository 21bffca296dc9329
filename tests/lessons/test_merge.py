"""Merging duplicate lessons (service and admin), accepting proposals, band filter, prefill."""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.store.patterns import pattern_for_message
from lessons.curation import lessons_merge
from lessons.models import Application, Lesson, LessonCuration, LessonProposal
from lessons.selectors import lesson_check
from lessons.services import applications_record, lesson_record
from tests.lessons.factories import LessonFactory

CHANGELIST = "/admin/lessons/lesson/"


def applied(lesson, worked: int, failed: int = 0) -> None:
    now = timezone.now()
    applications_record(
        entries=[dict(lesson_id=lesson.pk, worked=True, applied_at=now) for _ in range(worked)]
        + [dict(lesson_id=lesson.pk, worked=False, applied_at=now) for _ in range(failed)]
    )


@pytest.mark.django_db
def test_merge_carries_occurrences_applications_links_and_proposals(admin_user):
    refused = pattern_for_message(message="connection refused to 10.0.0.1:5432")
    timeout = pattern_for_message(message="read timed out after 30 s")
    survivor = LessonFactory(error_pattern="db_refused", occurrences=4, resolution="restart db")
    survivor.patterns.add(refused)
    dup = LessonFactory(
        error_pattern="db_refused_again",
        occurrences=6,
        resolution="wait",
        status="approved",
        last_occurred=timezone.now() + timedelta(hours=1),
    )
    dup.patterns.add(refused, timeout)
    LessonProposal.objects.create(
        lesson=dup, resolution="page oncall", digest="d1", times_proposed=3
    )
    applied(dup, worked=5)
    assert Lesson.objects.get(pk=survivor.pk).applications_count == 0

    merged = lessons_merge(survivor=survivor, duplicates=[dup], user=admin_user)

    assert not Lesson.objects.filter(pk=dup.pk).exists()
    assert merged.occurrences == 10 and merged.last_occurred == dup.last_occurred
    assert Application.objects.filter(lesson=merged).count() == 5
    assert set(merged.patterns.all()) == {refused, timeout}
    # Rescored from the moved applications: 5 of 5 worked.
    assert merged.applications_count == 5 and merged.effectiveness == pytest.approx(6 / 7)
    proposals = {p.resolution: p.times_proposed for p in merged.proposals.all()}
    assert proposals == {"page oncall": 3, "wait": 1}  # the duplicate's own text is kept too
    curation = LessonCuration.objects.get(lesson=merged, action="merge")
    assert curation.user == admin_user
    assert (curation.before["occurrences"], curation.after["occurrences"]) == (4, 10)
    assert curation.before["duplicates"][0]["error_pattern"] == "db_refused_again"


@pytest.mark.django_db
def test_a_duplicates_link_on_its_writers_wording_stays_so_on_the_survivor(admin_user):
    """A merge vouches for no link: the survivor, unverified, matches that wording after an
    approved lesson that fits it, as the duplicate did."""
    message = "quota of workspace 7 exhausted for the nightly export"
    recorded = lesson_record(
        error_pattern="export_budget_cap",
        error_type="quota",
        resolution="Split the export.",
        error_message=message,
    )
    survivor = LessonFactory(error_pattern="export_budget", error_type="quota")
    approved = LessonFactory(
        error_pattern="workspace quota exhausted", error_type="quota", status="approved"
    )
    lessons_merge(survivor=survivor, duplicates=[recorded.lesson], user=admin_user)
    found = lesson_check(error_message=message.replace("7", "9"))
    assert [entry.lesson.pk for entry in found.lessons] == [approved.pk, survivor.pk]
    assert [entry.match for entry in found.lessons] == ["words", "pattern"]


@pytest.mark.django_db
def test_merge_counts_a_text_both_have_pending_once(admin_user):
    survivor = LessonFactory(error_pattern="a", resolution="x", status="approved")
    dup = LessonFactory(error_pattern="b", resolution="x", status="approved")
    lesson_record(error_pattern="a", error_type="timeout", resolution="same idea")
    lesson_record(error_pattern="b", error_type="timeout", resolution="same idea")
    lessons_merge(survivor=survivor, duplicates=[dup], user=admin_user)
    (proposal,) = LessonProposal.objects.filter(status="pending")
    assert (proposal.lesson_id, proposal.times_proposed) == (survivor.pk, 2)


@pytest.mark.django_db
def test_merge_needs_another_lesson(admin_user):
    lesson = LessonFactory()
    with pytest.raises(ValueError):
        lessons_merge(survivor=lesson, duplicates=[lesson], user=admin_user)


@pytest.mark.django_db
def test_admin_merge_offers_the_most_used_then_merges_into_the_chosen_one(admin_client):
    small = LessonFactory(error_pattern="small", occurrences=1)
    used = LessonFactory(error_pattern="used", occurrences=2)
    applied(used, worked=2)
    ids = [str(small.pk), str(used.pk)]
    page = admin_client.post(CHANGELIST, {"action": "merge", "_selected_action": ids})
    assert page.status_code == 200
    assert page.context["survivor"].pk == used.pk  # most applications first
    response = admin_client.post(
        CHANGELIST,
        {"action": "merge", "_selected_action": ids, "post": "yes", "survivor": str(small.pk)},
    )
    assert response.status_code == 302
    (left,) = Lesson.objects.all()
    assert (left.pk, left.occurrences, left.applications_count) == (small.pk, 3, 2)


@pytest.mark.django_db
def test_admin_accepts_the_most_proposed_resolution(admin_client, admin_user):
    lesson = LessonFactory(error_pattern="p", resolution="human", status="approved")
    lesson_record(error_pattern="p", error_type="timeout", resolution="once")
    for _ in range(2):
        lesson_record(error_pattern="p", error_type="timeout", resolution="twice")
    admin_client.post(CHANGELIST, {"action": "accept_proposal", "_selected_action": [lesson.pk]})
    lesson.refresh_from_db()
    assert lesson.resolution == "twice" and lesson.reviewed_by == admin_user
    assert LessonCuration.objects.filter(lesson=lesson, action="accept_proposal").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "band, expected", [("low", {"bad"}), ("mid", {"new"}), ("high", {"good"})]
)
def test_effectiveness_band_filter(admin_client, band, expected):
    for name, value in (("bad", 0.2), ("new", 0.5), ("good", 0.9)):
        LessonFactory(error_pattern=name, effectiveness=value)
    response = admin_client.get(CHANGELIST, {"effectiveness": band})
    shown = {lesson.error_pattern for lesson in response.context["cl"].result_list}
    assert shown == expected


@pytest.mark.django_db
def test_flagged_filter(admin_client):
    LessonFactory(error_pattern="flagged_one", flagged=True)
    LessonFactory(error_pattern="fine_one")
    response = admin_client.get(CHANGELIST, {"flagged__exact": "1"})
    assert [l.error_pattern for l in response.context["cl"].result_list] == ["flagged_one"]


@pytest.mark.django_db
def test_add_form_is_prefilled_and_links_the_pattern_through_the_service(admin_client):
    pattern = pattern_for_message(
        message="connection refused to 10.0.0.1:5432", error_type="connection"
    )
    query = {"error_pattern": pattern.template, "error_type": "connection", "patterns": pattern.pk}
    form = admin_client.get(f"{CHANGELIST}add/", query).context["adminform"].form
    assert form.initial["error_pattern"] == pattern.template
    assert [str(v) for v in form.initial["patterns"]] == [str(pattern.pk)]
    response = admin_client.post(
        f"{CHANGELIST}add/",
        {
            "error_pattern": pattern.template,
            "error_type": "connection",
            "skill_name": "",
            "resolution": "Check the database is up",
            "resolution_code": "",
            "context": "{}",
            "patterns": [pattern.pk],
            "status": "unverified",
            "pattern_links-TOTAL_FORMS": 0,
            "pattern_links-INITIAL_FORMS": 0,
            "proposals-TOTAL_FORMS": 0,
            "proposals-INITIAL_FORMS": 0,
            "curations-TOTAL_FORMS": 0,
            "curations-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    lesson = Lesson.objects.get(error_pattern=pattern.template)
    assert lesson.source == "human" and list(lesson.patterns.all()) == [pattern]
    # Written by someone who may review lessons: approved, with the writer as its reviewer
    # (a posted status is not the writer's to pick).
    assert (lesson.status, lesson.reviewed_by.username) == ("approved", "admin")
    written = LessonCuration.objects.get(lesson=lesson, action="write")
    assert (written.before, written.after["status"]) == ({}, "approved")
    curation = LessonCuration.objects.get(lesson=lesson, action="edit")
    assert curation.after == {"patterns": [pattern.pk]}
