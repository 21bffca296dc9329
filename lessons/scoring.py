"""How well a lesson works, from its applications: pure formulas, no Django.

Each application weighs ``0.5 ** (age_days / HALF_LIFE_DAYS)``: one from today counts fully, one
from a month ago half, so a lesson that stopped working loses its standing within weeks.
With ``S`` the weighted applications that worked and ``N`` all weighted applications:

* effectiveness = (S + 1) / (N + 2): the success rate smoothed by a uniform Beta(1, 1) prior, so a
  never-applied lesson keeps 0.5 and one lucky application does not make it 1.0;
* rank score = the Wilson score lower bound (95 %) of S + 1 successes in N + 2 tries: what check
  ranks by. It rewards evidence as well as rate: 9 of 10 outranks 1 of 1, which outranks a
  lesson never applied (0.0945), which outranks one that failed every time.

A lesson is flagged for review when at least FLAG_MIN_EVIDENCE weighted applications say it works
less often than FLAG_BELOW.
"""
import math

HALF_LIFE_DAYS = 30.0
# Ages are taken within [0, MAX_AGE_DAYS]: an application dated in the future weighs as one of
# today, and past a thousand half-lives (a weight of 0.5 ** 1000, about 1e-301, nil beside any
# other) the weight stays there instead of underflowing the float, which PostgreSQL's POWER
# refuses with an error (as it refuses the overflow of a far-future date).
MAX_AGE_DAYS = 1000 * HALF_LIFE_DAYS
# The Wilson bound's z for a one-sided 97.5 % / two-sided 95 % interval.
Z = 1.96
# Three recent applications are the least evidence worth a human's attention; below 35 % a
# lesson fails nearly twice as often as it works.
FLAG_MIN_EVIDENCE = 3.0
FLAG_BELOW = 0.35


def weight(age_days: float) -> float:
    """The weight of an application ``age_days`` old."""
    return 0.5 ** (min(max(age_days, 0.0), MAX_AGE_DAYS) / HALF_LIFE_DAYS)


def effectiveness(worked: float, total: float) -> float:
    """Smoothed success rate of ``worked`` out of ``total`` weighted applications."""
    return (worked + 1.0) / (total + 2.0)


def wilson_lower_bound(successes: float, tries: float, z: float = Z) -> float:
    """The lower end of the Wilson score interval for a success rate."""
    if tries <= 0:
        return 0.0
    rate = successes / tries
    spread = z * math.sqrt(rate * (1 - rate) / tries + z * z / (4 * tries * tries))
    return (rate + z * z / (2 * tries) - spread) / (1 + z * z / tries)


def rank_score(worked: float, total: float) -> float:
    """What check ranks by: the Wilson lower bound with the prior's pseudo-counts."""
    return wilson_lower_bound(worked + 1.0, total + 2.0)


def flag_reason(worked: float, total: float) -> str:
    """Why a lesson needs review, or "" when it does not."""
    if total >= FLAG_MIN_EVIDENCE and effectiveness(worked, total) < FLAG_BELOW:
        return (f"worked in {worked:.1f} of {total:.1f} recent (decay-weighted) applications; "
                f"effectiveness {effectiveness(worked, total):.2f}")
    return ""


def effectiveness_text(effectiveness: float, applications: int) -> str:
    """Effectiveness as a person reads it, with its evidence: "83% of 12 applications"; a lesson
    never applied shows no measured rate (its 0.5 is the prior, not a measurement)."""
    if not applications:
        return "not applied yet"
    return f"{round(100 * effectiveness)}% of {applications} application" + (
        "s" if applications != 1 else "")
