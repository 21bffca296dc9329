"""When a fault that came back after its fix is a regression: the rule, pure (no Django).

A pattern counts as fixed from a moment (an approved lesson for it, or all of its failures
closed; see failures.analysis.regressions). When it fails again after that, the recurrence is
judged on the evidence since the fix:

* FAILING: the fix stopped working. At least MIN_APPLICATIONS applications of the pattern's
  lessons were reported since the fix, and fewer than FAILING_BELOW of the latest
  RECENT_APPLICATIONS of them worked.
* RETURNED: the pattern is back at its pre-fix rate and nothing handled it. Over the latest
  span (the time since the fix, at most RATE_SPAN) it failed at least MIN_RETURN times and at
  least as often as in the same span just before the fix, and no application since the fix
  worked.
* HANDLED: it keeps coming back and keeps being handled: an application since the fix worked,
  and the fix is not FAILING. Faults that recur by nature (rate limits, flaky pages) live here.
* RECURRING: it came back, with too little evidence for any of the above.

FAILING and RETURNED are regressions. A regression stays one: later runs do not take it back.
"""

from dataclasses import asdict, dataclass
from datetime import timedelta

RECURRING, HANDLED, FAILING, RETURNED = "recurring", "handled", "failing", "returned"
REGRESSED = (FAILING, RETURNED)
# What the dashboard and the reports call each verdict.
LABELS = {
    RECURRING: "recurring",
    HANDLED: "recurring, handled",
    FAILING: "regression: its lesson stopped working",
    RETURNED: "regression: back at its pre-fix rate, no application worked",
}

# Three applications are the least evidence that a fix stopped working (as for a lesson's
# review flag, lessons.scoring.FLAG_MIN_EVIDENCE); one or two failures may be bad luck.
MIN_APPLICATIONS = 3
# The latest ten applications: recent enough to show a fix that stopped working within a day
# of a busy fleet, many enough that one unlucky try does not swing the rate by more than 10 %.
RECENT_APPLICATIONS = 10
# Fewer than half working: the lesson now fails more often than it helps.
FAILING_BELOW = 0.5
# Three failures in the span are the least that makes a rate; a rare fault seen once or twice
# after its fix has not "returned".
MIN_RETURN = 3
# Rates are compared over at most a week before and after the fix: a fix approved long ago is
# judged on the latest week against the week before it.
RATE_SPAN = timedelta(days=7)


@dataclass(frozen=True)
class Evidence:
    """What happened since the fix, and before it for the rate."""

    failures_since: int  # failures since the fix
    failures_recent: int  # failures in the latest span
    failures_before: int  # failures in the same span just before the fix
    span_hours: float  # the span the two rates are counted over
    applications: int  # applications of the pattern's lessons since the fix
    worked: int  # of which worked
    recent_applications: int  # the latest (at most RECENT_APPLICATIONS) of them
    recent_worked: int  # of which worked

    def as_json(self) -> dict:
        return asdict(self)


def verdict_of(evidence: Evidence) -> str:
    """FAILING, RETURNED, HANDLED or RECURRING for a pattern that came back after its fix."""
    if (
        evidence.applications >= MIN_APPLICATIONS
        and evidence.recent_worked < FAILING_BELOW * evidence.recent_applications
    ):
        return FAILING
    if evidence.worked:
        return HANDLED
    if evidence.failures_recent >= max(MIN_RETURN, evidence.failures_before):
        return RETURNED
    return RECURRING


def span_of(since_fix: timedelta) -> timedelta:
    """The span rates are compared over, for a fix this long ago."""
    return min(max(since_fix, timedelta(0)), RATE_SPAN)
