"""The rule that tells a regression from a recurrence its lesson handles, as a table."""

import pytest

from failures.analysis.recurrence import Evidence, verdict_of


def evidence(
    *, recent=1, before=3, applications=0, worked=0, recent_applications=None, recent_worked=None
) -> Evidence:
    return Evidence(
        failures_since=recent,
        failures_recent=recent,
        failures_before=before,
        span_hours=24.0,
        applications=applications,
        worked=worked,
        recent_applications=applications if recent_applications is None else recent_applications,
        recent_worked=worked if recent_worked is None else recent_worked,
    )


# (name, evidence since the fix, verdict)
CASES = [
    ("came back once, nothing applied", evidence(), "recurring"),
    (
        "handled every time, more often than before the fix",
        evidence(recent=40, applications=40, worked=40),
        "handled",
    ),
    (
        "80 of 81 applications worked",
        evidence(recent=81, applications=81, worked=80, recent_applications=10, recent_worked=9),
        "handled",
    ),
    ("two failed applications are too few to judge", evidence(applications=2), "recurring"),
    ("three failed applications", evidence(recent=3, applications=3), "failing"),
    ("half of the latest worked", evidence(recent=4, applications=4, worked=2), "handled"),
    (
        "fewer than half of the latest worked",
        evidence(recent=5, applications=5, worked=2),
        "failing",
    ),
    (
        "worked long ago, fails lately",
        evidence(recent=30, applications=30, worked=20, recent_applications=10, recent_worked=4),
        "failing",
    ),
    ("back at its pre-fix rate, nothing applied", evidence(recent=3, before=3), "returned"),
    ("below its pre-fix rate", evidence(recent=4, before=5), "recurring"),
    ("at a rate of two: too few to be a rate", evidence(recent=2, before=1), "recurring"),
    ("back at its rate, one application failed", evidence(recent=3, applications=1), "returned"),
    (
        "back at its rate, one application worked",
        evidence(recent=3, applications=1, worked=1),
        "handled",
    ),
]


@pytest.mark.parametrize(
    "found, verdict", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_verdict(found, verdict):
    assert verdict_of(found) == verdict
