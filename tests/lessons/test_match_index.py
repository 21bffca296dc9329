"""The lesson match index finds exactly what fitting every lesson would find, and follows the
lessons written by any process."""

import random
from collections import Counter

import pytest

from lessons import match_index as match_index_module
from lessons.match_index import _keys, match_index, sketch_of
from lessons.matching import TEMPLATE, WORDS, compile_pattern, match_fit
from lessons.models import Lesson, MatchIndexVersion
from lessons.selectors import lesson_check
from tests.lessons.factories import LessonFactory
from tests.lessons.oracles import told_apart

pytestmark = pytest.mark.django_db

# Few words, some generic and some inside others ("limit" in "limiting"), quoted names, numbers
# and identifiers, so patterns share words heavily and the index's filing is put to the test.
VOCABULARY = [
    "error",
    "error",
    "failed",
    "timeout",
    "statement",
    "lock",
    "api",
    "rate",
    "limit",
    "limiting",
    "db",
    "refused",
    "token",
    "expired",
    "quota",
    "429",
    "503",
    "stripe",
    "'cv2'",
    "'yaml'",
    "read_url",
    "url",
    "12345",
    "for",
    "connection",
    "ExpiredToken",
    "ExpiredTokenException",
    "ValidationError",
]
TYPES = ["timeout", "quota", "", "acme.Timeout", "other.Timeout"]


def brute_force(lessons, message, error_type):
    """Every lesson that fits, by words only of the same type (any, when one names none), and
    by missing words only when those do not tell it from another lesson (told_apart)."""
    found = {}
    for pk, (pattern, lesson_type) in lessons.items():
        fitted = match_fit(pattern, message)
        if (
            fitted
            and fitted.kind == WORDS
            and fitted.score < 1
            and told_apart(
                pattern,
                [other for other_pk, (other, _type) in lessons.items() if other_pk != pk],
                message,
            )
        ):
            fitted = None
        same = (
            not error_type
            or not lesson_type
            or (  # the class, without its module
                lesson_type.split(".")[-1].lower() == error_type.split(".")[-1].lower()
            )
        ) and not (  # two libraries named, and not the same one
            "." in (lesson_type or "")
            and "." in (error_type or "")
            and lesson_type.split(".")[0].lower() != error_type.split(".")[0].lower()
        )
        compiled = compile_pattern(pattern)  # across types: a template of a distinctive word or 3
        # a slug is its writer's words: across types only through a carrier type
        strong = not compiled.slug and (compiled.sequence or len(compiled.words) >= 3)
        if fitted and (same or (fitted.kind == TEMPLATE and strong)):
            found[pk] = fitted
    return found


def test_index_fits_equal_fitting_every_pattern():
    rng = random.Random(20261126)
    patterns = {" ".join(rng.choices(VOCABULARY, k=rng.randint(1, 5))) for _ in range(300)}
    patterns |= {"_".join(w.strip("'") for w in rng.choices(VOCABULARY, k=3)) for _ in range(60)}
    patterns |= {" <*> ".join(rng.choices(VOCABULARY, k=3)) for _ in range(60)}
    patterns |= {"stripe <*> timeout", "<*>", "<*>_id failed", "statement timeout"}
    lessons = {}
    for pattern in patterns:
        lesson_type = rng.choice(TYPES)
        lessons[LessonFactory(error_pattern=pattern, error_type=lesson_type).pk] = (
            pattern,
            lesson_type,
        )
    index = match_index()
    matched = 0
    for _ in range(300):
        words = rng.choices(VOCABULARY + ["unrelated", "words", "user_id"], k=rng.randint(1, 9))
        message = " ".join(words)
        error_type = rng.choice(TYPES) or None
        expected = brute_force(lessons, message, error_type)
        found = index.fits(message, error_type=error_type, skill_name=None, approved_only=False)
        assert {pk: hit.fit for pk, hit in found.items()} == expected, message
        matched += bool(found)
    assert matched > 100  # the messages do fit patterns


def keys(pattern: str, frequency: Counter):
    return _keys(sketch_of(compile_pattern(pattern), {}), frequency)


def test_keys_are_required_words_or_the_rarest_ones():
    frequency = Counter(
        {
            "module": 9,
            "named": 9,
            "cv2": 1,
            "stripe": 1,
            "card": 2,
            "declined": 2,
            "webhook": 3,
            "token": 5,
            "expired": 5,
        }
    )
    assert keys("No module named 'cv2'", frequency) == {"cv2"}
    # Two of three distinctive words make a words fit: one of the two rarest is in any message.
    assert keys("stripe card declined", frequency) == {"stripe", "card"}
    assert keys("card_declined", frequency) == {"card_declined", "card"}
    assert keys("<*>", frequency) is None  # tried on every message
    # A class may be the start of a message word (ExpiredTokenException): never a key, and a
    # words fit needs one word fewer of the others.
    assert keys("ExpiredToken", frequency) is None
    assert keys("ExpiredToken: token expired", frequency) == {"expired", "token"}


