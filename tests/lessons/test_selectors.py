"""lessons.selectors: what check returns and in which order, and the filtered list."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from failures.store.patterns import pattern_for_message
from lessons.match_index import match_index_bump
from lessons.selectors import lesson_check, lesson_list, lessons_best_by_pattern
from tests.lessons.factories import LessonFactory

pytestmark = pytest.mark.django_db


def patterns(found):
    return [entry.lesson.error_pattern for entry in found]


def test_type_only_lessons_are_related_approved_first_and_rejected_never():
    LessonFactory(error_pattern="u", error_type="timeout", effectiveness=0.99)
    LessonFactory(error_pattern="a", error_type="timeout", status="approved", effectiveness=0.1)
    LessonFactory(error_pattern="r", error_type="timeout", status="rejected")
    answer = lesson_check(error_type="timeout")
    assert patterns(answer.related) == ["a", "u"]
    assert {entry.match for entry in answer.related} == {"type"}
    assert answer.lessons == [] and not answer.has_resolution
    assert not answer.has_approved_resolution


def test_ranking_score_then_occurrences_order_within_a_status():
    # The ranking score (measured effectiveness weighed by evidence), not the raw rate.
    LessonFactory(error_pattern="low", effectiveness=0.9, rank_score=0.2, occurrences=50)
    LessonFactory(error_pattern="high", effectiveness=0.6, rank_score=0.7)
    LessonFactory(error_pattern="high-many", effectiveness=0.6, rank_score=0.7, occurrences=7)
    assert patterns(lesson_check(error_type="timeout").related) == ["high-many", "high", "low"]


def test_error_message_finds_lessons_by_pattern_when_no_type_is_given():
    LessonFactory(error_pattern="api_429_rate_limit", error_type="rate_limit")
    LessonFactory(error_pattern="db_connection_refused", error_type="connection")
    answer = lesson_check(error_message="HTTP 429 from api.openai.com: rate limit reached")
    assert patterns(answer.lessons) == ["api_429_rate_limit"] and answer.has_resolution
    assert answer.lessons[0].match == "words" and answer.lessons[0].score == pytest.approx(1.0)


def test_a_match_across_error_types_needs_a_template_fit():
    LessonFactory(error_pattern="api_429_rate_limit", error_type="rate_limit")
    LessonFactory(error_pattern="HTTP 429 from <*>: rate limit reached", error_type="throttled")
    message = "HTTP 429 from api.openai.com: rate limit reached"
    found = lesson_check(error_type="http_error", error_message=message).lessons
    assert [(entry.lesson.error_pattern, entry.match) for entry in found] == [
        ("HTTP 429 from <*>: rate limit reached", "template")
    ]
    found = lesson_check(error_type="rate_limit", error_message=message).lessons
    assert [entry.match for entry in found] == ["template", "words"]


def test_error_message_normalises_numbers_and_ids():
    LessonFactory(error_pattern="Twilio API timeout after <*> seconds")
    LessonFactory(error_pattern="order 12345 not found in shard 7")
    found = lesson_check(error_message="Twilio API timeout after 30 seconds (req 8f3a9c2e11)")
    assert patterns(found.lessons) == ["Twilio API timeout after <*> seconds"]
    found = lesson_check(error_message="order 99812 not found in shard 3")
    assert patterns(found.lessons) == ["order 12345 not found in shard 7"]


def test_status_codes_are_not_normalised_away():
    LessonFactory(error_pattern="http 401 unauthorized", error_type="auth")
    assert patterns(lesson_check(error_message="HTTP 401 Unauthorized").lessons) == [
        "http 401 unauthorized"
    ]
    assert not lesson_check(error_message="HTTP 403 Forbidden").has_resolution


def test_type_only_lessons_are_related_never_the_resolution():
    LessonFactory(
        error_pattern="generic", error_type="timeout", effectiveness=1.0, status="approved"
    )
    LessonFactory(error_pattern="litellm_timeout", error_type="timeout", effectiveness=0.1)
    answer = lesson_check(error_type="timeout", error_message="litellm timeout after 600s")
    assert patterns(answer.lessons) == ["litellm_timeout"]
    assert patterns(answer.related) == ["generic"]
    assert [entry.match for entry in answer.lessons + answer.related] == ["template", "type"]
    # The approved lesson only shares the type: no approved resolution is known.
    assert answer.has_resolution and not answer.has_approved_resolution


def test_the_fit_ranks_before_approval_and_effectiveness():
    """A tighter fit first, whatever the effectiveness; a link the fleet confirmed first, even
    for an unverified lesson; but an unverified lesson found only by its writer's own pattern
    after every approved one, however tightly it fits."""
    pattern = pattern_for_message(message="worker pool exhausted: 64 of 64 busy")
    words = LessonFactory(error_pattern="busy pool exhausted", status="approved", rank_score=0.9)
    exact = LessonFactory(
        error_pattern="worker pool exhausted: <*> of <*> busy", status="approved", rank_score=0.1
    )
    own = LessonFactory(error_pattern="worker pool exhausted: <*> of 64 busy", rank_score=1.0)
    linked = LessonFactory(error_pattern="no words in common here", rank_score=0.0)
    linked.patterns.add(pattern)
    found = lesson_check(error_message="worker pool exhausted: 12 of 64 busy").lessons
    assert [(entry.lesson.pk, entry.match) for entry in found] == [
        (linked.pk, "pattern"),
        (exact.pk, "template"),
        (words.pk, "words"),
        (own.pk, "template"),
    ]


def test_words_that_fit_two_faults_alike_are_no_resolution():
    """A words fit that misses the word telling its fault from another lesson's: related, not
    a resolution; the other lesson, which fits, is the answer."""
    down = LessonFactory(
        error_pattern="Cannot connect to the Docker daemon at <*>. Is the docker daemon running?",
        error_type="DockerException",
        status="approved",
    )
    socket = LessonFactory(
        error_pattern="permission denied while trying to connect to the Docker "
        "daemon socket at <*>",
        error_type="DockerException",
    )
    message = (
        "permission denied while trying to connect to the Docker daemon socket at "
        'unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/'
        'version": dial unix /var/run/docker.sock: connect: permission denied'
    )
    found = lesson_check(error_message=message, error_type="DockerException")
    assert [(entry.lesson.pk, entry.match) for entry in found.lessons] == [(socket.pk, "template")]
    assert [entry.lesson.pk for entry in found.related] == [down.pk]
    # Without the other lesson nothing tells the two apart: the words fit stands.
    socket.delete()
    match_index_bump()
    found = lesson_check(error_message=message, error_type="DockerException")
    assert [(entry.lesson.pk, entry.match) for entry in found.lessons] == [(down.pk, "words")]


def test_a_more_specific_template_ranks_first():
    LessonFactory(error_pattern="connection refused", status="approved", rank_score=0.9)
    LessonFactory(error_pattern="redis <*> connection refused", status="approved", rank_score=0.1)
    found = lesson_check(error_message="redis 10.0.0.7:6379 connection refused")
    assert patterns(found.lessons) == ["redis <*> connection refused", "connection refused"]


def test_a_matched_lesson_beyond_the_limit_is_not_related():
    for n in range(4):
        LessonFactory(error_pattern=f"queue stalled <*> {n}", error_type="queue")
    LessonFactory(error_pattern="disk full", error_type="queue")
    answer = lesson_check(
        error_type="queue", error_message="queue stalled on shard 0 1 2 3", limit=2
    )
    assert len(answer.lessons) == 2 and patterns(answer.related) == ["disk full"]


def test_an_unrelated_message_finds_nothing():
    LessonFactory(error_pattern="db_connection_refused", error_type="connection")
    assert not lesson_check(error_message="KeyError: 'user_id'").has_resolution


def test_skill_filter_keeps_generic_lessons_and_prefers_the_skill():
    LessonFactory(error_pattern="generic", skill_name=None)
    LessonFactory(error_pattern="mine", skill_name="fetch")
    LessonFactory(error_pattern="other", skill_name="email")
    assert patterns(lesson_check(error_type="timeout", skill_name="fetch").related) == [
        "mine",
        "generic",
    ]
    LessonFactory(error_pattern="socket hang up", skill_name="email")
    LessonFactory(error_pattern="socket hang up while reading", skill_name=None)
    found = lesson_check(error_message="socket hang up while reading", skill_name="fetch")
    assert patterns(found.lessons) == ["socket hang up while reading"]


def test_limit():
    LessonFactory.create_batch(8)
    assert len(lesson_check(error_type="timeout").related) == 5
    assert len(lesson_check(error_type="timeout", limit=7).related) == 7


def test_list_filters():
    LessonFactory(error_pattern="a", error_type="auth", status="approved", effectiveness=0.9)
    LessonFactory(
        error_pattern="b", error_type="auth", effectiveness=0.3, resolution="rotate the token"
    )
    LessonFactory(error_pattern="c", error_type="timeout", skill_name="fetch", effectiveness=0.4)
    assert sorted(l.error_pattern for l in lesson_list(filters={"error_type": "auth"})) == [
        "a",
        "b",
    ]
    assert [l.error_pattern for l in lesson_list(filters={"status": "approved"})] == ["a"]
    assert [l.error_pattern for l in lesson_list(filters={"min_effectiveness": "0.5"})] == ["a"]
    assert [l.error_pattern for l in lesson_list(filters={"q": "TOKEN"})] == ["b"]
    assert [l.error_pattern for l in lesson_list(filters={"skill_name": "fetch"})] == ["c"]


@pytest.mark.parametrize("skill", [None, "fetch"])
@pytest.mark.parametrize("asked", ["timeout", "lib.timeout"])
@pytest.mark.parametrize("approved_only", [False, True])
def test_type_ranking_read_in_parts_equals_one_full_sort(skill, asked, approved_only):
    """The related lessons are read per type, status and skill in index order and merged: the
    same as sorting every lesson of the types (a type with a module path also reads the
    lessons that name its class alone)."""
    import random

    from lessons.models import Lesson

    rng = random.Random(5)
    for n in range(80):
        LessonFactory(
            error_pattern=f"p{n}",
            error_type=rng.choice(["timeout", "lib.timeout"]),
            status=rng.choice(["approved", "unverified", "rejected"]),
            skill_name=rng.choice([None, "fetch", "email"]),
            rank_score=rng.choice([0.1, 0.5, 0.9]),
            occurrences=rng.randint(1, 4),
        )
    LessonFactory(error_pattern="other-type", error_type="auth", status="approved", rank_score=1)
    types = {asked, "timeout"}
    statuses = {"approved"} if approved_only else {"approved", "unverified"}
    allowed = [
        lesson
        for lesson in Lesson.objects.filter(error_type__in=types)
        if lesson.status in statuses and (skill is None or lesson.skill_name in (skill, None))
    ]
    own = lambda l: bool(skill) and l.skill_name == skill  # noqa: E731
    expected = sorted(
        allowed,
        key=lambda l: (
            l.status == "approved",
            own(l),
            l.rank_score,
            l.occurrences,
            l.last_occurred,
        ),
        reverse=True,
    )

    for limit in (1, 5, 12):
        found = lesson_check(
            error_type=asked, skill_name=skill, limit=limit, approved_only=approved_only
        ).related
        key = lambda l: (l.status, own(l), l.rank_score, l.occurrences)  # noqa: E731
        assert [key(e.lesson) for e in found] == [key(l) for l in expected[:limit]]
        assert {e.match for e in found} == {"type"}


def test_best_lesson_per_pattern_breaks_ties_as_the_check_ranks_them():
    """History and insights show one fix per pattern: equal scores and occurrences go to the
    most recent lesson, then to the lowest primary key, whatever order the rows are read in
    (the answer is cached, so a fix that flipped between reads would show two answers)."""
    pattern = pattern_for_message(message="connection reset by peer 10.0.0.7")
    when = timezone.now() - timedelta(hours=1)
    ids = sorted(uuid.uuid4() for _ in range(3))
    # Created highest id first, so the table's order is not the tie order.
    for pk, fix in zip(ids[::-1], ["third", "second", "first"]):
        LessonFactory(
            id=pk, resolution=fix, rank_score=0.5, occurrences=2, last_occurred=when
        ).patterns.add(pattern)
    assert lessons_best_by_pattern([pattern.pk]) == {pattern.pk: ("first", False)}
    LessonFactory(
        resolution="newer",
        rank_score=0.5,
        occurrences=2,
        last_occurred=when + timedelta(minutes=1),
    ).patterns.add(pattern)
    assert lessons_best_by_pattern([pattern.pk]) == {pattern.pk: ("newer", False)}
    LessonFactory(
        resolution="approved",
        status="approved",
        rank_score=0.1,
        occurrences=1,
        last_occurred=when - timedelta(days=1),
    ).patterns.add(pattern)
    assert lessons_best_by_pattern([pattern.pk]) == {pattern.pk: ("approved", True)}


def test_a_pattern_link_counts_only_when_the_message_names_what_the_lesson_names():
    from lessons.curation import lesson_approve
    from lessons.services import lesson_record

    recorded = lesson_record(
        error_pattern="401 Client Error: Unauthorized for url: https://api.crm.acme.io/<*>",
        error_type="HTTPError",
        resolution="Refresh the CRM token",
        error_message="401 Client Error: Unauthorized for url: "
        "https://api.crm.acme.io/v2/contacts/5",
    )
    # Approved: its writer's sample links it as any link does (unverified, the link would rank
    # after its template fit, lessons.ranking).
    lesson_approve(lesson=recorded.lesson, user=None)
    ours = lesson_check(
        error_message="401 Client Error: Unauthorized for url: https://api.crm.acme.io/v2/deals/9"
    )
    assert [entry.match for entry in ours.lessons] == ["pattern"]
    # The same template (the URL is a value), another host: not this lesson's fault.
    theirs = lesson_check(
        error_type="HTTPError",
        error_message="401 Client Error: Unauthorized "
        "for url: https://hooks.zapier.com/hooks/catch/1/abc",
    )
    assert theirs.lessons == [] and [entry.match for entry in theirs.related] == ["type"]


def test_a_linked_wording_of_its_own_answers_without_the_names_of_the_lessons_pattern():
    from lessons.curation import lesson_approve
    from lessons.services import lesson_record

    anthropic = (
        "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', "
        "'message': 'messages.14: `tool_use` ids were found without `tool_result` blocks "
        "immediately after: toolu_01XkR9vD2mPq7sLw3nYb8cTf'}}"
    )

    def openai(call_id: str, at: int) -> str:
        return (
            "Error code: 400 - {'error': {'message': \"An assistant message with 'tool_calls' "
            "must be followed by tool messages responding to each 'tool_call_id'. The following "
            f"tool_call_ids did not have response messages: call_{call_id}\", 'type': "
            f"'invalid_request_error', 'param': 'messages.[{at}].role', 'code': None}}}}"
        )

    recorded = lesson_record(
        error_pattern=(
            "messages.<*>: `tool_use` ids were found without `tool_result` blocks immediately "
            "after: <*>"
        ),
        error_type="BadRequestError",
        resolution="Send each tool result right after the call that asked for it.",
        error_messages=[anthropic, openai("Fq83hZk2LmN0pRt5vWx1yA7c", 6)],
    )
    lesson_approve(lesson=recorded.lesson, user=None)
    # OpenAI's wording, sent with the lesson, names the fault in its own words: the link
    # answers it, though it never says `tool_use`.
    found = lesson_check(
        error_type="openai.BadRequestError",
        error_message=openai("Z9yX8wV7uT6sR5qP4oN3mL2k", 12),
    )
    assert [entry.match for entry in found.lessons] == ["pattern"]
    # Anthropic's own wording still needs the names of the pattern it is a wording of.
    assert lesson_check(
        error_type="anthropic.BadRequestError", error_message=anthropic
    ).has_resolution


def test_across_error_classes_a_template_needs_a_distinctive_word_or_three_words():
    LessonFactory(error_pattern="connection refused", error_type="OperationalError")
    LessonFactory(
        error_pattern="fatal: Authentication failed for <*>", error_type="CalledProcessError"
    )
    refused = "[Errno 111] Connection refused"
    assert not lesson_check(
        error_type="ConnectionRefusedError", error_message=refused
    ).has_resolution
    # The same class under its module path is the same type.
    assert patterns(
        lesson_check(error_type="psycopg.OperationalError", error_message=refused).lessons
    ) == ["connection refused"]
    found = lesson_check(
        error_type="GitCommandError",
        error_message=(
            "Cmd('git') failed: stderr: 'fatal: Authentication failed for 'https://gitlab.acme.io/x''"
        ),
    )
    assert patterns(found.lessons) == ["fatal: Authentication failed for <*>"]


def test_across_a_carrier_type_a_words_fit_counts_and_a_generic_template_does_not():
    # A command's exit (CalledProcessError) carries another fault's text: the lesson's
    # distinctive words fit it; a template of generic words keeps to its own type.
    LessonFactory(error_pattern="[Errno 28] No space left on device", error_type="OSError")
    LessonFactory(error_pattern="connection refused", error_type="OperationalError")
    full = "fatal: write error: No space left on device\nfatal: index-pack failed"
    assert patterns(
        lesson_check(error_type="subprocess.CalledProcessError", error_message=full).lessons
    ) == ["[Errno 28] No space left on device"]
    assert not lesson_check(error_type="GitCommandError", error_message=full).has_resolution
    refused = "ssh: connect to host github.com port 22: Connection refused"
    assert not lesson_check(error_type="CalledProcessError", error_message=refused).has_resolution
    # A lesson recorded with a carrier type fits by words a message of any type.
    LessonFactory(
        error_pattern="npm ERR! code ENOSPC disk quota on the runner",
        error_type="CalledProcessError",
    )
    found = lesson_check(error_type="OSError", error_message="ENOSPC: runner disk quota reached")
    assert "npm ERR! code ENOSPC disk quota on the runner" in patterns(found.lessons)


def test_a_slug_is_its_writers_name_for_the_fault_and_holds_across_carriers_only():
    # A slug names the fault in the lesson writer's words: a message of another type that
    # holds it whole carries it as a value (the key of a unique violation), not as its fault.
    LessonFactory(error_pattern="api_429_rate_limit", error_type="openai.RateLimitError")
    duplicate = (
        'duplicate key value violates unique constraint "lessons_lesson_error_pattern_key"\n'
        "DETAIL:  Key (error_pattern)=(api_429_rate_limit) already exists."
    )
    assert not lesson_check(
        error_type="django.db.utils.IntegrityError", error_message=duplicate
    ).has_resolution
    assert lesson_check(
        error_type="RateLimitError", error_message="gave up: api_429_rate_limit"
    ).has_resolution
    assert lesson_check(
        error_type="CalledProcessError", error_message="agent exited: api_429_rate_limit"
    ).has_resolution


def test_a_failure_recorded_without_a_type_names_none():
    LessonFactory(error_pattern="connection refused", error_type="OperationalError")
    for error_type in (None, "unknown"):
        answer = lesson_check(
            error_type=error_type, error_message="[Errno 111] Connection refused"
        )
        assert patterns(answer.lessons) == ["connection refused"] and answer.related == []


def test_more_equal_fits_than_are_loaded_are_cut_alike_in_every_process():
    """More lessons than the check loads fit a message equally well: which of them are loaded
    must not hang on the order the index found them in (it may differ between processes)."""
    from lessons.match_index import Found
    from lessons.matching import WORDS, Fit
    from lessons.selectors import MESSAGE_CANDIDATES, _reaching

    keys = [uuid.UUID(int=n) for n in range(MESSAGE_CANDIDATES + 50)]
    fits = [(key, Found(Fit(WORDS, 0.75, 3.0), "timeout", False)) for key in keys]
    assert (
        _reaching(dict(fits), 5) == _reaching(dict(reversed(fits)), 5) == keys[:MESSAGE_CANDIDATES]
    )
