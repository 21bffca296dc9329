"""The effectiveness job: every lesson's measured effectiveness, ranking score and review flag,
recomputed from its applications in one set-based statement. This statement is the one
definition of the scoring; lessons.scoring holds its parameters.

Each application weighs ``0.5 ** (age_days / HALF_LIFE_DAYS)``: one from today counts fully, one
from a month ago half, so a lesson that stopped working loses its standing within weeks.
With ``S`` the weighted applications that worked and ``N`` all weighted applications:

* effectiveness = (S + 1) / (N + 2): the success rate smoothed by a uniform Beta(1, 1) prior, so a
  never-applied lesson keeps 0.5 and one lucky application does not make it 1.0;
* rank score = the Wilson score lower bound (95 %) of S + 1 successes in N + 2 tries: what check
  ranks by. It rewards evidence as well as rate: 9 of 10 outranks 1 of 1, which outranks a
  lesson never applied (0.0945), which outranks one that failed every time;
* flagged for review when N is at least FLAG_MIN_EVIDENCE and effectiveness below FLAG_BELOW,
  with the reason beside the flag and the moment it was first flagged (kept while it stays so).

One UPDATE ... FROM over an aggregate of the applications: the database does the work in a single
pass, whatever the number of applications, and a lesson with none returns to the prior. Running it
twice in a row changes nothing but the decay, so it is safe to repeat (and to ack late).

``effectiveness_previous`` keeps the last value of the previous UTC day, so a report compares a
lesson's standing today with yesterday's, not with a quarter of an hour ago.
"""

from datetime import UTC, datetime, time

from django.db import connection, transaction
from django.utils import timezone

from . import scoring
from .models import Lesson

# The age of applied_at in days as float8, not numeric: numeric POWER over millions of rows is
# several times slower. The reason's numbers are rounded as numeric, which prints "5.0", not "5".
_RECOMPUTE = """
WITH aged AS (
    SELECT lesson_id, worked,
           EXTRACT(EPOCH FROM (%(now)s::timestamptz - applied_at))::float8 / 86400.0 AS age
    FROM lessons_application {app_filter}
), weighted AS (
    SELECT lesson_id, worked, POWER(CAST(0.5 AS DOUBLE PRECISION),
        LEAST(GREATEST(age, 0.0), %(max_age)s) / %(half_life)s) AS w FROM aged
), agg AS (
    SELECT lesson_id, COUNT(*) AS applied, SUM(w) AS total,
           SUM(CASE WHEN worked THEN w ELSE 0.0 END) AS good
    FROM weighted GROUP BY lesson_id
), rated AS (
    SELECT lesson.id AS id, COALESCE(agg.applied, 0) AS applied,
           COALESCE(agg.good, 0.0) AS good, COALESCE(agg.total, 0.0) AS total,
           (COALESCE(agg.good, 0.0) + 1.0) / (COALESCE(agg.total, 0.0) + 2.0) AS p,
           COALESCE(agg.total, 0.0) + 2.0 AS m
    FROM lessons_lesson AS lesson LEFT JOIN agg ON agg.lesson_id = lesson.id {lesson_filter}
), judged AS (
    SELECT *, (total >= %(flag_min_evidence)s AND p < %(flag_below)s) AS flag FROM rated
)
UPDATE lessons_lesson SET
    effectiveness_previous = CASE
        WHEN lessons_lesson.scored_at IS NULL OR lessons_lesson.scored_at < %(day_start)s
        THEN lessons_lesson.effectiveness ELSE lessons_lesson.effectiveness_previous END,
    effectiveness = judged.p,
    rank_score = (judged.p + %(z2)s / (2 * judged.m)
                  - %(z)s * SQRT(judged.p * (1 - judged.p) / judged.m
                                 + %(z2)s / (4 * judged.m * judged.m)))
                 / (1 + %(z2)s / judged.m),
    evidence = judged.total,
    applications_count = judged.applied,
    flagged = judged.flag,
    flagged_reason = CASE WHEN judged.flag THEN
        'worked in ' || ROUND(judged.good::numeric, 1) || ' of ' || ROUND(judged.total::numeric, 1)
        || ' recent (decay-weighted) applications; effectiveness ' || ROUND(judged.p::numeric, 2)
        ELSE '' END,
    flagged_at = CASE WHEN judged.flag THEN COALESCE(lessons_lesson.flagged_at, %(now)s) END,
    scored_at = %(now)s
FROM judged WHERE judged.id = lessons_lesson.id
"""


def effectiveness_recompute(*, lesson_ids=None, now: datetime | None = None) -> int:
    """Recompute every lesson (or only ``lesson_ids``); return how many were updated."""
    if lesson_ids is not None and not lesson_ids:
        return 0
    now = now or timezone.now()
    day_start = datetime.combine(now.astimezone(UTC).date(), time.min, tzinfo=UTC)
    ids = [Lesson._meta.pk.get_db_prep_value(pk, connection) for pk in lesson_ids or []]
    sql = _RECOMPUTE.format(
        app_filter="WHERE lesson_id = ANY(%(ids)s)" if ids else "",
        lesson_filter="WHERE lesson.id = ANY(%(ids)s)" if ids else "",
    )
    params: dict[str, datetime | list | float] = {
        "now": now,
        "day_start": day_start,
        "ids": ids,
        "max_age": scoring.MAX_AGE_DAYS,
        "half_life": scoring.HALF_LIFE_DAYS,
        "z": scoring.Z,
        "z2": scoring.Z * scoring.Z,
        "flag_min_evidence": scoring.FLAG_MIN_EVIDENCE,
        "flag_below": scoring.FLAG_BELOW,
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
