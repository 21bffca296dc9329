"""The fleet teaches a lesson the wordings of its fault: agents report that the lesson worked for
failures worded as their library words them, and the check then answers those wordings with it.

Measured on the corpus written blind for the pattern engine (tests/failures/wording_variants_
corpus.py: 161 faults, each as one library or tool words it, four messages whose per-message
parts differ; 57 pairs of different faults worded alike). Each fault has a lesson recorded in
words of its own, which no text fit can find; two agents, each with its own API key, report it
worked twice each, on the four messages. The evidence must add up on one link (three successes,
two agents, two keys: the defaults), so a wording is learned only when its messages land on one
pattern, as written or after the pattern job merges them and their links follow the merge, or
on patterns that differ only in what they quote.

The figures are printed and the first contact's held as floors: a change that makes them worse
fails."""

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from failures.store.jobstate import SETTLE
from failures.store.pattern_job import patterns_update
from lessons.models import PatternLink
from tests.conftest import bearer, report_worked
from tests.failures.wording_variants_corpus import APART, SAME

pytestmark = pytest.mark.django_db

# First contact: 113 of 161 wordings answered as reported, 122 after the pattern job; with
# reports adding up across patterns that differ only in what they quote: 124 and 130. No
# look-alike pair answered with the other fault's lesson but the one the engine joins (56 of 57).
FLOORS = {"learned": 0.77, "learned_after_job": 0.80, "apart": 0.98}


def lesson(api, n: int) -> str:
    """A lesson in words no message holds: only what the fleet reports can link it."""
    response = api.post(
        "/api/v1/lessons",
        {
            "error_pattern": f"fleet_lesson_{n}",
            "error_type": "FleetFault",
            "resolution": f"Fix number {n}.",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def answered(api, message: str) -> set[str]:
    """The lessons a check of ``message`` finds through its pattern's links."""
    body = api.post("/api/v1/lessons/check", {"error_message": message}, format="json").json()
    return {found["id"] for found in body["lessons"] if found["match"] == "pattern"}


def job() -> None:
    patterns_update(now=timezone.now() + SETTLE + timedelta(minutes=1))


def test_the_fleet_teaches_each_wording_its_lesson(api, make_key):
    other = bearer(make_key("write", name="second-fleet"))
    taught = []
    for n, group in enumerate(SAME):
        lesson_id = lesson(api, n)
        first, second, third, fourth = group["messages"]
        for client, agent, message in (
            (api, "agent-a", first),
            (api, "agent-a", second),
            (other, "agent-b", third),
            (other, "agent-b", fourth),
        ):
            report_worked(client, lesson_id, agent, message)
        taught.append((group, lesson_id))

    def learned() -> list:
        return [
            group
            for group, lesson_id in taught
            if all(lesson_id in answered(api, message) for message in group["messages"])
        ]

    as_reported = learned()
    job()
    after_job = learned()
    states = Counter(PatternLink.objects.values_list("state", flat=True))
    print(
        f"\n{len(SAME)} wordings, each reported worked by 2 agents of 2 keys on 4 messages: "
        f"{len(as_reported)} answered with their lesson as reported, {len(after_job)} after the "
        f"pattern job ({len(after_job) / len(SAME):.3f}); links {dict(sorted(states.items()))}"
    )
    for group in SAME:
        if group not in after_job:
            print(f"  not learned: {group['library']}: {group['fault']}")
    assert len(as_reported) / len(SAME) >= FLOORS["learned"]
    assert len(after_job) / len(SAME) >= FLOORS["learned_after_job"]


def test_a_wording_learned_for_one_fault_does_not_answer_its_look_alike(api, make_key):
    other = bearer(make_key("write", name="second-fleet"))
    taught = []
    for n, pair in enumerate(APART):
        lesson_id = lesson(api, n)
        for client, agent in ((api, "agent-a"), (api, "agent-a"), (other, "agent-b")):
            report_worked(client, lesson_id, agent, pair["a"])
        taught.append((pair, lesson_id))
    job()
    assert all(lesson_id in answered(api, pair["a"]) for pair, lesson_id in taught)
    leaked = [pair for pair, lesson_id in taught if lesson_id in answered(api, pair["b"])]
    apart = (len(APART) - len(leaked)) / len(APART)
    print(
        f"\n{len(APART)} look-alike pairs, a lesson learned on one: {len(APART) - len(leaked)} "
        f"not answered on the other ({apart:.3f})"
    )
    for pair in leaked:
        print(f"  answered on the other: {pair['library']}: {pair.get('why', '')}")
    assert apart >= FLOORS["apart"]
