"""Root-cause groups: the pure signals (correlation, dependencies) and the stored groups."""
import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from failures import rootcauses
from failures.correlation import co_movements, components, pearson
from failures.dependencies import dependencies_of
from failures.models import RootCauseGroup, RootCauseSplit
from failures.rootcauses import (root_cause_group_confirm, root_cause_group_split,
                                 root_causes_detect)
from failures.services import failures_record_many
from failures.tasks import root_causes_detect_task
from tests.failures.scenario import AGENTS, SPIKE_HOURS_AGO, entry, spike_scenario


# --- pure: correlation ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, xs, ys, expected", [
    ("same shape", [0, 5, 0, 5], [0, 10, 0, 10], 1.0),
    ("mirror", [0, 5, 0, 5], [5, 0, 5, 0], -1.0),
    ("flat series correlates with nothing", [3, 3, 3, 3], [0, 9, 0, 1], 0.0),
    ("too short to say", [1], [1], 0.0),
])
def test_pearson(name, xs, ys, expected):
    assert pearson(xs, ys) == pytest.approx(expected)


def spikes(pattern, agents, buckets=(2, 7), n=5):
    return {(pattern, b, a): n for b in buckets for a in agents}


def test_patterns_that_spike_together_across_agents_move_together():
    counts = {**spikes("A", "abc"), **spikes("B", "abc"),
              **{("C", b, a): 1 + b % 2 for b in range(10) for a in "abc"}}
    (found,) = co_movements(counts, buckets=10)
    assert (found.a, found.b, found.windows, found.agents) == ("A", "B", (2, 7), ("a", "b", "c"))
    assert found.correlation == pytest.approx(1.0)


@pytest.mark.parametrize("name, counts", [
    ("one agent is one incident", {**spikes("A", "a"), **spikes("B", "a")}),
    ("one shared hour is one coincidence", {**spikes("A", "ab", (2,)), **spikes("B", "ab", (2,))}),
    ("different agents in each hour", {**spikes("A", "a"), **spikes("B", "b")}),
    ("together once, apart otherwise", {**spikes("A", "ab", (2, 7)), **spikes("B", "ab", (2, 5)),
                                        **spikes("B", "ab", (8, 9), n=9)}),
])
def test_what_does_not_move_together(name, counts):
    assert co_movements(counts, buckets=10) == []


def test_components_join_pairs_but_never_a_forbidden_pair():
    pairs = [("A", "B"), ("B", "C"), ("D", "E")]
    assert sorted(map(sorted, components(pairs))) == [["A", "B", "C"], ["D", "E"]]
    # A and C were split by a human: the weaker link that would rejoin them is skipped.
    assert sorted(map(sorted, components(pairs, forbidden=[("C", "A")]))) == [
        ["A", "B"], ["D", "E"]]


# --- pure: dependencies ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, message, expected", [
    ("host and port", "Connection refused to db-primary:5432", {"host:db-primary"}),
    ("service by suffix", "Timeout reading from payments-api", {"service:payments-api"}),
    ("service with port", "upstream payments-api:8443 timed out",
     {"host:payments-api", "service:payments-api"}),
    ("url host and endpoint, ids masked", "GET https://api.stripe.com/v1/charges/ch_3Nx9 502",
     {"host:api.stripe.com", "endpoint:api.stripe.com/v1/charges/*"}),
    ("credentials in a url are not the host", "postgres://app:pw@db-primary:5432/app down",
     {"host:db-primary"}),
    ("libpq's host and address", 'could not connect: is the server running on host "db-primary"'
     " (10.0.0.5) and accepting connections", {"host:db-primary", "host:10.0.0.5"}),
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
])
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
    assert link["signal"] == "correlation" and link["correlation"] > 0.9
    assert link["agents"] == list(AGENTS) and link["window_count"] == len(SPIKE_HOURS_AGO)
    assert group.evidence["window"]["until"] == now.isoformat()


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


def record_spread(now, error, hours_ago, agent="a"):
    failures_record_many([entry(agent, f"t-{error[:8]}-{h}", error, now - timedelta(hours=h))
                          for h in hours_ago])


@pytest.mark.django_db
def test_patterns_naming_one_dependency_are_grouped_with_it_as_evidence():
    now = timezone.now()
    record_spread(now, "Connection refused to db-primary:5432", [3, 50, 90])
    record_spread(now, "SSL SYSCALL error talking to db-primary:5432", [10, 70, 120])
    record_spread(now, "Timeout reading from payments-api", [20, 40, 60])
    root_causes_detect(now=now)
    group = RootCauseGroup.objects.get()
    assert sorted(group.patterns.values_list("template", flat=True)) == [
        "Connection refused to db-primary:<*>", "SSL SYSCALL error talking to db-primary:<*>"]
    assert group.evidence["dependencies"] == ["host:db-primary"]
    assert group.evidence["signals"] == ["dependency"]


@pytest.mark.django_db
def test_a_dependency_everything_names_groups_nothing(monkeypatch):
    monkeypatch.setattr(rootcauses, "MAX_PATTERNS_PER_DEPENDENCY", 2)
    now = timezone.now()
    for error in ["Connection refused to db-primary:5432", "SSL SYSCALL error to db-primary:5432",
                  "Read timed out from db-primary:5432"]:
        record_spread(now, error, [3, 50, 90])
    assert root_causes_detect(now=now).groups == 0


@pytest.mark.django_db
def test_task_and_command():
    now = timezone.now()
    spike_scenario(now)
    assert root_causes_detect_task() == {"patterns": 3, "groups": 1, "created": 1, "removed": 0}
    out = io.StringIO()
    call_command("detect_root_causes", stdout=out)
    assert "1 suggested group(s), 0 new, 0 dropped" in out.getvalue()
