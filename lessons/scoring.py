"""The parameters of effectiveness scoring, and how a person reads a score: pure, no Django.
The formulas themselves are computed once, by the effectiveness job (lessons.effectiveness)."""

# The prior effectiveness of a lesson nobody has reported on yet: the mean of a uniform Beta(1, 1),
# i.e. "no evidence either way". Applications replace it with a measured rate.
EFFECTIVENESS_PRIOR = 0.5
# The ranking score of a lesson with no applications: the Wilson lower bound of the prior's one
# pseudo-success in two pseudo-tries, so it ranks below proven lessons and above proven failures.
RANK_SCORE_PRIOR = 0.0945
# An application's weight halves every HALF_LIFE_DAYS.
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


def effectiveness_text(effectiveness: float, applications: int) -> str:
    """Effectiveness as a person reads it, with its evidence: "83% of 12 applications"; a lesson
    never applied shows no measured rate (its 0.5 is the prior, not a measurement)."""
    if not applications:
        return "not applied yet"
    return f"{round(100 * effectiveness)}% of {applications} application" + (
        "s" if applications != 1 else ""
    )
