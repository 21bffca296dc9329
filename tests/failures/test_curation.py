"""Pattern curation in the admin: merge, unmerge, lesson links, root-cause decisions, and the
read-only failures and outcomes lists that stay fast on large tables."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from failures.analysis.rootcauses import root_causes_detect
from failures.models import Failure, FailurePattern, FailureTemplate, RootCauseGroup
from failures.records.services import failures_record_many
from failures.staff.pattern_page import LATEST
from failures.store.curation import (
    pattern_template_merged,
    pattern_unmerge,
    patterns_merge_selected,
)
from lessons.models import LessonCuration
from outcomes.models import Outcome
from tests.failures.scenario import spike_scenario
from tests.lessons.factories import LessonFactory

PATTERNS = "/admin/failures/failurepattern/"
REFUSED = "connection refused to db-primary:5432"
RESET = "connection reset by db-primary:5432"


def record(error: str, n: int = 1, agent: str = "a", hours_ago: float = 1) -> FailurePattern:
    at = timezone.now() - timedelta(hours=hours_ago)
    failures_record_many(
        entries=[
            {
                "agent": agent,
                "task": f"t{i}",
                "error": error,
                "occurred_at": at,
                "error_type": "connection",
            }
            for i in range(n)
        ]
    )
    return Failure.objects.filter(error=error).first().pattern


@pytest.mark.django_db
def test_merge_folds_failures_templates_and_lessons_into_the_most_frequent():
    refused, reset = record(REFUSED, n=3), record(RESET, n=2)
    lesson = LessonFactory()
    lesson.patterns.add(reset)
    result = patterns_merge_selected(patterns=[reset, refused])
    assert result.survivor.pk == refused.pk and result.merged == 1
    reset.refresh_from_db()
    assert reset.merged_into_id == refused.pk
    assert Failure.objects.filter(pattern=refused).count() == 5
    assert FailureTemplate.objects.filter(pattern=refused).count() == 2
    assert refused in lesson.patterns.all()
    # "refused" and "reset" are outcome words the engine keeps apart, so the human merge keeps
    # the survivor's template rather than widening it over them.
    assert result.template == "connection refused to db-primary:<*>"
    assert result.survivor.event_count == 5


@pytest.mark.django_db
def test_a_merge_locks_its_patterns_in_id_order_as_writers_do_and_keeps_the_most_frequent():
    reset, refused = record(RESET, n=2), record(REFUSED, n=3)  # the most frequent, newer id
    with CaptureQueriesContext(connection) as run:
        result = patterns_merge_selected(patterns=[reset, refused])
    [lock] = [
        q["sql"]
        for q in run.captured_queries
        if q["sql"].endswith("FOR UPDATE")
        and "failures_failurepattern" in q["sql"]
        and "IN (" in q["sql"]
    ]
    assert lock.split("ORDER BY")[1].strip() == '"failures_failurepattern"."id" ASC FOR UPDATE'
    assert result.survivor.pk == refused.pk and result.merged == 1


@pytest.mark.django_db
def test_merged_template_widens_where_the_templates_line_up():
    a = record("HTTP 502 from billing while syncing invoices", n=2)
    b = record("HTTP 503 from billing while syncing invoices")
    assert pattern_template_merged(pattern_ids=[a.pk, b.pk]) == (
        "HTTP <*> from billing while syncing invoices"
    )


@pytest.mark.django_db
def test_merge_needs_two_different_patterns():
    refused = record(REFUSED)
    with pytest.raises(ValueError):
        patterns_merge_selected(patterns=[refused])


@pytest.mark.django_db
def test_unmerge_restores_the_alias_with_its_shapes_and_failures():
    refused, reset = record(REFUSED, n=3), record(RESET, n=2, agent="b")
    patterns_merge_selected(patterns=[refused, reset])
    record(RESET, agent="c")  # a failure of the merged-away shape, after the merge
    assert Failure.objects.filter(pattern=refused).count() == 6
    result = pattern_unmerge(pattern=reset)
    reset.refresh_from_db()
    refused.refresh_from_db()
    assert reset.merged_into_id is None and (result.templates, result.failures) == (1, 3)
    assert set(Failure.objects.filter(pattern=reset).values_list("error", flat=True)) == {RESET}
    assert (reset.event_count, reset.agent_count, refused.event_count) == (3, 2, 3)
    with pytest.raises(ValueError):
        pattern_unmerge(pattern=reset)  # live again: nothing to undo


@pytest.mark.django_db
def test_admin_merge_and_unmerge_actions(admin_client):
    refused, reset = record(REFUSED, n=2), record(RESET)
    response = admin_client.post(
        PATTERNS, {"action": "merge", "_selected_action": [refused.pk, reset.pk]}, follow=True
    )
    assert f"into #{refused.pk}" in response.content.decode()
    assert FailurePattern.objects.get(pk=reset.pk).merged_into_id == refused.pk
    admin_client.post(PATTERNS, {"action": "unmerge", "_selected_action": [reset.pk]})
    assert FailurePattern.objects.get(pk=reset.pk).merged_into_id is None
    assert Failure.objects.filter(pattern=reset).count() == 1


@pytest.mark.django_db
def test_pattern_page_shows_the_latest_failures_and_links_a_lesson(admin_client, admin_user):
    pattern = record(REFUSED, n=25)
    lesson = LessonFactory(error_pattern="db_down")
    page = admin_client.get(f"{PATTERNS}{pattern.pk}/change/").content.decode()
    assert page.count("connection refused to db-primary:5432</td>") == LATEST
    prefix = "Lesson_patterns-"  # the inline formset prefix of the auto-created through model
    response = admin_client.post(
        f"{PATTERNS}{pattern.pk}/change/",
        {
            f"{prefix}TOTAL_FORMS": 1,
            f"{prefix}INITIAL_FORMS": 0,
            f"{prefix}0-lesson": str(lesson.pk),
            f"{prefix}0-failurepattern": pattern.pk,
        },
    )
    assert response.status_code == 302
    assert list(lesson.patterns.all()) == [pattern]
    assert LessonCuration.objects.get(lesson=lesson).user == admin_user


@pytest.mark.django_db
def test_pattern_list_filters_by_approved_lesson(admin_client):
    covered, bare = record(REFUSED), record(RESET)
    LessonFactory(status="approved").patterns.add(covered)
    response = admin_client.get(PATTERNS, {"approved_lesson": "no"})
    assert [p.pk for p in response.context["cl"].result_list] == [bare.pk]


@pytest.mark.django_db
@pytest.mark.parametrize("action, status", [("confirm", "confirmed"), ("split", "split")])
def test_root_cause_decisions_through_the_admin(admin_client, admin_user, action, status):
    now = timezone.now()
    spike_scenario(now)
    root_causes_detect(now=now)
    group = RootCauseGroup.objects.get()
    page = admin_client.get("/admin/failures/rootcausegroup/").content.decode()
    assert "coincidence" in page and "3 agents hit together" in page
    assert "latest since " in page
    admin_client.post(
        "/admin/failures/rootcausegroup/", {"action": action, "_selected_action": [group.pk]}
    )
    group.refresh_from_db()
    assert (group.status, group.decided_by) == (status, admin_user)


# --- large tables: no full count ------------------------------------------------------------------

FULL_COUNT = re.compile(
    r'SELECT COUNT\(\*\) AS "__count" FROM "(failures_failure|outcomes_outcome)"'
)


def changelist_sql(client, url, params=None) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params or {})
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries]


FAILURES, OUTCOMES = "/admin/failures/failure/", "/admin/outcomes/outcome/"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, params",
    [
        (FAILURES, {}),
        (FAILURES, {"status__exact": "open"}),
        (FAILURES, {"q": "a"}),
        (FAILURES, {"within": "24h"}),
        (FAILURES, {"error_type": "connection"}),
        (OUTCOMES, {}),
        (OUTCOMES, {"outcome__exact": "failure"}),
        (OUTCOMES, {"q": "a"}),
        (OUTCOMES, {"within": "7d"}),
    ],
)
def test_large_changelists_never_count_the_whole_table(admin_client, url, params, monkeypatch):
    from config import admin_tools

    # As for a table never analysed: the estimate of a test database depends on earlier tests'
    # committed rows (the estimate path has its own test below).
    monkeypatch.setattr(admin_tools, "_table_estimate", lambda queryset: None)
    record(REFUSED, n=3)
    Outcome.objects.create(
        task_id="t", agent="a", task_type="x", outcome="failure", occurred_at=timezone.now()
    )
    sql = changelist_sql(admin_client, url, params)
    assert not [q for q in sql if FULL_COUNT.search(q)], "a full COUNT(*) ran"
    counted = [
        q for q in sql if "COUNT(*)" in q and ("failures_failure" in q or "outcomes_outcome" in q)
    ]
    assert counted and all("LIMIT 10000" in q for q in counted)


@pytest.mark.django_db
def test_an_unfiltered_big_table_is_sized_by_the_planner_estimate(admin_client, monkeypatch):
    from config import admin_tools

    record(REFUSED, n=2)
    monkeypatch.setattr(admin_tools, "_table_estimate", lambda queryset: 1_234_567)
    response = admin_client.get("/admin/failures/failure/")
    assert response.context["cl"].result_count == 1_234_567
    assert len(response.context["cl"].result_list) == 2
    sql = changelist_sql(admin_client, "/admin/failures/failure/")
    assert not [q for q in sql if "COUNT(" in q and "failures_failure" in q]


@pytest.mark.django_db
def test_failures_and_outcomes_are_read_only(admin_client):
    record(REFUSED)
    failure = Failure.objects.get()
    page = admin_client.get(f"/admin/failures/failure/{failure.pk}/change/").content.decode()
    assert REFUSED in page and 'name="_save"' not in page
    assert admin_client.get("/admin/failures/failure/add/").status_code == 403


@pytest.mark.django_db
def test_reports_and_regressions_are_reachable_from_the_admin(admin_client):
    from failures.staff.reports import pattern_report_build

    report = pattern_report_build()
    page = admin_client.get("/admin/failures/patternreport/").content.decode()
    assert f'href="/reports/{report.pk}/"' in page and f'href="/reports/{report.pk}.md"' in page
    assert admin_client.get("/admin/failures/regression/").status_code == 200
    index = admin_client.get("/admin/").content.decode()
    assert 'href="/dashboard/"' in index and 'href="/reports/"' in index
