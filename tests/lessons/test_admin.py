"""Curating lessons in the admin writes through the services and keeps who and when."""

import pytest

from lessons.models import Lesson, LessonCuration, LessonProposal
from lessons.services import lesson_record
from tests.lessons.factories import LessonFactory

CHANGELIST = "/admin/lessons/lesson/"


def test_list_filters_and_search(admin_client):
    LessonFactory(error_pattern="stale_token", error_type="auth", status="approved")
    LessonFactory(error_pattern="flaky_page", error_type="timeout")
    page = admin_client.get(CHANGELIST, {"status__exact": "approved"}).content.decode()
    assert "stale_token" in page and "flaky_page" not in page
    page = admin_client.get(CHANGELIST, {"q": "flaky"}).content.decode()
    assert "flaky_page" in page and "stale_token" not in page


@pytest.mark.parametrize("action, status", [("approve", "approved"), ("reject", "rejected")])
def test_actions_change_status_and_record_the_curator(admin_client, admin_user, action, status):
    lessons = LessonFactory.create_batch(2)
    admin_client.post(
        CHANGELIST, {"action": action, "_selected_action": [str(l.pk) for l in lessons]}
    )
    for lesson in lessons:
        lesson.refresh_from_db()
        assert lesson.status == status and lesson.reviewed_by == admin_user
    assert LessonCuration.objects.filter(action=action, user=admin_user).count() == 2


def test_editing_the_resolution_keeps_history(admin_client, admin_user):
    lesson = LessonFactory(resolution="old text", error_type="auth")
    response = admin_client.post(
        f"{CHANGELIST}{lesson.pk}/change/",
        {
            "error_type": "auth",
            "skill_name": "",
            "resolution": "new text",
            "resolution_code": "",
            "status": "approved",
            "pattern_links-TOTAL_FORMS": 0,
            "pattern_links-INITIAL_FORMS": 0,
            "proposals-TOTAL_FORMS": 0,
            "proposals-INITIAL_FORMS": 0,
            "curations-TOTAL_FORMS": 0,
            "curations-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    lesson.refresh_from_db()
    assert (lesson.resolution, lesson.status) == ("new text", "approved")
    curation = LessonCuration.objects.get()
    assert curation.user == admin_user and curation.action == "edit"
    assert curation.before["resolution"] == "old text"


def test_accepting_a_proposal_in_the_admin(admin_client):
    LessonFactory(error_pattern="p", resolution="human", status="approved")
    lesson_record(error_pattern="p", error_type="timeout", resolution="agent idea")
    proposal = LessonProposal.objects.get()
    admin_client.post(
        "/admin/lessons/lessonproposal/", {"action": "accept", "_selected_action": [proposal.pk]}
    )
    assert Lesson.objects.get().resolution == "agent idea"


@pytest.mark.django_db
@pytest.mark.parametrize("reviews, status", [(True, "approved"), (False, "unverified")])
def test_a_written_lesson_is_approved_when_its_writer_may_review(
    client, django_user_model, reviews, status
):
    from django.contrib.auth.models import Permission

    writer = django_user_model.objects.create_user("writer", is_staff=True)
    writer.user_permissions.set(
        Permission.objects.filter(
            codename__in=["add_lesson", "view_lesson", *(["review_lesson"] if reviews else [])]
        )
    )
    client.force_login(writer)
    form = client.get(f"{CHANGELIST}add/").content.decode()
    assert "object at 0x" not in form and "Agent" not in form
    assert ("saved approved, with you as its reviewer" in form) == reviews
    response = client.post(
        f"{CHANGELIST}add/",
        {
            "error_pattern": "written",
            "error_type": "disk",
            "resolution": "Free some space",
            "status": "approved",
        },
    )  # not a field of the form: it cannot pick its own review
    assert response.status_code == 302
    lesson = Lesson.objects.get(error_pattern="written")
    assert (lesson.status, lesson.source) == (status, "human")
    assert lesson.reviewed_by == (writer if reviews else None)
    written = lesson.curations.get()
    assert (written.action, written.user, written.after["status"]) == ("write", writer, status)
