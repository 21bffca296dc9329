"""How often the check's answer is right, measured on a labelled set (check_cases/).

``lessons.json`` holds lessons as a team running agents records them (pattern, type, resolution,
review status, and the messages its writer saw); ``cases.json`` holds error messages as real
libraries and tools print them, each labelled by hand with the lesson whose resolution fixes it,
or none. A third and more have no right lesson: same type but other specifics, words shared
across types, generic messages. About one in six of those with a right lesson is worded as
another library words the same fault; a sample of the lesson has that wording.

The lessons are recorded through the API as an agent records them, the approved ones approved
as a curator does; every case is then checked through the API. ``lessons`` in the answer are
the matched lessons (``related`` ones share only the type and are not counted).
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lessons.curation import lesson_approve
from lessons.models import Lesson

pytestmark = pytest.mark.django_db

CASES = Path(__file__).parent / "check_cases"
MIN_PRECISION = 0.95
MIN_RECALL = 0.90
MIN_TOP1 = 0.90
SHOWN = 100  # characters of a message in the lists of wrong answers


def labelled(name: str) -> list[dict]:
    return json.loads((CASES / name).read_text(encoding="utf-8"))


def test_the_labelled_set_is_consistent():
    lessons, cases = labelled("lessons.json"), labelled("cases.json")
    keys = [lesson["key"] for lesson in lessons]
    assert len(keys) == len(set(keys))
    assert all(1 <= len(lesson["samples"]) <= 10 for lesson in lessons)
    samples = {sample for lesson in lessons for sample in lesson["samples"]}
    assert all(case["lesson"] in keys or case["lesson"] is None for case in cases)
    assert not [case["message"] for case in cases if case["message"] in samples]
    with_lesson = [case for case in cases if case["lesson"]]
    assert len(cases) >= 300 and len(cases) - len(with_lesson) >= len(cases) / 3


@dataclass
class Tally:
    """Answers to the cases, sorted into what the figures count."""

    with_lesson: int = 0
    without: int = 0
    found: int = 0  # has_resolution for a case with a right lesson
    false_found: list = field(default_factory=list)  # has_resolution for a case with none
    missed: list = field(default_factory=list)
    first_right: int = 0
    first_wrong: list = field(default_factory=list)
    approved_right: int = 0
    approved_wrong: list = field(default_factory=list)
    other_wordings: int = 0
    other_wordings_found: int = 0

    def precision(self) -> float:
        said = self.found + len(self.false_found)
        return self.found / said if said else 1.0

    def recall(self) -> float:
        return self.found / self.with_lesson

    def top1(self) -> float:
        return self.first_right / self.with_lesson

    def approved_precision(self) -> float:
        said = self.approved_right + len(self.approved_wrong)
        return self.approved_right / said if said else 1.0


def record_lessons(api, curator, lessons: list[dict]) -> dict:
    """Record each lesson as an agent does, approve the approved ones as a curator does;
    answer {lesson id: key}."""
    keys = {}
    for lesson in lessons:
        body = {
            name: lesson[name]
            for name in ("error_pattern", "error_type", "resolution", "skill_name")
            if lesson.get(name)
        }
        body["error_message"] = lesson["samples"][0]
        body["error_messages"] = lesson["samples"]
        response = api.post("/api/v1/lessons", body, format="json")
        assert response.status_code == 201, (lesson["key"], response.json())
        lesson_id = response.json()["id"]
        if lesson["status"] == "approved":
            lesson_approve(lesson=Lesson.objects.get(pk=lesson_id), user=curator)
        keys[lesson_id] = lesson["key"]
    return keys


def check_cases(api, cases: list[dict], keys: dict, approved: set) -> Tally:
    tally = Tally()
    for case in cases:
        query = {"error_type": case["error_type"]}
        if case["message"]:
            query["error_message"] = case["message"]
        response = api.post("/api/v1/lessons/check", query, format="json")
        assert response.status_code == 200, (case, response.json())
        answer = response.json()
        named = [keys[lesson["id"]] for lesson in answer["lessons"]]
        right = case["lesson"]
        shown = (
            case["message"][:SHOWN].replace("\n", " | "),
            case["error_type"],
            right,
            named[:3],
        )
        if right is None:
            tally.without += 1
            if answer["has_resolution"]:
                tally.false_found.append(shown)
        else:
            tally.with_lesson += 1
            other_wording = case["note"].startswith("other wording")
            tally.other_wordings += other_wording
            if answer["has_resolution"]:
                tally.found += 1
            else:
                tally.missed.append(shown)
            if named[:1] == [right]:
                tally.first_right += 1
                tally.other_wordings_found += other_wording
            else:
                tally.first_wrong.append(shown)
        if answer["has_approved_resolution"]:
            if right in approved and right in named:
                tally.approved_right += 1
            else:
                tally.approved_wrong.append(shown)
    return tally


def report(tally: Tally, lessons: int) -> None:
    def listing(title, rows):
        print(f"\n{title} ({len(rows)}): message | type | right lesson | answered")
        for message, error_type, right, named in rows:
            print(f"  {message!r} | {error_type} | {right} | {named}")

    print(
        f"\nlabelled set: {lessons} lessons, {tally.with_lesson + tally.without} messages "
        f"({tally.with_lesson} with a right lesson, {tally.without} without; "
        f"{tally.other_wordings} in another wording)"
    )
    print(
        f"{'has_resolution precision':<34}{tally.precision():.3f}  "
        f"({tally.found} right, {len(tally.false_found)} for a message with no right lesson)"
    )
    print(
        f"{'has_resolution recall':<34}{tally.recall():.3f}  "
        f"({tally.found} of {tally.with_lesson})"
    )
    print(
        f"{'first lesson is the right one':<34}{tally.top1():.3f}  "
        f"({tally.first_right} of {tally.with_lesson}; other wordings "
        f"{tally.other_wordings_found} of {tally.other_wordings})"
    )
    print(
        f"{'has_approved_resolution precision':<34}{tally.approved_precision():.3f}  "
        f"({tally.approved_right} right, {len(tally.approved_wrong)} wrong)"
    )
    listing("resolution said known, none is right", tally.false_found)
    listing("right lesson not found", tally.missed)
    listing("another lesson first", [row for row in tally.first_wrong if row[3]])


def test_the_check_is_right_on_the_labelled_set(api, admin_user):
    """A resolution is said known only when a lesson fits (precision), nearly always when one
    does (recall), and the right lesson comes first. has_approved_resolution is right when the
    case's right lesson is approved and among the matched lessons."""
    lessons, cases = labelled("lessons.json"), labelled("cases.json")
    keys = record_lessons(api, admin_user, lessons)
    approved = {lesson["key"] for lesson in lessons if lesson["status"] == "approved"}
    tally = check_cases(api, cases, keys, approved)
    report(tally, len(lessons))
    assert tally.precision() >= MIN_PRECISION
    assert tally.recall() >= MIN_RECALL
    assert tally.top1() >= MIN_TOP1


