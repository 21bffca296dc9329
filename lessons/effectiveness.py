"""The effectiveness job: every lesson's measured effectiveness, ranking score and review flag,
recomputed from its applications in one set-based statement (the formulas: lessons.scoring).

One UPDATE ... FROM over an aggregate of the applications: the database does the work in a single
pass, whatever the number of applications, and a lesson with none returns to the prior. Running it
twice in a row changes nothing but the decay, so it is safe to repeat (and to ack late).

``effectiveness_previous`` keeps the last value of the previous UTC day, so a report compares a
lesson's standing today with yesterday's, not with a quarter of an hour ago.
"""
from datetime import datetime, time, timezone as dt_timezone

from django.db import connection, transaction
from django.utils import timezone

from . import scoring
from .models import Lesson

# The age of applied_at in days as float8, not numeric: numeric POWER over millions of rows is
# several times slower.
_RECOMPUTE = """
WITH aged AS (
    SELECT lesson_id, worked,
           EXTRACT(EPOCH FROM (%s::timestamptz - applied_at))::float8 / 86400.0 AS age
    FROM lessons_application {app_filter}
), weighted AS (
    SELECT lesson_id, worked, POWER(CAST(0.5 AS DOUBLE PRECISION),
        CASE WHEN age < 0 THEN 0.0 WHEN age > %s THEN %s ELSE age END / %s) AS w FROM aged
), agg AS (
    SELECT lesson_id, COUNT(*) AS applied, SUM(w) AS total,
           SUM(CASE WHEN worked THEN w ELSE 0.0 END) AS good
    FROM weighted GROUP BY lesson_id
), rated AS (
    SELECT lesson.id AS id, COALESCE(agg.applied, 0) AS applied,
           COALESCE(agg.total, 0.0) AS total,
           (COALESCE(agg.good, 0.0) + 1.0) / (COALESCE(agg.total, 0.0) + 2.0) AS p,
           COALESCE(agg.total, 0.0) + 2.0 AS m
    FROM lessons_lesson AS lesson LEFT JOIN agg ON agg.lesson_id = lesson.id {lesson_filter}
)
UPDATE lessons_lesson SET
    effectiveness_previous = CASE
        WHEN lessons_lesson.scored_at IS NULL OR lessons_lesson.scored_at < %s
        THEN lessons_lesson.effectiveness ELSE lessons_lesson.effectiveness_previous END,
    effectiveness = rated.p,
    rank_score = (rated.p + %s / (2 * rated.m)
                  - %s * SQRT(rated.p * (1 - rated.p) / rated.m + %s / (4 * rated.m * rated.m)))
                 / (1 + %s / rated.m),
    evidence = rated.total,
    applications_count = rated.applied,
    flagged = (rated.total >= %s AND rated.p < %s),
    scored_at = %s
FROM rated WHERE rated.id = lessons_lesson.id
"""


def effectiveness_recompute(*, lesson_ids=None, now: datetime | None = None) -> int:
    """Recompute every lesson (or only ``lesson_ids``); return how many were updated."""
    now = now or timezone.now()
    day_start = datetime.combine(now.astimezone(dt_timezone.utc).date(), time.min,
                                 tzinfo=dt_timezone.utc)
    ids = [Lesson._meta.pk.get_db_prep_value(pk, connection) for pk in lesson_ids or []]
    marks = ", ".join(["%s"] * len(ids))
    sql = _RECOMPUTE.format(
        app_filter=f"WHERE lesson_id IN ({marks})" if ids else "",
        lesson_filter=f"WHERE lesson.id IN ({marks})" if ids else "")
    z2 = scoring.Z * scoring.Z
    params = [now, *ids, scoring.MAX_AGE_DAYS, scoring.MAX_AGE_DAYS,
              scoring.HALF_LIFE_DAYS, *ids, day_start,
              z2, scoring.Z, z2, z2, scoring.FLAG_MIN_EVIDENCE, scoring.FLAG_BELOW, now]
    if lesson_ids is not None and not ids:
        return 0
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            updated = cursor.rowcount
        _explain_flags(lesson_ids)
    return updated


def _explain_flags(lesson_ids) -> None:
    """Write the reason beside each flag, and clear it where the flag went."""
    lessons = Lesson.objects.all() if lesson_ids is None else Lesson.objects.filter(
        pk__in=lesson_ids)
    lessons.filter(flagged=False).exclude(flagged_reason="").update(flagged_reason="")
    changed = []
    for lesson in lessons.filter(flagged=True).only("pk", "evidence", "effectiveness",
                                                    "flagged_reason").iterator(chunk_size=2000):
        worked = lesson.effectiveness * (lesson.evidence + 2.0) - 1.0
        reason = scoring.flag_reason(worked, lesson.evidence)
        if reason != lesson.flagged_reason:
            lesson.flagged_reason = reason
            changed.append(lesson)
    Lesson.objects.bulk_update(changed, ["flagged_reason"], batch_size=1000)
