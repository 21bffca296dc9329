"""The lesson match index finds exactly what scoring every lesson would find."""
import random

import pytest

from lessons.match_index import match_index
from lessons.matching import MIN_WORD_SHARE, match_score
from tests.factories import LessonFactory

pytestmark = pytest.mark.django_db

# Few words, some very common, so patterns share words heavily and the rarest-word filing of
# the index is put to the test; numbers exercise the <num> placeholder.
VOCABULARY = ["error", "error", "error", "timeout", "timeout", "api", "rate", "limit", "db",
              "connection", "refused", "reset", "token", "expired", "quota", "429", "503",
              "stripe", "twilio", "12345"]


def test_index_matches_equal_scoring_every_pattern():
    rng = random.Random(20261121)
    patterns = {" ".join(rng.choices(VOCABULARY, k=rng.randint(1, 5))) for _ in range(300)}
    patterns |= {"_".join(rng.choices(VOCABULARY, k=3)) for _ in range(100)}
    patterns |= {"stripe <*> timeout", "<*>"}
    lessons = {LessonFactory(error_pattern=p).pk: p for p in patterns}
    index = match_index()
    for _ in range(200):
        message = " ".join(rng.choices(VOCABULARY + ["unrelated", "words"], k=rng.randint(1, 9)))
        expected = {pk for pk, p in lessons.items() if match_score(p, message) >= MIN_WORD_SHARE}
        found = {entry.pk for entry, _ in index.matches(message, skill_name=None)}
        assert found == expected, message


def test_rejected_lessons_are_not_indexed_and_a_bump_rebuilds():
    kept = LessonFactory(error_pattern="stripe card declined")
    LessonFactory(error_pattern="stripe card expired", status="rejected")
    found = [e.pk for e, _ in match_index().matches("stripe card declined", skill_name=None)]
    assert found == [kept.pk]
    newer = LessonFactory(error_pattern="card declined by issuer")  # the factory bumps
    found = {e.pk for e, _ in match_index().matches("card declined by issuer", skill_name=None)}
    assert newer.pk in found
