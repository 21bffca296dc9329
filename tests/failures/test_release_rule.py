"""The release rule (failures.releases.rule), pure: when a pattern is new or gone in a
release, and when a release is worse than the one before."""

import random

from failures.releases import rule as releases


def test_a_line_is_what_comes_before_the_last_at():
    assert releases.line_of("coder@1.4.2") == "coder"
    assert releases.line_of("@scope/agent@2.0") == "@scope/agent"
    assert releases.line_of("1.4.2") == ""
    assert releases.line_of("9f3c2ab") == ""


def test_a_fault_the_previous_release_would_have_met_is_new():
    # 230 tasks of the type before, 40 now with 3 failures: (40/270)^3 = 0.003.
    verdict = releases.first_seen_verdict(
        {"deploy": 3}, {"deploy": 40}, {"deploy": 230}, seen_earlier=False
    )
    assert verdict == releases.NEW


def test_a_rare_fault_the_previous_release_never_happened_to_meet_is_not_new():
    # Once in 300 tasks now, never in 230 before: as likely bad luck before as a change.
    verdict = releases.first_seen_verdict(
        {"write": 1}, {"write": 300}, {"write": 230}, seen_earlier=False
    )
    assert verdict == releases.UNDECIDED


def test_tasks_of_other_types_are_no_evidence():
    verdict = releases.first_seen_verdict(
        {"deploy": 20}, {"deploy": 100}, {"search": 10_000}, seen_earlier=False
    )
    assert verdict == releases.UNDECIDED


def test_without_a_previous_release_nothing_is_new_and_a_known_fault_stays_known():
    assert (
        releases.first_seen_verdict({"a": 50}, {"a": 100}, None, seen_earlier=False)
        == releases.UNDECIDED
    )
    assert (
        releases.first_seen_verdict({"a": 50}, {"a": 100}, {"a": 1000}, seen_earlier=True)
        == releases.KNOWN
    )


def test_gone_needs_enough_tasks_of_its_types_without_it():
    assert releases.is_gone({"a": 10}, {"a": 100}, {"a": 100})  # 0.5^10 < 0.01
    assert not releases.is_gone({"a": 10}, {"a": 100}, {"a": 20})  # (100/120)^10 = 0.16
    assert not releases.is_gone({"a": 10}, {"a": 100}, {"b": 1000})


def test_the_chance_is_the_chance_of_the_split_under_one_rate():
    # Monte Carlo check of the exact formula: at equal rates, each failure falls here with the
    # share of tasks here, independently.
    rng = random.Random(7)
    here, there, failures = 40, 60, 3
    trials = 40_000
    all_here = sum(
        all(rng.random() < here / (here + there) for _ in range(failures)) for _ in range(trials)
    )
    exact = releases.chance_all_here({"t": failures}, {"t": here}, {"t": there})
    assert abs(all_here / trials - exact) < 0.01


def test_worse_compares_failed_tasks_per_task_type():
    before = releases.Health({"a": 1000, "b": 1000}, {"a": 50, "b": 200})
    # The same rates on another mix of types is not worse.
    same = releases.Health({"a": 200, "b": 1000}, {"a": 10, "b": 200})
    assert not releases.is_worse(releases.worse_z(same, before))
    worse = releases.Health({"a": 1000, "b": 1000}, {"a": 120, "b": 200})
    assert releases.is_worse(releases.worse_z(worse, before))
    assert releases.worse_z(releases.Health({"c": 5}, {"c": 5}), before) is None
