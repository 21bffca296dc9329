"""The root-cause rule on a generated fleet (tests.failures.rootcause_corpus): every true incident
is grouped, at once and within 15 minutes of its start, and independent faults stay apart, on a
week-old fleet and on an install a few hours old."""

from collections import defaultdict
from datetime import timedelta

import pytest

from failures.analysis.coincidence import burst_links, bursts_of, components
from failures.analysis.rootcauses import root_causes_detect
from failures.models import Failure, FailurePattern, RootCauseGroup
from failures.records.services import failures_record_many
from tests.failures.rootcause_corpus import (
    INCIDENT_MINUTES,
    WEEK,
    fresh_fleet,
    week_fleet,
    young_fleet,
)


def record(fleet, *, until=None) -> dict[str, int]:
    """Record the fleet's failures (up to ``until``); answer each fault's pattern id."""
    failures_record_many(entries=fleet.entries(until=until))
    patterns: dict[str, set] = {}
    for task, pattern in Failure.objects.values_list("task", "pattern_id"):
        patterns.setdefault(task.rsplit("-", 1)[0], set()).add(pattern)
    assert all(len(found) == 1 for found in patterns.values()), "one pattern per fault"
    return {name: found.pop() for name, found in patterns.items()}


def group_of(ids: dict[str, int]) -> dict[str, int | None]:
    groups = dict(FailurePattern.objects.values_list("pk", "root_cause_group_id"))
    return {name: groups[pk] for name, pk in ids.items()}


def together(groups: dict[str, int | None], names) -> bool:
    found = {groups.get(name) for name in names}
    return len(found) == 1 and None not in found


@pytest.mark.django_db
def test_every_incident_is_grouped_and_independent_faults_stay_apart():
    week, fresh = week_fleet(), fresh_fleet()
    assert len(week.incidents) >= 5
    assert len(week.independent_pairs) + len(fresh.independent_pairs) >= 20
    # Inside one clock hour, and across an hour boundary.
    assert {minute < 50 for minute in INCIDENT_MINUTES} == {True, False}

    ids = record(week)
    root_causes_detect(now=week.now)
    groups = group_of(ids)
    incidents = sum(together(groups, symptoms) for symptoms in week.incidents)
    apart = [pair for pair in week.independent_pairs if together(groups, pair)]
    # Nothing else is grouped: each group is one incident's symptoms.
    assert len({g for g in groups.values() if g}) == len(week.incidents)

    Failure.objects.all().delete()
    FailurePattern.objects.all().delete()
    ids = record(fresh)
    root_causes_detect(now=fresh.now)
    fresh_groups = group_of(ids)
    fresh_apart = [pair for pair in fresh.independent_pairs if together(fresh_groups, pair)]

    print(
        f"\ntrue incidents grouped: {incidents} of {len(week.incidents)}; independent pairs "
        f"grouped: {len(apart)} of {len(week.independent_pairs)} on the week-old fleet, "
        f"{len(fresh_apart)} of {len(fresh.independent_pairs)} on the fresh install"
    )
    assert incidents == len(week.incidents)
    assert apart == [] and fresh_apart == []
    assert not any(fresh_groups.values())


@pytest.mark.django_db
@pytest.mark.parametrize("incident", [0, 1], ids=["inside one clock hour", "across an hour"])
def test_an_incident_is_grouped_within_15_minutes_of_its_start(incident):
    week = week_fleet()
    start = week.incident_starts[incident]
    assert (start.minute < 50) == (incident == 0)
    ids = record(week, until=start + timedelta(minutes=15))
    root_causes_detect(now=start - timedelta(minutes=1))
    assert not together(group_of(ids), week.incidents[incident])  # not before it began
    root_causes_detect(now=start + timedelta(minutes=15))  # with the data so far
    assert together(group_of(ids), week.incidents[incident])


@pytest.mark.django_db
def test_a_first_outage_on_a_young_install_is_grouped_by_the_job():
    """Through the job on the database: the outage of a three-hour-old install of six agents,
    with the data written until 15 minutes after its start; the unrelated bursts of one agent
    each in the same minutes stay out."""
    young = young_fleet()
    ids = record(young)
    root_causes_detect(now=young.incident_starts[0] - timedelta(minutes=1))
    assert not any(group_of(ids).values())
    root_causes_detect(now=young.now)
    groups = group_of(ids)
    assert together(groups, young.incidents[0])
    assert [pair for pair in young.independent_pairs if together(groups, pair)] == []
    assert len({group for group in groups.values() if group}) == 1
    # Its evidence, which the admin and the reports show, says what chance expected.
    [group] = RootCauseGroup.objects.all()
    assert group.evidence["links"] and all(
        0 < link["expected"] < 1 and link["p_value"] < 0.01 for link in group.evidence["links"]
    )


DRAWS = 40


def groups_pure(fleet) -> dict[str, int]:
    """The rule without the database: each fault's group number (as the job forms them)."""
    failures = defaultdict(list)
    for name, agent, at in sorted(fleet.failures, key=lambda f: f[2]):
        failures[name].append((at, agent))
    first = min(at for _, _, at in fleet.failures)
    links = burst_links(
        {name: bursts_of(rows) for name, rows in failures.items()},
        since=max(first, fleet.now - WEEK),
        until=fleet.now,
    )
    return {
        name: number
        for number, members in enumerate(components((link.a, link.b) for link in links))
        for name in members
    }


def test_over_many_draws_of_the_fleets():
    """Other seeds of the same generator: a symptom that pauses for the burst gap mid-outage,
    or a stray failure just before it, can hide an incident; independent faults never join."""
    incidents = independent = pairs = total = 0
    for seed in range(DRAWS):
        for fleet in (week_fleet(seed=seed), fresh_fleet(seed=seed)):
            groups = groups_pure(fleet)
            incidents += sum(together(groups, symptoms) for symptoms in fleet.incidents)
            total += len(fleet.incidents)
            independent += sum(together(groups, pair) for pair in fleet.independent_pairs)
            pairs += len(fleet.independent_pairs)
    print(
        f"\n{DRAWS} draws: true incidents grouped {incidents} of {total}, independent pairs "
        f"grouped {independent} of {pairs}"
    )
    assert incidents >= 0.85 * total and independent == 0


def test_a_first_outage_on_a_young_install_over_many_draws():
    """Six agents, three hours of unrelated failures, then a dependency down: its three
    symptoms, seen by four agents, are grouped within 15 minutes of its start, at its first
    occurrence; unrelated bursts of one agent in the same minutes stay apart."""
    grouped = independent = pairs = 0
    for seed in range(DRAWS):
        fleet = young_fleet(seed=seed)
        groups = groups_pure(fleet)
        grouped += together(groups, fleet.incidents[0])
        independent += sum(together(groups, pair) for pair in fleet.independent_pairs)
        pairs += len(fleet.independent_pairs)
    print(
        f"\n{DRAWS} young installs: first outages grouped within 15 minutes {grouped} of "
        f"{DRAWS}, independent pairs grouped {independent} of {pairs}"
    )
    assert grouped >= 0.95 * DRAWS and independent == 0
