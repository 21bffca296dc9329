"""Confirming a link the fleet suggested, from a pattern's page: only for those who may change
lessons, only by POST, only a link of that pattern."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from failures.records.services import failure_record
from lessons.models import PatternLink
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def candidate():
    pattern = failure_record(agent="a", task="t", error="disk quota exceeded on builder").pattern
    lesson = LessonFactory(error_pattern="disk_full", error_type="OSError")
    return PatternLink.objects.create(
        lesson=lesson, pattern=pattern, successes=1, agents=1, keys=1
    )


def staff(client, *permissions):
    user = get_user_model().objects.create_user("sam", password="pw-9f8e7d6c", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=permissions))
    client.force_login(user)


def confirm_url(link):
    return f"/admin/failures/failurepattern/{link.pattern_id}/links/{link.pk}/confirm/"


def test_a_reader_sees_the_suggestion_without_a_button_and_may_not_confirm(client, candidate):
    staff(client, "view_failurepattern", "view_lesson")
    page = client.get(f"/admin/failures/failurepattern/{candidate.pattern_id}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Suggested by the fleet, not linked yet" in text and "Confirm link" not in text
    assert client.post(confirm_url(candidate)).status_code == 403
    candidate.refresh_from_db()
    assert candidate.state == "candidate"


def test_an_editor_confirms_by_post_only_a_link_of_that_pattern(client, candidate):
    staff(client, "view_failurepattern", "view_lesson", "change_lesson")
    assert client.get(confirm_url(candidate)).status_code == 405
    other = failure_record(agent="a", task="t2", error="segmentation fault in resizer").pattern
    wrong = f"/admin/failures/failurepattern/{other.pk}/links/{candidate.pk}/confirm/"
    assert client.post(wrong).status_code == 404
    answer = client.post(confirm_url(candidate))
    assert answer.status_code == 302
    candidate.refresh_from_db()
    assert candidate.state == "confirmed"
    assert candidate.lesson.patterns.filter(pk=candidate.pattern_id).exists()
