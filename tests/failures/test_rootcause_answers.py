"""While a root-cause group is open, the answer to a failure and the boot briefing name it:
"probably one cause with …", with the other symptoms, the agents and since when."""

from datetime import timedelta

import pytest
from django.utils import timezone

from failures.analysis.rootcauses import (
    root_cause_group_confirm,
    root_cause_group_split,
    root_causes_detect,
)
from failures.models import FailurePattern, RootCauseGroup
from failures.records.services import failures_record_many

pytestmark = pytest.mark.django_db

CACHE = "CacheReadError: memcached GET returned SERVER_ERROR out of memory for slab {}"
BROKER = "kombu.exceptions.OperationalError: [Errno 104] Connection reset by peer (channel {})"
SESSION = "SessionStore.load exceeded {}ms deadline"
AGENTS = ("a1", "a2", "a3", "a4")
# Their patterns' templates.
CACHE_T = "CacheReadError: memcached GET returned SERVER_ERROR out of memory for slab <*>"
BROKER_T = "kombu.exceptions.OperationalError: [Errno <*>] Connection reset by peer (channel <*>)"
SESSION_T = "SessionStore.load exceeded <*> deadline"


def outage(now) -> dict:
    """A quiet week (each symptom alone now and then), then an eight-minute outage that began
    twelve minutes ago: four agents retry every 40 seconds, each try meeting one symptom."""
    start = (now - timedelta(minutes=12)).replace(microsecond=0)
    entries = []
    for n, error in enumerate((CACHE, BROKER, SESSION)):
        for day in range(1, 7):
            entries.append(
                {
                    "agent": "other",
                    "task": f"old-{n}-{day}",
                    "error": error.format(day),
                    "error_type": "dependency",
                    "occurred_at": now - timedelta(days=day, hours=n + 1),
                }
            )
    for i, agent in enumerate(AGENTS):
        for k in range(12):
            error = (CACHE, BROKER, SESSION)[(i + k) % 3]
            entries.append(
                {
                    "agent": agent,
                    "task": f"{agent}-job-{k % 3}",
                    "error": error.format(k),
                    "error_type": "dependency",
                    "task_type": "orders",
                    "occurred_at": start + timedelta(seconds=5 * i + 40 * k),
                }
            )
    failures_record_many(entries=entries)
    root_causes_detect(now=now)
    return {"start": start, "group": RootCauseGroup.objects.get()}


def post(api, error: str, agent: str = "a1") -> dict:
    response = api.post(
        "/api/v1/failures",
        {"agent": agent, "task": "again", "error": error, "error_type": "dependency"},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def templates(patterns) -> set[str]:
    return {p["template"] for p in patterns}


def test_the_failure_answer_names_the_other_symptoms_of_the_open_group(api):
    found = outage(timezone.now())
    cause = post(api, CACHE.format(77))["root_cause"]
    assert cause["group"] == found["group"].pk and cause["status"] == "suggested"
    assert templates(cause["with"]) == {BROKER_T, SESSION_T}
    assert cause["agents"] == len(AGENTS)
    assert cause["since"] == found["start"].isoformat().replace("+00:00", "Z")
    first, second = (p["template"] for p in cause["with"])  # by pattern id
    assert cause["note"] == (
        f"Probably one cause with “{first}” and “{second}” "
        f"(4 agents, since {found['start']:%Y-%m-%d %H:%M} UTC): retry once that cause is fixed, "
        "not each symptom on its own."
    )
    assert post(api, "ValueError: bad literal 12 for int")["root_cause"] is None


def test_an_outcome_answer_carries_it_too(api):
    outage(timezone.now())
    response = api.post(
        "/api/v1/outcomes",
        {
            "agent": "a2",
            "task_id": "t-9",
            "task_type": "orders",
            "outcome": "failure",
            "context": {"error_type": "dependency", "error_message": SESSION.format(900)},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert templates(response.json()["failure"]["root_cause"]["with"]) == {CACHE_T, BROKER_T}


def test_the_boot_briefing_names_the_group_of_the_agents_open_tasks(read_api):
    found = outage(timezone.now())
    body = read_api.get("/api/v1/boot", {"agent": "a1"}).json()
    (cause,) = body["root_causes"]
    assert cause["group"] == found["group"].pk
    assert templates(cause["patterns"]) == {CACHE_T, BROKER_T, SESSION_T}
    assert (cause["agents"], sorted(cause["tasks"])) == (4, ["a1-job-0", "a1-job-1", "a1-job-2"])
    assert cause["note"].startswith("Probably one cause behind “")
    text = read_api.get("/api/v1/boot", {"agent": "a1", "format": "markdown"}).content.decode()
    section = text.split("### Root causes\n\n")[1].split("\n\n")[0]
    assert section.startswith("- Probably one cause behind “")
    assert f"(4 agents, since {found['start']:%Y-%m-%d %H:%M} UTC)" in section
    assert section.endswith(
        "Your tasks: **a1-job-2**, **a1-job-1**, **a1-job-0** "
        f"(group {found['group'].pk}, suggested)."
    )  # newest first
    assert "SERVER_ERROR out of memory for slab <*>`”" in section  # agent text, verbatim
    # An agent that met none of the symptoms is not told.
    assert read_api.get("/api/v1/boot", {"agent": "nobody"}).json()["root_causes"] == []


def test_a_confirmed_group_is_still_named_and_a_split_one_no_longer(api, read_api):
    found = outage(timezone.now())
    root_cause_group_confirm(group=found["group"])
    assert post(api, BROKER.format(3))["root_cause"]["status"] == "confirmed"
    root_cause_group_split(
        group=RootCauseGroup.objects.create(members_key="0" * 40, detected_at=timezone.now())
    )  # another group's decision: no effect
    assert post(api, BROKER.format(4))["root_cause"]["status"] == "confirmed"

    root_cause_group_split(group=found["group"])  # a human changed their mind
    assert not FailurePattern.objects.filter(root_cause_group__isnull=False).exists()
    assert post(api, BROKER.format(5))["root_cause"] is None
    assert read_api.get("/api/v1/boot", {"agent": "a1"}).json()["root_causes"] == []
