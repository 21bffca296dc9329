"""Root-cause groups: the pure signals (coincidences, dependencies) and the stored groups."""

import io
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone
from math import exp
from random import Random

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from failures.analysis import rootcauses
from failures.analysis.coincidence import (
    MAX_P_VALUE,
    Burst,
    bursts_of,
    coincidence_links,
    components,
    outage_links,
    poisson_tail,
)
from failures.analysis.dependencies import dependencies_of
from failures.analysis.rootcauses import (
    root_cause_group_confirm,
    root_cause_group_split,
    root_causes_detect,
)
from failures.models import RootCauseGroup, RootCauseSplit
from failures.records.services import failures_record_many
from failures.store.jobstate import SETTLE
from failures.tasks import root_causes_detect_task
from tests.failures.scenario import AGENTS, SPIKE_HOURS_AGO, STEADY, entry, spike_scenario

# --- pure: bursts and coincidences ------------------------------------------------------------

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=dt_timezone.utc)
WEEK_MINUTES = 7 * 24 * 60


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def burst(start: float, end: float, agents="ab", failures: int = 6) -> Burst:
    return Burst(at(start), at(end), failures, frozenset(agents))


def test_failures_closer_than_the_gap_form_one_burst():
    found = bursts_of([(at(0), "a"), (at(2), "b"), (at(6), "a"), (at(11.5), "c"), (at(12), "c")])
    assert found == [
        Burst(at(0), at(6), 3, frozenset("ab")),
        Burst(at(11.5), at(12), 2, frozenset("c")),
    ]
    assert bursts_of([]) == []


@pytest.mark.parametrize(
    "k, mu, expected",
    [
        (0, 2.0, 1.0),
        (1, 0.0, 0.0),
        (1, 0.5, 1 - exp(-0.5)),
        (2, 1.0, 1 - 2 * exp(-1.0)),
        (3, 0.01, 1.6542e-7),
    ],
)
def test_poisson_tail(k, mu, expected):
    assert poisson_tail(k, mu) == pytest.approx(expected, rel=1e-3)


def young_install(symptoms: dict[str, list[Burst]]) -> dict[str, list[Burst]]:
    """Three hours of unrelated bursts among six agents (a to f), then ``symptoms``."""
    rng = Random(3)
    background = {
        f"background-{n}": [
            burst(-rng.uniform(20, 180), 0, rng.sample("abcdef", 2)) for _ in range(4)
        ]
        for n in range(5)
    }
    for bursts in background.values():
        for i, found in enumerate(bursts):
            bursts[i] = Burst(
                found.start,
                found.start + timedelta(minutes=rng.uniform(1, 9)),
                found.failures,
                found.agents,
            )
        bursts.sort(key=lambda found: found.start)
    return {**background, **symptoms}


def outage_groups(bursts) -> set[frozenset]:
    links = outage_links(bursts, since=at(-180), until=at(15))
    return {frozenset(group) for group in components((link.a, link.b) for link in links)}


def test_three_symptoms_of_four_agents_are_grouped_at_their_first_occurrence():
    symptoms = {
        "cache": [burst(0.2, 8, "abcd")],
        "broker": [burst(0.5, 7.6, "abcd")],
        "session": [burst(1.0, 8.3, "abcd")],
    }
    assert outage_groups(young_install(symptoms)) == {frozenset(symptoms)}
    # Each link says how many patterns chance would have put in such a burst: few, not none.
    links = outage_links(young_install(symptoms), since=at(-180), until=at(15))
    assert links and all(0 < link.expected < 0.1 and link.p_value < 0.01 for link in links)
    # Two symptoms alone are the pair test's: one coincidence on a young install is not enough.
    two = {name: found for name, found in symptoms.items() if name != "session"}
    assert outage_groups(young_install(two)) == set()
    assert coincidence_links(young_install(two), since=at(-180), until=at(15)) == []


def test_a_symptom_that_pauses_mid_outage_resumes_its_burst():
    symptoms = {
        "cache": [burst(0.2, 8, "abcd")],
        "broker": [burst(0.5, 2.0, "abcd"), burst(7.5, 7.9, "ab")],  # silent 5.5 min
        "session": [burst(1.0, 8.3, "abcd")],
    }
    assert outage_groups(young_install(symptoms)) == {frozenset(symptoms)}


