"""Which release brought a fault: a simulated fleet rolls from release A to B (and from one
model to another); the release job (outcomes.releases) names what B brought and nothing else,
and the failure answer, the boot briefing and the API say so."""

import random
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from config.api.services import api_key_create
from failures.models import FailurePattern, Version, VersionPattern
from outcomes.releases.services import versions_judge
from outcomes.services import outcomes_parse, outcomes_record

pytestmark = pytest.mark.django_db

TYPES = ("search", "write", "deploy")
# An old fault every release meets: one search in fifteen times out.
COMMON = ("search", 1 / 15, "timeout", "Read timed out after {n}s contacting search shard {m}")
# What release B (or model M2) brings: one deploy in ten fails on a manifest key.
BROUGHT = (
    "deploy",
    0.1,
    "key_error",
    "KeyError: 'region' while rendering deploy plan {n} of manifest v{m}",
)
# An old fault so rare that release A never happened to meet it; B meets it once.
RARE = ("write", 0, "disk_full", "OSError: [Errno 28] No space left on device: '/scratch/{n}'")
A_TASKS = 600
# B's tasks judged after each step: the new fault must be named by the last one.
B_STEPS = (50, 100, 150, 200, 300)


class Fleet:
    """Agents sending outcomes through the service, one clock moving forward."""

    def __init__(self, seed: int, dimension: str):
        self.rng = random.Random(seed)
        self.dimension = dimension  # "release" or "model"
        self.moment = timezone.now() - timedelta(days=2)

    def run(self, name: str, tasks: int, faults, forced=()) -> None:
        raws = []
        for index in range(tasks):
            self.moment += timedelta(seconds=30)
            task_type = self.rng.choice(TYPES)
            raw = {
                "event_id": str(uuid.uuid4()),
                "agent": f"agent-{index % 6}",
                "task_id": f"{name}-{index}",
                "task_type": task_type,
                "outcome": "success",
                "occurred_at": self.moment.isoformat(),
                self.dimension: name,
            }
            for fault_type, rate, error_type, message in faults:
                if task_type == fault_type and self.rng.random() < rate:
                    self._fail(raw, error_type, message)
                    break
            raws.append(raw)
        for error_type, message, task_type in forced:
            raws.append(
                self._fail(
                    {
                        "event_id": str(uuid.uuid4()),
                        "agent": "agent-0",
                        "task_id": f"{name}-forced-{error_type}",
                        "task_type": task_type,
                        "occurred_at": self.moment.isoformat(),
                        self.dimension: name,
                    },
                    error_type,
                    message,
                )
            )
        parsed = outcomes_parse(raw_items=raws)
        assert not [errors for _, errors in parsed if errors]
        outcomes_record(items=[item for item, _ in parsed])

    def _fail(self, raw: dict, error_type: str, message: str) -> dict:
        numbers = {"n": self.rng.randint(2, 60), "m": self.rng.randint(1, 9)}
        raw["outcome"] = "failure"
        raw["context"] = {"error_type": error_type, "error_message": message.format(**numbers)}
        return raw


