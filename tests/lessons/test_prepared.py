"""The check's ranking statement is prepared on a connection after a few runs and then reuses a
generic plan; with preparing off (DB_PREPARE_THRESHOLD=off: the connection's prepare_threshold
is None) it is planned on every run. Either way the answers are the same."""
import pytest
from django.db import connection

from lessons.selectors import lesson_check
from tests.factories import LessonFactory
from tests.plans import require_postgresql

pytestmark = pytest.mark.django_db
MESSAGE = "Stripe API timeout after 30 seconds while fetching invoices"


def plans_kept() -> tuple[int, int]:
    """(generic, custom) executions of the connection's prepared check statements so far."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) "
                       "FROM pg_prepared_statements WHERE statement LIKE '%%SELECT c.how%%'")
        return tuple(int(n) for n in cursor.fetchone())


def checks(times: int) -> list:
    return [[(c.lesson.pk, c.match) for c in lesson_check(
        error_message=MESSAGE, error_type="timeout")] for _ in range(times)]


def test_a_check_statement_is_prepared_unless_preparing_is_off():
    require_postgresql()
    LessonFactory(error_pattern="Stripe API timeout", error_type="timeout")
    connection.ensure_connection()
    threshold = connection.connection.prepare_threshold
    assert threshold == 5
    try:
        connection.connection.prepare_threshold = None
        before = plans_kept()
        unprepared = checks(threshold + 2)
        assert plans_kept() == before
    finally:
        connection.connection.prepare_threshold = threshold
    prepared = checks(threshold + 2)
    generic, custom = plans_kept()
    assert generic > before[0] and custom == before[1]
    assert unprepared[0] and set(map(tuple, unprepared + prepared)) == {tuple(unprepared[0])}