def test_bursts_of_one_agent_in_the_same_minutes_stay_out_of_the_outage():
    symptoms = {
        "cache": [burst(0.2, 8, "abcd")],
        "broker": [burst(0.5, 7.6, "abcd")],
        "session": [burst(1.0, 8.3, "abcd")],
        # An unrelated fault of agent a, and agent b's model provider down, meanwhile.
        "lint": [burst(0.4, 7.0, "a")],
        "provider": [burst(0.3, 8.1, "b")],
    }
    assert outage_groups(young_install(symptoms)) == {frozenset({"cache", "broker", "session"})}
    # Two unrelated one-agent bursts together are nothing.
    alone = {
        "lint": [burst(0.4, 7.0, "a")],
        "provider": [burst(0.3, 8.1, "b")],
        "fixture": [burst(0.1, 7.5, "c")],
    }
    assert outage_groups(young_install(alone)) == set()


def outage(shift: float = 0.0) -> dict[str, list[Burst]]:
    """Two symptoms of an eight-minute outage for agents a, b, c, after a quiet week in which
    each failed alone now and then."""
    background = [burst(-60 * h, -60 * h, agents="d", failures=1) for h in range(5, 160, 11)]
    return {
        "cache": [*background, burst(shift + 0.5, shift + 8, "abc")],
        "broker": [*[b for b in background[1:]], burst(shift + 1.5, shift + 7.5, "abc")],
    }


def test_symptoms_that_start_and_stop_together_across_agents_are_linked():
    (link,) = coincidence_links(outage(), since=at(-WEEK_MINUTES), until=at(60))
    assert (link.a, link.b, link.agents) == ("broker", "cache", ("a", "b", "c"))
    assert link.p_value < MAX_P_VALUE / 10
    (seen,) = link.coincidences
    assert (seen.start, seen.end) == (at(0.5), at(8))


def test_the_clock_does_not_matter():
    inside = coincidence_links(outage(shift=12), since=at(-WEEK_MINUTES), until=at(120))
    across = coincidence_links(outage(shift=55), since=at(-WEEK_MINUTES), until=at(120))
    assert [link.p_value for link in inside] == pytest.approx([link.p_value for link in across])
    assert len(across) == 1


def trickle(every: float, offset: float = 0.0, hours: float = 168) -> list[Burst]:
    """A failure every ``every`` minutes, met by two agents at once, pairs taking turns."""
    pairs = ("ab", "bc", "ca")
    return [
        burst(offset + m, offset + m + 1, pairs[i % 3], 2)
        for i, m in enumerate(range(0, int(hours * 60), int(every)))
    ]


@pytest.mark.parametrize(
    "name, bursts, since, until, coincide",
    [
        (
            "one agent's own run",
            {"x": [burst(0, 9, "a")], "y": [burst(1, 8, "a")]},
            -WEEK_MINUTES,
            60,
            False,
        ),
        (
            "start together, stop apart",
            {"x": [burst(0, 20)], "y": [burst(1, 8)]},
            -WEEK_MINUTES,
            60,
            False,
        ),
        (
            "steady trickles coincide as often as their rates say",
            {"x": trickle(7), "y": trickle(11, offset=2)},
            -60,
            WEEK_MINUTES,
            True,
        ),
        (
            "a sparse fault inside a three-hour trickle",
            {
                "x": [burst(60 * h, 60 * h + 1, "ab", 2) for h in range(0, 168, 9)],
                "y": trickle(6, offset=60 * 45, hours=3),
            },
            -60,
            WEEK_MINUTES,
            True,
        ),
        (
            "one coincidence on an install three hours old",
            {"x": [burst(100, 108, "abc")], "y": [burst(101, 107, "abc")]},
            0,
            180,
            True,
        ),
        (
            "failing without a pause since the install began a day ago",
            {"x": [burst(0, 1440, "abc")], "y": [burst(1, 1439, "abc")]},
            0,
            1440,
            False,
        ),
    ],
)
def test_what_is_not_linked(name, bursts, since, until, coincide):
    observed = {"since": at(since), "until": at(until)}
    assert coincidence_links(bursts, **observed) == []
    # Not for want of coinciding: by chance is why.
    assert (
        bool(coincidence_links(bursts, **observed, max_p_value=1.0, false_links=1.0)) == coincide
    )