def _verdicts(kind: str, name: str) -> dict[str, str]:
    return {
        row.pattern.error_type: row.verdict
        for row in VersionPattern.objects.filter(
            version__kind=kind, version__name=name
        ).select_related("pattern")
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("dimension", ["release", "model"])
def test_a_rollout_names_the_fault_the_new_release_brought_and_no_other(seed, dimension):
    fleet = Fleet(seed, dimension)
    fleet.run("A", A_TASKS, [COMMON])
    versions_judge()
    assert _verdicts(dimension, "A") == {"timeout": "undecided"}  # nothing to compare with
    done, named_at = 0, None
    for step in B_STEPS:
        forced = [(RARE[2], RARE[3].format(n=step), RARE[0])] if step == B_STEPS[2] else []
        fleet.run("B", step - done, [COMMON, BROUGHT], forced)
        done = step
        versions_judge()
        verdicts = _verdicts(dimension, "B")
        assert verdicts["timeout"] == "known"  # A met it: never new in B
        assert verdicts.get("disk_full", "undecided") == "undecided"  # too rare to judge
        if verdicts.get("key_error") == "new" and named_at is None:
            named_at = step
        if named_at is not None:
            assert verdicts["key_error"] == "new"  # once named, it stays named
    assert named_at is not None, "the fault B brought was never named"
    # What the rule needs: A ran about 200 deploys, so k failures in n of B's deploys are new
    # once (n / (n + 200))^k < 0.01; at B's 10% that is 3 failures in about 30-50 deploys,
    # a third of B's tasks: named by B's 200th task at the latest.
    assert named_at <= 200, named_at
    b = Version.objects.get(kind=dimension, name="B")
    assert b.previous.name == "A"
    # Worse than A: after as many tasks as A ran, B's extra failures are beyond chance.
    fleet.run("B", A_TASKS - done, [COMMON, BROUGHT])
    versions_judge()
    b.refresh_from_db()
    assert b.worse, b.worse_z
    print(f"\n{dimension}, seed {seed}: the new fault named after {named_at} tasks of B")


def test_gone_when_the_release_ran_enough_tasks_without_it():
    fleet = Fleet(5, "release")
    fleet.run("A", A_TASKS, [COMMON, BROUGHT])
    fleet.run("B", 40, [COMMON])  # the fix: B never meets BROUGHT
    versions_judge()
    assert "key_error" not in _verdicts("release", "B")  # 40 tasks are too few to tell
    fleet.run("B", 400, [COMMON])
    versions_judge()
    assert _verdicts("release", "B")["key_error"] == "gone"


def test_lines_keep_agents_versioned_apart_from_each_other():
    fleet = Fleet(6, "release")
    fleet.run("coder@1.0", 300, [COMMON])
    fleet.run("browser@7.2", 300, [COMMON])
    fleet.run("coder@1.1", 300, [COMMON])
    versions_judge()
    previous = dict(Version.objects.filter(kind="release").values_list("name", "previous__name"))
    assert previous == {"coder@1.0": None, "browser@7.2": None, "coder@1.1": "coder@1.0"}


def test_the_answers_say_what_is_new_in_the_agents_release(client):
    fleet = Fleet(1, "release")
    fleet.run("1.4.1", A_TASKS, [COMMON])
    fleet.run("1.4.2", 300, [COMMON, BROUGHT])
    versions_judge()
    key = api_key_create(name="w", scope="write").raw
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    answer = client.post(
        "/api/v1/failures",
        {
            "agent": "agent-1",
            "task": "deploy-9",
            "task_type": "deploy",
            "error": "KeyError: 'region' while rendering deploy plan 31 of manifest v2",
            "error_type": "key_error",
            "release": "1.4.2",
        },
        content_type="application/json",
        **auth,
    ).json()
    [new] = answer["new_in"]
    assert new["kind"] == "release" and new["name"] == "1.4.2" and new["previous"] == "1.4.1"
    assert new["tasks_before"] > 150  # 1.4.1's deploy tasks, about a third of 600
    assert new["note"].startswith("new in release 1.4.2: seen in no earlier release;")
    old = client.post(
        "/api/v1/failures",
        {
            "agent": "agent-1",
            "task": "search-9",
            "task_type": "search",
            "error": "Read timed out after 12s contacting search shard 4",
            "error_type": "timeout",
            "release": "1.4.2",
        },
        content_type="application/json",
        **auth,
    ).json()
    assert old["new_in"] == []

    boot = client.get("/api/v1/boot", {"agent": "agent-1", "release": "1.4.2"}, **auth).json()
    assert [item["pattern"]["template"] for item in boot["new_in_release"]] == [
        answer["pattern"]["template"]
    ]
    markdown = client.get(
        "/api/v1/boot", {"agent": "agent-1", "release": "1.4.2", "format": "markdown"}, **auth
    ).content.decode()
    [section] = [part for part in markdown.split("### ") if part.startswith("New in release")]
    assert section.startswith("New in release 1.4.2\n\n- “`KeyError: 'region' while rendering")
    assert "none in 1.4.1 over" in markdown
    assert (
        "### New in release 1.4.1\n\nNone."
        in client.get(
            "/api/v1/boot", {"agent": "agent-1", "release": "1.4.1", "format": "markdown"}, **auth
        ).content.decode()
    )

    listed = client.get("/api/v1/releases", **auth).json()["results"]
    assert [release["name"] for release in listed] == ["1.4.2", "1.4.1"]
    latest = listed[0]
    assert latest["previous"] == "1.4.1" and latest["worse_than_previous"]
    assert [p["pattern"]["id"] for p in latest["new_patterns"]] == [answer["pattern"]["id"]]
    assert listed[1]["new_patterns"] == [] and not listed[1]["worse_than_previous"]
    assert 0 < latest["success_rate"] < listed[1]["success_rate"] < 1

    pattern = client.get(f"/api/v1/patterns/{answer['pattern']['id']}", **auth).json()
    assert pattern["first_release"] == "1.4.2"
    assert [(r["name"], r["verdict"]) for r in pattern["releases"]] == [("1.4.2", "new")]
    assert client.get("/api/v1/patterns/999999999", **auth).status_code == 404
    assert client.get(f"/api/v1/patterns/{2**64}", **auth).status_code == 404
    # A pattern merged away answers for the one it was merged into.
    alias = FailurePattern.objects.get(pk=old["pattern"]["id"])
    alias.merged_into_id = answer["pattern"]["id"]
    alias.save(update_fields=["merged_into"])
    merged = client.get(f"/api/v1/patterns/{alias.pk}", **auth).json()
    assert (merged["id"], merged["merged_from"]) == (answer["pattern"]["id"], alias.pk)
    assert client.get("/api/v1/releases", {"kind": "nope"}, **auth).status_code == 400