@pytest.mark.parametrize(
    "error_type, found",
    [
        ("openai.AuthenticationError", True),
        ("AuthenticationError", True),  # no library named: the class is the type
        (None, True),
        ("stripe.error.AuthenticationError", False),  # another library's class of that name
    ],
)
def test_a_class_of_another_library_is_another_type(error_type, found):
    lesson = LessonFactory(
        error_pattern="Incorrect API key provided: <*>", error_type="openai.AuthenticationError"
    )
    fits = match_index().fits(
        "Invalid API key provided: sk_live_****aB3d",
        error_type=error_type,
        skill_name=None,
        approved_only=False,
    )
    assert (lesson.pk in fits) is found


def test_a_lesson_named_by_its_class_is_found_by_the_longer_class():
    named = LessonFactory(error_pattern="ExpiredToken", error_type="ClientError")
    found = match_index().fits(
        "ExpiredTokenException: The security token included in the request is expired",
        error_type=None,
        skill_name=None,
        approved_only=False,
    )
    assert list(found) == [named.pk]


def test_a_rebuild_compiles_only_the_new_patterns(monkeypatch):
    LessonFactory(error_pattern="stripe card declined")
    held = match_index()
    compiled = []
    original = compile_pattern.__wrapped__
    monkeypatch.setattr(
        compile_pattern, "__wrapped__", lambda text: compiled.append(text) or original(text)
    )
    LessonFactory(error_pattern="card declined by issuer")  # the factory bumps
    rebuilt = match_index()
    assert rebuilt is not held and compiled == ["card declined by issuer"]


def test_rejected_lessons_are_not_indexed_and_a_bump_rebuilds():
    kept = LessonFactory(error_pattern="stripe card declined")
    LessonFactory(error_pattern="stripe card expired", status="rejected")
    fits = match_index().fits(
        "stripe card declined", error_type=None, skill_name=None, approved_only=False
    )
    assert list(fits) == [kept.pk]
    newer = LessonFactory(error_pattern="card declined by issuer")  # the factory bumps
    assert newer.pk in match_index().fits(
        "card declined by issuer", error_type=None, skill_name=None, approved_only=False
    )


@pytest.fixture
def lessons():
    LessonFactory(error_pattern="api rate limit", error_type="rate_limit")
    LessonFactory(error_pattern="stripe card declined", error_type="payment")


def test_a_worker_builds_the_index_at_start_and_a_database_error_does_not_stop_it(
    transactional_db, monkeypatch
):
    from django.db import OperationalError

    from config import wsgi

    lesson = LessonFactory(error_pattern="stripe card declined")
    wsgi._warm_up()
    built = match_index_module._state["index"]
    assert list(
        built.fits("stripe card declined", error_type=None, skill_name=None, approved_only=False)
    ) == [lesson.pk]
    assert match_index() is built  # the first check reuses it

    def unreachable():
        raise OperationalError("the database system is starting up")

    monkeypatch.setattr(match_index_module, "match_index", unreachable)
    wsgi._warm_up()  # logged; the worker goes on and the first check builds it


def test_a_check_with_a_current_index_does_not_rebuild_it_nor_ask_the_cache(lessons, monkeypatch):
    from django.core.cache import cache

    lesson_check(error_message="api rate limit hit")  # builds the index
    held = match_index_module._state["index"]
    asked = []
    monkeypatch.setattr(cache, "get", lambda *args, **kwargs: asked.append(args))
    assert lesson_check(error_message="api rate limit hit").has_resolution
    assert match_index_module._state["index"] is held
    assert asked == []


def test_a_lesson_written_by_another_process_is_found_by_the_next_check(lessons):
    lesson_check(error_message="api rate limit hit")
    held = match_index_module._state["index"]
    # Another process writes a lesson and a new token; this process's index knows neither.
    Lesson.objects.bulk_create(
        [
            Lesson(
                error_pattern="quota exhausted for tenant",
                error_type="quota",
                resolution="Wait for the reset.",
            )
        ]
    )
    MatchIndexVersion.objects.update(token="written-elsewhere")
    found = lesson_check(error_message="quota exhausted for tenant acme").lessons
    assert "quota exhausted for tenant" in [entry.lesson.error_pattern for entry in found]
    assert match_index_module._state["index"] is not held
    assert match_index_module._state["index"].version == "written-elsewhere"


def test_with_the_cache_unreachable_a_lesson_written_is_found_by_the_next_check(
    lessons, redis_down
):
    lesson_check(error_message="api rate limit hit")
    redis_down()
    LessonFactory(error_pattern="written while the cache is down")
    found = lesson_check(error_message="written while the cache is down again").lessons
    assert "written while the cache is down" in [entry.lesson.error_pattern for entry in found]


def test_a_missing_token_row_is_written_again_and_the_index_built(lessons):
    MatchIndexVersion.objects.all().delete()  # as a flushed database leaves it
    found = lesson_check(error_message="api rate limit hit", limit=50).lessons
    assert "api rate limit" in [entry.lesson.error_pattern for entry in found]
    assert MatchIndexVersion.objects.get().token == match_index_module._state["index"].version