def test_the_more_pairs_coincide_the_stronger_a_link_must_be():
    """120 independent faults, each meeting two of twelve agents about once an hour and a half:
    thousands of pairs coincide now and then, and tested alone at MAX_P_VALUE two would be
    linked; with the threshold shared among all the pairs tested, none is."""
    rng = Random(3)
    agents = [f"agent-{n}" for n in range(12)]
    bursts = {}
    for fault in range(120):
        moment, failures = at(0), []
        while (moment := moment + timedelta(hours=rng.expovariate(1.5))) < at(WEEK_MINUTES):
            failures += [
                (moment, rng.choice(agents)),
                (moment + timedelta(seconds=30), rng.choice(agents)),
            ]
        bursts[fault] = bursts_of(failures)
    observed = {"since": at(0), "until": at(WEEK_MINUTES)}
    assert len(coincidence_links(bursts, **observed, false_links=float("inf"))) == 2
    assert coincidence_links(bursts, **observed) == []


def test_components_join_pairs_but_never_a_forbidden_pair():
    pairs = [("A", "B"), ("B", "C"), ("D", "E")]
    assert sorted(map(sorted, components(pairs))) == [["A", "B", "C"], ["D", "E"]]
    # A and C were split by a human: the weaker link that would rejoin them is skipped.
    assert sorted(map(sorted, components(pairs, forbidden=[("C", "A")]))) == [
        ["A", "B"],
        ["D", "E"],
    ]


# --- pure: dependencies ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, message, expected",
    [
        ("host and port", "Connection refused to db-primary:5432", {"host:db-primary"}),
        ("service by suffix", "Timeout reading from payments-api", {"service:payments-api"}),
        (
            "service with port",
            "upstream payments-api:8443 timed out",
            {"host:payments-api", "service:payments-api"},
        ),
        (
            "url host and endpoint, ids masked",
            "GET https://api.stripe.com/v1/charges/ch_3Nx9 502",
            {"host:api.stripe.com", "endpoint:api.stripe.com/v1/charges/*"},
        ),
        (
            "credentials in a url are not the host",
            "postgres://app:pw@db-primary:5432/app down",
            {"host:db-primary"},
        ),
        (
            "libpq's host and address",
            'could not connect: is the server running on host "db-primary"'
            " (10.0.0.5) and accepting connections",
            {"host:db-primary", "host:10.0.0.5"},
        ),
        ("postgres relation", 'relation "orders" does not exist', {"table:orders"}),
        ("default schema dropped", "deadlock detected on table public.orders", {"table:orders"}),
        ("sql keyword", "syntax error in INSERT INTO order_items VALUES", {"table:order_items"}),
        ("english from is not sql", "failed reading from cache", set()),
        ("prose after table", "the table is locked", set()),
        ("source file in a trace", 'File "main.py:42" raised', set()),
        ("log fields", "status:500 line:1234 retry:3", set()),
        ("loopback tells nothing", "localhost:8080 refused; 127.0.0.1 down", set()),
        ("not an address", "checksum 300.1.1.1 mismatch", set()),
        ("nothing named", "KeyError: 'user_id'", set()),
        # Known wrong: a four-part version number reads as an IPv4 address.
        ("known wrong: version as address", "upgrade to 1.2.3.4 failed", {"host:1.2.3.4"}),
    ],
)
def test_dependencies_of(name, message, expected):
    assert dependencies_of(message) == expected


# --- stored groups --------------------------------------------------------------------------------


def members(group: RootCauseGroup) -> set[int]:
    return set(group.patterns.values_list("pk", flat=True))


@pytest.mark.django_db
def test_scenario_two_faults_spiking_together_form_exactly_one_group():
    now = timezone.now()
    ids = spike_scenario(now)
    result = root_causes_detect(now=now)
    (group,) = RootCauseGroup.objects.all()
    assert members(group) == {ids["refused"], ids["timeout"]}
    assert (group.status, result.groups, result.created) == ("suggested", 1, 1)
    (link,) = group.evidence["links"]
    assert link["signal"] == "coincidence" and link["p_value"] < MAX_P_VALUE / 100
    assert link["agents"] == list(AGENTS) and link["coincidence_count"] == len(SPIKE_HOURS_AGO)
    assert group.evidence["window"]["until"] == now.isoformat()
    assert group.evidence["latest"]["agents"] == list(AGENTS)
    assert group.evidence["latest"]["since"] == link["coincidences"][-1]["start"]


@pytest.mark.django_db
def test_recomputing_keeps_the_group_and_its_id():
    now = timezone.now()
    spike_scenario(now)
    root_causes_detect(now=now)
    first = RootCauseGroup.objects.get()
    again = root_causes_detect(now=now + timedelta(minutes=10))
    assert (again.created, again.removed) == (0, 0)
    assert RootCauseGroup.objects.get().pk == first.pk


