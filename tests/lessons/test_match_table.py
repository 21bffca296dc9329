"""The bit-set match index answers what scoring every lesson one by one answers (the index as it
was: each pattern filed under its rarest words, scored with lessons.matching), and the pieces it
is made of agree with lessons.matching."""
import math
import random
from collections import Counter

import pytest

from failures.services import pattern_for_message
from lessons import match_index as match_index_module
from lessons.match_index import _keys, match_index, match_index_bump
from lessons.match_table import full_match, ordinals_of, prepare, to_bits
from lessons.matching import MIN_WORD_SHARE, compile_pattern, normalise, score, words
from lessons import selectors
from lessons.models import Lesson, MatchIndexVersion
from lessons.selectors import MESSAGE_CANDIDATES, lesson_check
from tests.factories import LessonFactory

# Patterns that exercise each way a pattern is read: slugs, phrases, templates with wildcards at
# either end, side by side or glued to a word, ids and numbers, and non-ASCII text.
PATTERNS = [
    "api_429_rate_limit", "connection refused", "Twilio API timeout after <*> seconds",
    "<*> timeout", "timeout <*>", "<*>", "<*><*>", "a<*>b", "retry after <*>s (invoices)",
    "KeyError: '<*>_id'", "id=0x1f2e3d4c5b", "job 12345 of 3.5 MB", "HTTP 401 for 550e8400-e29b-41d4-a716-446655440000",
    "ΑΣ <*> σφάλμα", "Straße <*> ΣΊΣΥΦΟΣ", "", "  ", "---", "rate limit",
]
MESSAGES = [
    "Twilio API timeout after 30 seconds", "HTTP 429 Too Many Requests: rate limit hit",
    "api rate limiting exceeded", "retry after 12s (invoices)", "ab", "a b", "axb", "",
    "KeyError: 'user_id' in client", "id=0x1f2e3d4c5b here", "job 777 of 9.25 MB failed",
    "ασ x σφάλμα", "straße y σίσυφος", "timeout", "x timeout", "timeout x", "connection refused!",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_prepare_reads_a_pattern_as_compile_pattern_does(pattern):
    literal, found = prepare(pattern)
    compiled = compile_pattern(pattern)
    assert found == compiled.words
    for message in MESSAGES:
        normal = normalise(message)
        expected = (compiled.regex.search(normal) is not None if compiled.regex
                    else compiled.normal in normal)
        assert full_match(literal, normal) == expected, (pattern, message)


def test_bit_sets_round_trip_sparse_and_dense():
    rng = random.Random(3)
    for size, count in [(1, 1), (100, 0), (5000, 3), (5000, 4000), (70_001, 700)]:
        ordinals = sorted(rng.sample(range(size), count))
        bits = to_bits(ordinals, size)
        assert ordinals_of(bits) == ordinals
        assert ordinals_of(bits, 2) == ordinals[:2]


# Few words, some very common and some inside others ("limit" in "limiting", "in" in
# "invoices"), so patterns share words heavily and whole-text matches below a full word share occur.
VOCABULARY = ["error", "error", "timeout", "api", "rate", "limit", "limiting", "in", "invoices",
              "db", "refused", "token", "429", "12s", "s", "stripe", "12345", "on", "connection"]
SKILLS = [None, None, "stripe_api", "db_api"]


def _reference(lessons, message, skill_name):
    """What the index answered before bit sets: patterns filed under their rarest words (and the
    wordless ones), each scored with lessons.matching."""
    compiled = {pk: compile_pattern(p) for pk, (p, _, _) in lessons.items()}
    frequency = Counter(w for c in compiled.values() for w in c.words)
    normal, message_words = normalise(message), words(message)
    found = {}
    for pk, (_, skill, approved) in lessons.items():
        c = compiled[pk]
        if skill_name and skill not in (None, skill_name):
            continue
        if c.words and not set(_keys(c.words, frequency)) & message_words:
            continue
        value = score(c, normal, message_words)
        if value >= MIN_WORD_SHARE:
            found[pk] = (approved, 1.0 if not c.words else value)
    return found


@pytest.fixture
def lessons(db):
    rng = random.Random(20261121)
    patterns = {" ".join(rng.choices(VOCABULARY, k=rng.randint(1, 5))) for _ in range(200)}
    patterns |= {"_".join(rng.choices(VOCABULARY, k=3)) for _ in range(60)}
    patterns |= {" ".join(rng.choices(VOCABULARY, k=2)) + " <*> " + rng.choice(VOCABULARY)
                 for _ in range(60)}
    patterns |= {"api rate limit", "retry after <*>s (invoices)", "<*>", "stripe <*> timeout"}
    rows = [Lesson(error_pattern=p, error_type="timeout", resolution="r",
                   skill_name=rng.choice(SKILLS), status=rng.choice(["approved", "unverified"]))
            for p in sorted(patterns)]
    Lesson.objects.bulk_create(rows)
    LessonFactory(error_pattern="api timeout", status="rejected")
    match_index_bump()
    return {row.pk: (row.error_pattern, row.skill_name, row.status == "approved") for row in rows}


def _messages(count):
    rng = random.Random(7)
    for _ in range(count):
        glue = rng.choice([" ", " ", "_", ""])
        yield glue.join(rng.choices(VOCABULARY + ["unrelated", "7"], k=rng.randint(0, 9)))


def test_matches_equal_scoring_every_lesson(lessons):
    index = match_index()
    for message in [*_messages(150), "api rate limiting", "retry after 12s (invoices)"]:
        for skill_name in (None, "stripe_api", "unknown_api"):
            expected = _reference(lessons, message, skill_name)
            found = {e.pk: (e.approved, s) for e, s in index.matches(message, skill_name=skill_name)}
            assert found == expected, (message, skill_name)


def test_a_pattern_held_whole_scores_one_though_a_word_is_only_inside_a_message_word(lessons):
    found = {lessons[e.pk][0]: s for e, s in match_index().matches(
        "api rate limiting at stripe", skill_name=None)}
    assert found["api rate limit"] == 1.0  # "limit" is in "limiting": 2 of 3 words, yet whole
    found = {lessons[e.pk][0]: s for e, s in match_index().matches(
        "HTTP 429: retry after 12s (invoices)", skill_name=None)}
    assert found["retry after <*>s (invoices)"] == 1.0


def test_best_matches_are_the_head_of_the_ranked_matches(lessons):
    index = match_index()
    for message in _messages(100):
        for limit, approved_only in [(1, False), (3, True), (5, False), (50, False)]:
            ranked = sorted(((approved, s) for approved, s in _reference(lessons, message, None).values()
                             if approved or not approved_only), reverse=True)
            best = index.best_matches(message, skill_name=None, limit=limit,
                                      approved_only=approved_only, most=MESSAGE_CANDIDATES)
            keys = [(e.approved, s) for e, s in best]
            if len(ranked) <= limit:
                assert keys == ranked
            else:
                cutoff = ranked[limit - 1]
                assert keys == [k for k in ranked if k >= cutoff][:MESSAGE_CANDIDATES]
            assert all(e.approved for e, _ in best) or not approved_only


def test_a_wordless_pattern_of_another_skill_is_not_a_match(db):
    own = LessonFactory(error_pattern="<*>", skill_name="stripe_api")
    generic = LessonFactory(error_pattern="<*><*>")
    found = {e.pk for e, _ in match_index().matches("anything", skill_name="db_api")}
    assert found == {generic.pk}
    found = {e.pk for e, _ in match_index().matches("anything", skill_name="stripe_api")}
    assert found == {own.pk, generic.pk}


def test_keys_are_each_patterns_rarest_words():
    frequency = Counter({"error": 9, "api": 5, "stripe": 1, "card": 2, "declined": 2})
    pattern_words = frozenset({"error", "api", "stripe", "card", "declined"})
    needed = math.ceil(MIN_WORD_SHARE * 5 - 1e-9)
    assert _keys(pattern_words, frequency) == ["stripe", "card", "declined"][:5 - needed + 1]


def test_a_worker_builds_the_index_at_start_and_a_database_error_does_not_stop_it(
        transactional_db, monkeypatch):
    from django.db import OperationalError

    from config import wsgi
    from lessons import match_index as module

    lesson = LessonFactory(error_pattern="stripe card declined")
    wsgi._warm_up()
    built = module._state["index"]
    assert [e.pk for e, _ in built.matches("stripe card declined", skill_name=None)] == [lesson.pk]
    assert match_index() is built  # the first check reuses it

    def unreachable():
        raise OperationalError("the database system is starting up")

    monkeypatch.setattr(module, "match_index", unreachable)
    wsgi._warm_up()  # logged; the worker goes on and the first check builds it


def test_a_check_with_a_current_index_runs_one_statement_and_the_index_is_not_rebuilt(
        lessons, django_assert_num_queries, monkeypatch):
    from django.core.cache import cache

    pattern_for_message(message="api rate limit hit")  # its template is stored: nothing more
    lesson_check(error_message="api rate limit hit")  # builds the index
    held = match_index_module._state["index"]
    asked = []
    monkeypatch.setattr(cache, "get", lambda *args, **kwargs: asked.append(args))
    with django_assert_num_queries(1):  # the ranking statement reads the token too
        found = lesson_check(error_message="api rate limit hit")
    assert found and match_index_module._state["index"] is held
    assert asked == []  # nor the cache


def test_a_lesson_written_by_another_process_is_found_by_the_next_check(lessons):
    lesson_check(error_message="api rate limit hit")
    held = match_index_module._state["index"]
    # Another process writes a lesson and a new token; this process's index knows neither.
    Lesson.objects.bulk_create([Lesson(error_pattern="quota exhausted for tenant",
                                       error_type="quota", resolution="Wait for the reset.")])
    MatchIndexVersion.objects.update(token="written-elsewhere")
    found = lesson_check(error_message="quota exhausted for tenant acme")
    assert "quota exhausted for tenant" in [entry.lesson.error_pattern for entry in found]
    assert match_index_module._state["index"] is not held
    assert match_index_module._state["index"].version == "written-elsewhere"


def test_with_the_cache_unreachable_a_lesson_written_is_found_by_the_next_check(
        lessons, redis_down):
    lesson_check(error_message="api rate limit hit")
    redis_down()
    LessonFactory(error_pattern="written while the cache is down")
    found = lesson_check(error_message="written while the cache is down again")
    assert "written while the cache is down" in [entry.lesson.error_pattern for entry in found]


def test_a_token_that_changes_on_every_read_costs_a_check_one_rebuild_not_a_loop(
        lessons, monkeypatch):
    from lessons import check_sql

    lesson_check(error_message="api rate limit hit")
    ranking_rows, runs = check_sql.ranking_rows, []

    def written_meanwhile(**kwargs):
        MatchIndexVersion.objects.update(token=f"token-{len(runs)}")  # before each statement
        runs.append(kwargs)
        return ranking_rows(**kwargs)

    monkeypatch.setattr(selectors, "ranking_rows", written_meanwhile)
    assert lesson_check(error_message="api rate limit hit")
    assert len(runs) == 2


def test_a_missing_token_row_is_written_again_and_the_index_built(lessons):
    MatchIndexVersion.objects.all().delete()  # as a flushed database leaves it
    found = lesson_check(error_message="api rate limit hit", limit=50)
    assert "api rate limit" in [entry.lesson.error_pattern for entry in found]
    assert MatchIndexVersion.objects.get().token == match_index_module._state["index"].version
