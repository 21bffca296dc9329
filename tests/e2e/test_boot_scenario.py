"""The boot briefing end to end over the HTTP API: three agents, three kinds of trouble.

alpha fails the same task three times with the same error (skip it), beta leaves a partial
write behind (resume it), gamma flips between two errors (a loop). Each agent's briefing holds
exactly its own entries; then alpha's success clears its skip.
"""

import pytest

RATE_LIMIT = {
    "error": "429 Too Many Requests",
    "error_type": "rate_limit",
    "retry_after": 60,
    "recovery_hint": "Implement exponential backoff",
}
CHECKPOINT = {"done": 47, "total": 100, "resume_from": 48}


def post_failure(api, agent: str, task: str, **fields) -> dict:
    response = api.post(
        "/api/v1/failures", {"agent": agent, "task": task, **fields}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def boot(api, agent: str) -> dict:
    response = api.get("/api/v1/boot", {"agent": agent})
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def fleet(api):
    """The scripted failures; returns the answers that identify patterns and failures."""
    alpha = [
        post_failure(api, "alpha", "fetch_user_data", task_type="http", **RATE_LIMIT)
        for _ in range(3)
    ]
    beta = post_failure(
        api,
        "beta",
        "update_records",
        task_type="db",
        error="Connection timeout",
        side_effects=["47 records written", "53 pending"],
        recovery_hint="Resume from record #48",
        checkpoint=CHECKPOINT,
    )
    gamma = [
        post_failure(api, "gamma", "parse_feed", task_type="http", error=error)
        for error in ["KeyError: 'price'", "ValueError: invalid literal for int()"] * 2
    ]
    return {"alpha": alpha, "beta": beta, "gamma": gamma}


def test_each_agent_gets_exactly_its_skip_resume_and_loop(api, fleet):
    alpha, beta, gamma = (boot(api, agent) for agent in ("alpha", "beta", "gamma"))

    [skip] = alpha["skip"]
    assert (skip["task"], skip["failures"]) == ("fetch_user_data", 3)
    assert skip["pattern"]["id"] == fleet["alpha"][0]["pattern"]["id"]
    assert [(loop["task"], loop["kind"]) for loop in alpha["loops"]] == [
        ("fetch_user_data", "repeat")
    ]  # the same failure three times is a loop as well
    assert alpha["resume"] == []

    [resume] = beta["resume"]
    assert (resume["task"], resume["failure_id"]) == ("update_records", fleet["beta"]["id"])
    assert resume["checkpoint"] == CHECKPOINT
    assert resume["side_effects"] == ["47 records written", "53 pending"]
    assert beta["skip"] == [] and beta["loops"] == []

    [loop] = gamma["loops"]
    assert (loop["task"], loop["kind"], loop["length"]) == ("parse_feed", "alternating", 4)
    assert [p["id"] for p in loop["patterns"]] == [
        answer["pattern"]["id"] for answer in fleet["gamma"][:2]
    ]
    assert gamma["skip"] == [] and gamma["resume"] == []


def test_a_success_clears_the_skip(api, fleet):
    response = api.post(
        "/api/v1/failures/resolve", {"agent": "alpha", "task": "fetch_user_data"}, format="json"
    )
    assert response.json() == {"resolved": 3, "status": "resolved"}

    alpha = boot(api, "alpha")
    assert alpha["skip"] == [] and alpha["loops"] == [] and alpha["retry_advice"] == []
    assert len(alpha["recent_failures"]) == 3  # still history, no longer trouble
    assert [entry["task"] for entry in boot(api, "gamma")["loops"]] == ["parse_feed"]