@pytest.mark.django_db
def test_suggestions_no_longer_in_the_window_are_dropped():
    now = timezone.now()
    spike_scenario(now)
    root_causes_detect(now=now)
    later = root_causes_detect(now=now + timedelta(days=8))
    assert (later.groups, later.removed) == (0, 1)
    assert not RootCauseGroup.objects.exists()


@pytest.mark.django_db
def test_confirmed_group_is_kept_as_it_is():
    now = timezone.now()
    ids = spike_scenario(now)
    root_causes_detect(now=now)
    group = root_cause_group_confirm(group=RootCauseGroup.objects.get())
    root_causes_detect(now=now + timedelta(days=8))  # the evidence left the window
    root_causes_detect(now=now)
    group.refresh_from_db()
    assert group.status == "confirmed" and members(group) == {ids["refused"], ids["timeout"]}
    assert RootCauseGroup.objects.count() == 1  # its patterns are not suggested again elsewhere


@pytest.mark.django_db
def test_split_group_is_never_suggested_again():
    now = timezone.now()
    ids = spike_scenario(now)
    root_causes_detect(now=now)
    group = root_cause_group_split(group=RootCauseGroup.objects.get())
    assert RootCauseSplit.objects.filter(pattern_low=min(ids["refused"], ids["timeout"])).exists()
    result = root_causes_detect(now=now)
    assert (result.groups, result.created) == (0, 0)
    assert list(RootCauseGroup.objects.values_list("pk", "status")) == [(group.pk, "split")]
    with pytest.raises(ValueError):
        root_cause_group_confirm(group=group)


@pytest.mark.django_db
def test_a_run_reads_the_patterns_written_since_the_last_and_the_groups_members():
    now = timezone.now()
    spike_scenario(now)
    later = now + SETTLE + timedelta(minutes=1)  # every failure settled: the watermark passes
    assert root_causes_detect(now=later).patterns == 3
    quiet = root_causes_detect(now=later + timedelta(minutes=5))
    assert (quiet.patterns, quiet.groups, quiet.created, quiet.removed) == (2, 1, 0, 0)
    failures_record_many(
        entries=[entry("a", "new", STEADY, later + timedelta(minutes=6), "key_error")]
    )
    assert root_causes_detect(now=later + timedelta(minutes=10)).patterns == 3


def record_spread(now, error, hours_ago, agent="a"):
    failures_record_many(
        entries=[
            entry(agent, f"t-{error[:8]}-{h}", error, now - timedelta(hours=h)) for h in hours_ago
        ]
    )


@pytest.mark.django_db
def test_patterns_naming_one_dependency_are_grouped_with_it_as_evidence():
    now = timezone.now()
    record_spread(now, "Connection refused to db-primary:5432", [3, 50, 90])
    record_spread(now, "SSL SYSCALL error talking to db-primary:5432", [10, 70, 120])
    record_spread(now, "Timeout reading from payments-api", [20, 40, 60])
    root_causes_detect(now=now)
    group = RootCauseGroup.objects.get()
    assert sorted(group.patterns.values_list("template", flat=True)) == [
        "Connection refused to db-primary:<*>",
        "SSL SYSCALL error talking to db-primary:<*>",
    ]
    assert group.evidence["dependencies"] == ["host:db-primary"]
    assert group.evidence["signals"] == ["dependency"]


@pytest.mark.django_db
def test_a_dependency_everything_names_groups_nothing(monkeypatch):
    monkeypatch.setattr(rootcauses, "MAX_PATTERNS_PER_DEPENDENCY", 2)
    now = timezone.now()
    for error in [
        "Connection refused to db-primary:5432",
        "SSL SYSCALL error to db-primary:5432",
        "Read timed out from db-primary:5432",
    ]:
        record_spread(now, error, [3, 50, 90])
    assert root_causes_detect(now=now).groups == 0


@pytest.mark.django_db
def test_task_and_command():
    now = timezone.now()
    spike_scenario(now)
    assert root_causes_detect_task() == {"patterns": 3, "groups": 1, "created": 1, "removed": 0}
    # Often enough that an incident is grouped within 15 minutes of its start.
    assert settings.HINDSIGHT_PERIODIC_JOBS["detect-root-causes"] == (
        "failures.tasks.root_causes_detect_task",
        5 * 60,
    )
    out = io.StringIO()
    call_command("detect_root_causes", stdout=out)
    assert "1 suggested group(s), 0 new, 0 dropped" in out.getvalue()