# Floors for the cases written blind (cases_blind.json: 258 messages by a writer who had read
# neither the matcher nor cases.json, labelled by root cause and fix, a third with no right
# lesson), alone and with cases.json. First contact: blind precision 0.877, recall 0.581, first
# lesson 0.581; whole set of 734: 0.939, 0.787, 0.787. With a words fit across a carrier type
# (a command's CalledProcessError holding another fault's text) and quoted paths seen from
# another directory: blind 0.886, 0.634, 0.634; whole 0.941, 0.817, 0.817; with the engine's
# rule of which HTTP status codes stay literal (a bare "(429)" is now a value): whole 0.941,
# 0.814, 0.814; with another library's class of one name another type: whole 0.943; with a word
# a pattern repeats counted once and a slug of another type held only through a carrier type:
# blind 0.894, 0.640, 0.640; whole 0.954, 0.817, 0.817; with a linked wording of its own
# answering without the names of the lesson's pattern: blind 0.895, 0.645, 0.645; whole 0.955,
# 0.829, 0.829. A change that makes them worse fails.
# The targets are higher (precision 0.97, recall and first lesson 0.93 over the whole set) and
# not met: most blind misses share no word with the lesson (libGL.so.1 for a missing cv2,
# Bedrock's ThrottlingException for a rate limit).
BLIND_FLOORS = {"precision": 0.89, "recall": 0.63, "top1": 0.63}
# The second set written blind (cases_blind_2.json: 222 messages, 77 with no right lesson, by
# another writer who had read neither the matcher nor any other case, after the rules above;
# 58 of its messages are ones an earlier set holds, with the same label). First contact:
# precision 0.892, recall 0.628, first lesson 0.628.
BLIND_2_FLOORS = {"precision": 0.89, "recall": 0.62, "top1": 0.62}
# The whole set, each message once (cases.json and both blind sets, 863 messages): first
# measured 0.941, 0.781, 0.781.
WHOLE_FLOORS = {"precision": 0.94, "recall": 0.78, "top1": 0.78}


def beyond_text(case: dict) -> bool:
    """Whether the case's writer marked it as out of reach of any text measure: a very
    different wording of the lesson's fault, or a near miss indistinguishable by its text."""
    note = case["note"].lower()
    return "very different wording" in note or "indistinguishable" in note


def test_the_check_on_cases_written_blind(api, admin_user):
    """Each set written blind apart, then the whole labelled set, then the whole set but the
    cases their writers marked beyond the text."""
    lessons = labelled("lessons.json")
    keys = record_lessons(api, admin_user, lessons)
    approved = {lesson["key"] for lesson in lessons if lesson["status"] == "approved"}
    every = labelled("cases.json")
    measured = []
    for name, floors in (
        ("cases_blind.json", BLIND_FLOORS),
        ("cases_blind_2.json", BLIND_2_FLOORS),
    ):
        cases = labelled(name)
        assert all(case["lesson"] in keys.values() or case["lesson"] is None for case in cases)
        print(f"\n--- written blind: {name} ---")
        tally = check_cases(api, cases, keys, approved)
        report(tally, len(lessons))
        measured.append((tally, floors))
        # A message an earlier set holds (real libraries print some messages one way only) is
        # counted there, once, in the whole set: no two writers labelled one apart.
        seen = {case["message"]: case["lesson"] for case in every}
        assert all(seen.get(case["message"], case["lesson"]) == case["lesson"] for case in cases)
        every += [case for case in cases if case["message"] not in seen]
    print("\n--- the whole set ---")
    whole = check_cases(api, every, keys, approved)
    report(whole, len(lessons))
    measured.append((whole, WHOLE_FLOORS))
    reachable = [case for case in every if not beyond_text(case)]
    print(
        f"\n--- the whole set but the {len(every) - len(reachable)} cases marked "
        "by their writer as beyond the text (counted above, not here) ---"
    )
    report(check_cases(api, reachable, keys, approved), len(lessons))
    for tally, floors in measured:
        assert tally.precision() >= floors["precision"]
        assert tally.recall() >= floors["recall"]
        assert tally.top1() >= floors["top1"]
