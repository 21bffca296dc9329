"""What each rule alerts on, from the state the other jobs keep: a regression, a root-cause group
opening, a lesson flagged by the effectiveness job, a release the release job finds worse; and
what it stays quiet about (events of another kind, a curator's ignored or snoozed pattern, an
event older than the window, a disabled rule)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from alerts.models import Alert, Rule
from alerts.services import alerts_raise
from failures.models import FailurePattern, Regression, RootCauseGroup, Version
from failures.records.services import failure_record
from lessons.effectiveness import effectiveness_recompute
from lessons.models import Application, Lesson
from outcomes.releases.services import versions_judge
from tests.alerts.conftest import rule_to
from tests.alerts.test_delivery import OUTAGE, spread
from tests.lessons.factories import LessonFactory
from tests.outcomes.test_releases import A_TASKS, BROUGHT, COMMON, Fleet

pytestmark = pytest.mark.django_db


def pattern_of(error: str) -> FailurePattern:
    return failure_record(
        agent="a", task="t", error=error, error_type="requests.exceptions.HTTPError"
    ).pattern


def regression(pattern, *, verdict, regressed_at) -> Regression:
    return Regression.objects.create(
        pattern=pattern,
        kind=Regression.Kind.LESSON_APPROVED,
        fixed_at=regressed_at - timedelta(days=3),
        since=regressed_at - timedelta(hours=1),
        detected_at=regressed_at - timedelta(hours=1),
        verdict=verdict,
        regressed_at=regressed_at,
    )


def test_a_regression_alerts_once_and_links_its_page(webhook, admin_client):
    now = timezone.now()
    rule = rule_to(webhook, Rule.Event.REGRESSION)
    pattern = pattern_of("401 Client Error: Unauthorized for url: https://api.github.com/user")
    row = regression(pattern, verdict=Regression.Verdict.FAILING, regressed_at=now)
    regression(
        pattern_of("Stripe webhook signature mismatch"),
        verdict=Regression.Verdict.RECURRING,  # came back, not (yet) a regression
        regressed_at=now,
    )
    assert alerts_raise(now=now + timedelta(minutes=1)) == 1
    alert = Alert.objects.get()
    assert (alert.rule, alert.subject) == (rule, f"regression:{row.pk}")
    assert alert.title.startswith("Regression: 401 Client Error: Unauthorized")
    assert "applications of its lesson fail" in alert.text
    assert admin_client.get(alert.link).status_code == 200
    # Sent once: not again within the window, and not once the event is older than it.
    assert alerts_raise(now=now + timedelta(minutes=30)) == 0
    assert alerts_raise(now=now + timedelta(minutes=61)) == 0


def test_a_root_cause_group_opening_alerts_with_its_symptoms(webhook, admin_client):
    now = timezone.now()
    rule_to(webhook, Rule.Event.ROOT_CAUSE)
    symptoms = [
        pattern_of("Connection refused to payments-db:5432"),
        pattern_of("Timed out waiting for a connection from pool payments"),
        pattern_of("502 Bad Gateway from checkout-api"),
    ]
    group = RootCauseGroup.objects.create(
        members_key="k", detected_at=now, evidence={"agents": ["a", "b", "c", "d"]}
    )
    group.patterns.set(symptoms)
    decided = RootCauseGroup.objects.create(
        members_key="k2", detected_at=now, status=RootCauseGroup.Status.CONFIRMED
    )
    decided.patterns.set(symptoms[:2])
    assert alerts_raise(now=timezone.now()) == 1
    alert = Alert.objects.get()
    assert alert.subject == f"root_cause:{group.pk}"
    assert alert.title == "Possible shared root cause: 3 patterns"
    assert "(4 agents met them together)" in alert.text
    assert "payments-db" in alert.text and "checkout-api" in alert.text
    assert admin_client.get(alert.link).status_code == 200


def test_a_lesson_the_job_flags_alerts_once(webhook, admin_client):
    rule_to(webhook, Rule.Event.LESSON_FLAGGED)
    lesson = LessonFactory(error_pattern="github_unauthorized")
    kept = LessonFactory(error_pattern="stripe_signature")
    now = timezone.now()
    for n in range(6):
        Application.objects.create(lesson=lesson, worked=False, applied_at=now)
        Application.objects.create(lesson=kept, worked=True, applied_at=now)
    effectiveness_recompute(now=now)
    lesson.refresh_from_db()
    assert lesson.flagged and lesson.flagged_at == now
    assert alerts_raise(now=now + timedelta(minutes=1)) == 1
    alert = Alert.objects.get()
    assert alert.subject == f"lesson:{lesson.pk}"
    assert "keeps failing: worked in 0.0 of 6.0" in alert.text
    assert admin_client.get(alert.link).status_code == 200
    # Recomputed while it stays flagged: flagged_at holds, nothing new is raised.
    effectiveness_recompute(now=now + timedelta(minutes=15))
    lesson.refresh_from_db()
    assert lesson.flagged_at == now
    assert alerts_raise(now=now + timedelta(minutes=75)) == 0
    # Unflagged, then flagged again: a new alert.
    for _ in range(30):
        Application.objects.create(lesson=lesson, worked=True, applied_at=now)
    effectiveness_recompute(now=now + timedelta(minutes=80))
    lesson.refresh_from_db()
    assert not lesson.flagged and lesson.flagged_at is None
    for _ in range(120):
        Application.objects.create(lesson=lesson, worked=False, applied_at=now)
    again = now + timedelta(minutes=95)
    effectiveness_recompute(now=again)
    lesson.refresh_from_db()
    assert lesson.flagged and lesson.flagged_at == again
    assert alerts_raise(now=again + timedelta(minutes=1)) == 1


def test_a_release_found_worse_alerts_once(webhook):
    rule_to(webhook, Rule.Event.RELEASE_WORSE)
    fleet = Fleet(7, "release")
    fleet.run("coder@1.4.1", A_TASKS, [COMMON])
    fleet.run("coder@1.4.2", A_TASKS, [COMMON, BROUGHT])
    versions_judge()
    worse = Version.objects.get(kind="release", name="coder@1.4.2")
    assert worse.worse and worse.worse_since is not None
    assert not Version.objects.get(name="coder@1.4.1").worse_since
    assert alerts_raise(now=timezone.now()) == 1
    alert = Alert.objects.get()
    assert alert.subject == f"release:{worse.pk}"
    assert alert.title == "Release coder@1.4.2 does worse"
    assert "than coder@1.4.1 predicts" in alert.text and "1 pattern new in it" in alert.text
    assert alert.link == "/dashboard/#releases"
    since = worse.worse_since
    versions_judge()  # judged again, still worse: the same moment, no second alert
    worse.refresh_from_db()
    assert worse.worse_since == since
    assert alerts_raise(now=timezone.now()) == 0


def test_a_rule_alerts_on_its_own_event_only(webhook):
    now = timezone.now()
    rule_to(webhook, Rule.Event.REGRESSION)
    spread(now, agents=5)  # a new pattern spreading: no rule asks for it
    assert alerts_raise(now=now) == 0


def test_an_ignored_or_snoozed_pattern_stays_quiet(webhook):
    now = timezone.now()
    rule_to(webhook)
    spread(now)
    pattern = FailurePattern.objects.get(merged_into__isnull=True)
    pattern.status = FailurePattern.Status.IGNORED
    pattern.save()
    assert alerts_raise(now=now) == 0
    FailurePattern.objects.filter(pk=pattern.pk).update(
        status=FailurePattern.Status.SNOOZED, snoozed_until=now + timedelta(hours=1)
    )
    assert alerts_raise(now=now) == 0
    FailurePattern.objects.filter(pk=pattern.pk).update(snoozed_until=now - timedelta(minutes=1))
    assert alerts_raise(now=now) == 1  # the snooze is over


def test_a_disabled_rule_raises_nothing(webhook):
    now = timezone.now()
    rule = rule_to(webhook)
    Rule.objects.filter(pk=rule.pk).update(enabled=False)
    spread(now)
    assert alerts_raise(now=now) == 0


def test_a_merged_pattern_counts_for_its_survivor(webhook):
    now = timezone.now()
    rule_to(webhook, min_agents=4)
    spread(now, agents=2)  # agent-0 and agent-1
    for agent in ("agent-2", "agent-3"):
        failure_record(
            agent=agent,
            task="t",
            error="Connection to billing-db refused: is the server running on that host?",
            occurred_at=now - timedelta(minutes=1),
        )
    first, second = FailurePattern.objects.order_by("pk")
    assert alerts_raise(now=now) == 0  # two agents each
    FailurePattern.objects.filter(pk=second.pk).update(merged_into=first)
    assert alerts_raise(now=now) == 1  # four agents met the survivor
    assert Alert.objects.get().subject == f"pattern:{first.pk}"
